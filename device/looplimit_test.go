package device_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/testdata/longloop"
	"github.com/gpukvet/gpukvet/device/vulkan"
)

// TestLoopLimitDeviation runs a loop of 70000 iterations on the vulkan
// device and holds Info().Deviations to what happens: a device that ends
// the loop early (lavapipe's loop limiter) must list it, and one that runs
// it whole must not, so the entry cannot go stale either way.
func TestLoopLimitDeviation(t *testing.T) {
	if raceEnabled {
		t.Skip("the run without -race covers the vulkan backend")
	}
	d, err := device.OpenBackend("vulkan")
	if err != nil {
		t.Skipf("no Vulkan device here: %v", err)
	}
	defer d.Close()
	registerSPIRV(t, "github.com/gpukvet/gpukvet/device/testdata/longloop", longloop.Count, "n", "a", "out")
	const n = 70000
	a := upload(t, d, []int32{1, 1, 1, 1, 1, 1, 1, 1})
	out := upload(t, d, []int32{-1})
	if err := d.Launch(longloop.Count, dim(1, 1, 1), dim(1, 1, 1), int32(n), a, out); err != nil {
		t.Fatal(err)
	}
	got, err := out.Download()
	if err != nil {
		t.Fatal(err)
	}
	vb, err := vulkan.OpenBackend() // the device d runs on, for its Info
	if err != nil {
		t.Fatal(err)
	}
	info := vb.Info()
	vb.Close()
	listed := slices.ContainsFunc(info.Deviations, func(s string) bool { return strings.Contains(s, "loop limiter") })
	switch {
	case got[0] != n && !listed:
		t.Errorf("%s: a loop of %d iterations gave %d, and Info().Deviations does not list a loop limit: %q", info.Name, n, got[0], info.Deviations)
	case got[0] == n && listed:
		t.Errorf("%s: a loop of %d iterations ran whole, yet Info().Deviations lists a loop limit", info.Name, n)
	}
	t.Logf("%s: %d iterations gave %d; deviations %q", info.Name, n, got[0], info.Deviations)
}
