//go:build !race

package device_test

// floatSumLaunches is how many launches TestValidateFloatAtomics
// validates.
const floatSumLaunches = 1000
