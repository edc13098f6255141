//go:build race

package cpu

// raceEnabled is true under the race detector, which allows at most 8128
// goroutines alive at once.
const raceEnabled = true
