//go:build !race

package device_test

// raceEnabled: the test binary runs under the race detector, where every
// cpu thread is a goroutine and everything runs several times slower.
const raceEnabled = false
