//go:build !race

package device_test

// raceEnabled: the test binary runs under the race detector.
const raceEnabled = false
