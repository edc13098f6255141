package vulkan

import (
	"reflect"
	"testing"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// TestBatchOrder interleaves launches, which wait in the open command
// buffer while the queue is busy, with a device copy, a Write and a Read:
// each sees the launches before it and none after.
func TestBatchOrder(t *testing.T) {
	for _, staged := range []bool{false, true} {
		b := openOrSkip(t)
		b.staged = staged
		const n = 1 << 12
		ones := make([]float32, n)
		for i := range ones {
			ones[i] = 1
		}
		mx, my, mz := upload(t, b, ones), upload(t, b, make([]float32, n)), upload(t, b, make([]float32, n))
		k := handKernel("hand_Saxpy", f32, f32s, f32s)
		args := []backend.Arg{{Value: reflect.ValueOf(float32(1))}, {Mem: mx}, {Mem: my}}
		launch := func(times int) {
			for range times {
				if err := b.Launch(k, gpu.Dim3{X: n / 64, Y: 1, Z: 1}, gpu.Dim3{X: 64, Y: 1, Z: 1}, args); err != nil {
					t.Fatal(err)
				}
			}
		}
		want := func(m backend.Memory, v float32, what string) {
			t.Helper()
			for i, got := range read(t, b, m) {
				if got != v {
					t.Fatalf("staged=%v: %s[%d] = %v, want %v", staged, what, i, got, v)
				}
			}
		}
		// A launch on an idle queue is submitted at once.
		launch(1)
		if b.open.cb != 0 {
			t.Fatalf("staged=%v: a launch on an idle queue was not submitted", staged)
		}
		want(my, 1, "y")
		sub := b.submitted
		launch(5)
		if err := b.CopyDeviceToDevice(mz, my); err != nil {
			t.Fatal(err)
		}
		launch(5)
		want(mz, 6, "copy")
		want(my, 11, "y")
		launch(3)
		if err := b.Write(my, reflect.ValueOf(make([]float32, n))); err != nil {
			t.Fatal(err)
		}
		launch(2)
		want(my, 2, "y after Write")
		t.Logf("staged=%v: %d submissions for 15 launches after the first, a copy and the copies of Write and Read", staged, b.submitted-sub)
	}
}
