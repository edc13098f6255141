package heldout

// The held-out twin suite's tests: every kernel against plain Go on the
// cpu backend and against the cpu backend on Vulkan (lavapipe here), at
// the small sizes; with a GPU and the twins' cubin, against nvcc
// (TestTwins) and cuda against Vulkan (TestBackends). run-h200.sh runs the
// GPU half.
//
//	nvcc -O3 -arch=sm_90 -cubin -o twins.cubin bench/heldout/twins.cu
//	GPUKVET_TWINS_CUBIN=twins.cubin go test ./bench/heldout -run TestTwins -v

import (
	"testing"

	th "github.com/gpukvet/gpukvet/bench/internal/twinharness"
	"github.com/gpukvet/gpukvet/device"
)

// TestAgainstGo runs every case at its checking size on the cpu backend
// and compares the outputs with the plain Go reference.
func TestAgainstGo(t *testing.T) {
	th.CheckTwinLists(t, cases)
	seen := map[string]bool{}
	for _, c := range cases(false) {
		seen[c.Name] = true
		ref, ok := refs[c.Name]
		if !ok {
			t.Errorf("%s: no plain Go reference", c.Name)
			continue
		}
		got, want := th.CPUResult(t, c), ref(c.Args)
		if len(want) != len(c.Outs) {
			t.Fatalf("%s: the reference returns %d outputs, the case has %d", c.Name, len(want), len(c.Outs))
		}
		for i := range want {
			if err := th.Compare(got[i], want[i], max(c.Tol, 1e-5)); err != nil {
				t.Errorf("%s: output %d: %v", c.Name, c.Outs[i], err)
			}
		}
	}
	for name := range refs {
		if !seen[name] {
			t.Errorf("reference %s has no case", name)
		}
	}
}

// TestVulkan runs every case at its checking size on the vulkan backend
// and compares the outputs with the cpu backend's; without Vulkan it
// skips.
func TestVulkan(t *testing.T) {
	d, err := device.OpenBackend("vulkan")
	if err != nil {
		t.Skipf("no vulkan device: %v", err)
	}
	defer d.Close()
	th.CheckOn(t, cases, d)
}

// TestTwins times every kernel against its nvcc twin (th.RunTwins).
func TestTwins(t *testing.T) {
	th.RunTwins(t, "bench/heldout: gpukvet against nvcc", cases)
}

// TestTwinEntries checks, without a GPU, the gpukvet entry points
// TestTwins launches (th.CheckEntries).
func TestTwinEntries(t *testing.T) {
	th.CheckEntries(t, cases, "heldout_")
}

// TestBackends times every kernel on cuda and on Vulkan through package
// device (th.RunBackends; GPUKVET_BACKENDS_BENCH=1).
func TestBackends(t *testing.T) {
	th.RunBackends(t, "bench/heldout: vulkan against cuda through package device", cases)
}

// TestDumpTwins writes the twins' inputs and the cpu backend's outputs for
// twinharness/cuemu/run.sh (GPUKVET_TWINS_DUMP).
func TestDumpTwins(t *testing.T) {
	th.DumpTwins(t, cases)
}
