package device_test

import (
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/device/cpu"
	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func warnedKernel(t gpu.Thread, xs []int32) {
	if i := t.GlobalIdx().X; i < len(xs) {
		xs[i]++
	}
}

// TestWarnNoGeneratedCode checks that the cpu backend warns once, naming
// the kernel and saying what it costs and what to run, when it runs a
// kernel without generated code, however often it runs it.
func TestWarnNoGeneratedCode(t *testing.T) {
	var buf strings.Builder
	old := cpu.SetWarnings(&buf)
	defer cpu.SetWarnings(old)
	d := openCPU(t)
	xs := upload(t, d, make([]int32, 4))
	for range 3 {
		if err := d.Launch(warnedKernel, dim(1, 1, 1), dim(4, 1, 1), xs); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
	other := openCPU(t) // a second device: still once per process
	ys := upload(t, other, make([]int32, 4))
	if err := other.Launch(warnedKernel, dim(1, 1, 1), dim(4, 1, 1), ys); err != nil {
		t.Fatal(err)
	}
	other.Sync()
	got := buf.String()
	t.Log(got)
	if n := strings.Count(got, "warnedKernel"); n != 1 {
		t.Errorf("%d warnings naming warnedKernel, want 1:\n%s", n, got)
	}
	for _, want := range []string{"device_test.warnedKernel has no generated code", "hundreds of times slower", "go:generate go tool gpukvet gen", "go generate"} {
		if !strings.Contains(got, want) {
			t.Errorf("warning lacks %q:\n%s", want, got)
		}
	}
}
