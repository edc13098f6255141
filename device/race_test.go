//go:build race

package device_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// raceEnabled: the test binary runs under the race detector, where every
// cpu thread is a goroutine and everything runs several times slower.
const raceEnabled = true

// TestRaceDetectorSeesKernelRaces runs racy kernels in a child process (this
// test binary) and checks that Go's race detector reports them, and that it
// stays silent on a correct kernel with barriers: the cpu backend orders
// threads only where a GPU does.
func TestRaceDetectorSeesKernelRaces(t *testing.T) {
	if k := os.Getenv("GPUKVET_RACE_CHILD"); k != "" {
		d := openCPU(t)
		out := upload(t, d, make([]int32, 512))
		kernels := map[string]any{"racyShared": racyShared, "racyBlocks": racyBlocks, "blockSum": blockSum}
		args := []any{out}
		if k == "blockSum" {
			args = []any{upload(t, d, make([]int32, 512)), out}
		}
		if err := d.Launch(kernels[k], dim(8, 1, 1), dim(64, 1, 1), args...); err != nil {
			t.Fatal(err)
		}
		if err := d.Sync(); err != nil {
			t.Fatal(err)
		}
		return
	}
	for k, wantRace := range map[string]bool{"racyShared": true, "racyBlocks": true, "blockSum": false} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRaceDetectorSeesKernelRaces$", "-test.count=1")
		cmd.Env = append(os.Environ(), "GPUKVET_RACE_CHILD="+k)
		out, err := cmd.CombinedOutput()
		raced := strings.Contains(string(out), "WARNING: DATA RACE")
		switch {
		case raced != wantRace:
			t.Errorf("%s: race reported = %v, want %v; output:\n%s", k, raced, wantRace, out)
		case !wantRace && err != nil:
			t.Errorf("%s: %v; output:\n%s", k, err, out)
		}
	}
}
