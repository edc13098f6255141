package device

import (
	"math"
	"reflect"
	"testing"

	"github.com/gpukvet/gpukvet/gpu"
)

// TestReorderBound checks the bound of atomiclog.go on a sum whose order
// matters, and that comparing uses it only for the elements float atomics
// reached, and only within it.
func TestReorderBound(t *testing.T) {
	xs := make([]float32, 3)
	other := make([]float32, 1)
	logs, stop := recordFloatAtomics([]reflect.Value{reflect.ValueOf(xs), {}})
	for _, v := range []float32{1e8, 1, -1e8} {
		gpu.AtomicAdd(&xs[0], v)
	}
	gpu.AtomicAdd(&other[0], 5) // not a recorded buffer
	stop()
	if logs[1] != nil {
		t.Fatal("a log for a missing buffer")
	}
	l := logs[0]
	u := 0x1p-24
	want := 2 * (3 * u) / (1 - 3*u) * (1e8 + 1 + 1e8 + 1e8)
	if got := l.reorderBound(0, true, 0); math.Abs(got-want) > want*1e-12 {
		t.Errorf("bound of 3 terms = %g, want %g", got, want)
	}
	if got := l.reorderBound(4, true, 0); got != 0 {
		t.Errorf("bound of an element no atomic reached = %g, want 0", got)
	}
	b := float32(want)
	if err := compare([]float32{0, 0, 0}, []float32{b / 2, 0, 0}, 0, l); err != nil {
		t.Errorf("a difference within the bound: %v", err)
	}
	if err := compare([]float32{0, 0, 0}, []float32{2 * b, 0, 0}, 0, l); err == nil {
		t.Error("a difference of twice the bound passed")
	}
	if err := compare([]float32{0, 0, 0}, []float32{0, 1, 0}, 0, l); err == nil {
		t.Error("a difference where no atomic added passed")
	}
	if p := atomicLogs.Load(); p != nil {
		t.Errorf("%d logs still recorded after stop", len(*p))
	}
}
