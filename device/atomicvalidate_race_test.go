//go:build race

package device_test

// floatSumLaunches is how many launches TestValidateFloatAtomics
// validates: under the race detector every thread is a goroutine, so
// fewer.
const floatSumLaunches = 50
