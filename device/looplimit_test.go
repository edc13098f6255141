package device_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
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
	const pkg = "github.com/gpukvet/gpukvet/device/testdata/longloop"
	m, err := codegen.Build([]string{pkg}, codegen.Options{SPIRV: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.SPIRV) == 0 || len(m.Manifest.Kernels) != 1 {
		t.Fatalf("no SPIR-V for longloop.Count: %v", m.SPIRVFailed)
	}
	code := &backend.Code{PTX: m.PTX, SPIRV: m.SPIRV, Entry: m.Manifest.Kernels[0].Entry,
		Positions: m.Manifest.Positions, SPIRVFeatures: m.Manifest.SPIRVFeatures}
	if err := device.RegisterKernel(longloop.Count, device.KernelSpec{Dims: 1, Params: []string{"n", "a", "out"}, Code: code}); err != nil {
		t.Fatal(err)
	}
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
