package vulkan

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// TestTime times a few launches with timestamps: one positive time per
// dispatch, within the span, and launches outside Time untimed.
func TestTime(t *testing.T) {
	b := openOrSkip(t)
	const n = 1 << 16
	mx, my := upload(t, b, make([]float32, n)), upload(t, b, make([]float32, n))
	k := handKernel("hand_Saxpy", f32, f32s, f32s)
	args := []backend.Arg{{Value: reflect.ValueOf(float32(1))}, {Mem: mx}, {Mem: my}}
	launch := func() error { return b.Launch(k, gpu.Dim3{X: n / 64, Y: 1, Z: 1}, gpu.Dim3{X: 64, Y: 1, Z: 1}, args) }
	if err := launch(); err != nil { // untimed
		t.Fatal(err)
	}
	tm, err := b.Time(func() error {
		for range 3 {
			if err := launch(); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, ErrNoTimestamps) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(tm.Kernels) != 3 {
		t.Fatalf("%d kernel times, want 3", len(tm.Kernels))
	}
	for i, d := range tm.Kernels {
		if d <= 0 {
			t.Errorf("dispatch %d: %v", i, d)
		}
	}
	if tm.Total() > tm.Span || tm.Span <= 0 {
		t.Errorf("span %v, total %v: want 0 < total <= span", tm.Span, tm.Total())
	}
	t.Logf("span %v, kernels %v", tm.Span, tm.Kernels)
	if err := b.Sync(); err != nil {
		t.Fatal(err)
	}
	// An error of f is Time's, and the next call times afresh.
	boom := errors.New("boom")
	if _, err := b.Time(func() error { return boom }); err != boom {
		t.Fatalf("Time: %v, want f's error", err)
	}
	if tm, err = b.Time(launch); err != nil || len(tm.Kernels) != 1 {
		t.Fatalf("Time of one launch: %v, %v", tm, err)
	}
}

// TestTimeTooMany launches more kernels than one Time call can time.
func TestTimeTooMany(t *testing.T) {
	b := openOrSkip(t)
	if b.tsBits == 0 {
		t.Skip(ErrNoTimestamps)
	}
	mx, my := upload(t, b, make([]float32, 64)), upload(t, b, make([]float32, 64))
	k := handKernel("hand_Saxpy", f32, f32s, f32s)
	args := []backend.Arg{{Value: reflect.ValueOf(float32(1))}, {Mem: mx}, {Mem: my}}
	_, err := b.Time(func() error {
		for range maxTimed + 1 {
			if err := b.Launch(k, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: 64, Y: 1, Z: 1}, args); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		t.Fatal("Time of too many launches: no error")
	}
	if err := b.Sync(); err != nil {
		t.Fatal(err)
	}
}
