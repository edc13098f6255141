//go:build race

package races_test

const raceDetector = true
