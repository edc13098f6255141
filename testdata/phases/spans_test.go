package phases

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// spanBlocks is enough blocks that a worker takes runs of them (the cpu
// backend hands out up to 64 at a time), so that the loops run spans.
const spanBlocks = 1024

// wantTrap checks that err is a trap of kernel name in block bid, thread
// tid, at the line of spans.go marked with mark, whose message holds msg.
func wantTrap(t *testing.T, sched string, err error, name string, bid, tid gpu.Dim3, mark, msg string) {
	t.Helper()
	var trap *backend.Trap
	if !errors.As(err, &trap) {
		t.Fatalf("%s: got %v, want a trap", sched, err)
	}
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "spans.go")
	line := 0
	for i, l := range strings.Split(readFile(t, src), "\n") {
		if strings.Contains(l, mark) {
			line = i + 1
		}
	}
	if !strings.HasSuffix(trap.Kernel, name) {
		t.Errorf("%s: trap names kernel %q, want %s", sched, trap.Kernel, name)
	}
	if trap.Block != bid || trap.Thread != tid {
		t.Errorf("%s: trap in block %v thread %v, want block %v thread %v: %v", sched, trap.Block, trap.Thread, bid, tid, err)
	}
	if want := fmt.Sprintf("%s:%d", src, line); trap.Pos != want {
		t.Errorf("%s: trap at %q, want %q", sched, trap.Pos, want)
	}
	if !strings.Contains(trap.Msg, msg) {
		t.Errorf("%s: trap message %q, want %q in it", sched, trap.Msg, msg)
	}
}

// TestSpanTrap: a trap inside a span of blocks names its own block and
// thread, not the span's first.
func TestSpanTrap(t *testing.T) {
	n := spanBlocks * 32
	d := make([]int32, n)
	for i := range d {
		d[i] = 1
	}
	d[37*32+5] = 0
	for name, dev := range schedules(t) {
		err := LaunchSpanDiv(dev, dim(spanBlocks, 1), dim(32, 1), upload(t, dev, d), upload(t, dev, make([]int32, n)))
		if err == nil {
			err = dev.Sync()
		}
		wantTrap(t, name, err, "SpanDiv", gpu.Dim3{X: 37}, gpu.Dim3{X: 5}, "// the division trap", "integer divide by zero")
	}
}

// TestSpanCopy: where x holds every row, the copy without checks computes
// what the kernel does; where it is short, the checked copy traps at its
// end, in the right block and thread.
func TestSpanCopy(t *testing.T) {
	n := spanBlocks * 32
	x := make([]float32, n)
	want := make([]float32, n)
	for i := range x {
		x[i] = float32(i)
		want[i] = float32(i) + 1
	}
	run(t, n, want, func(d *device.Device, out *device.Buffer[float32]) error {
		return LaunchSpanCopy(d, dim(spanBlocks, 1), dim(32, 1), upload(t, d, x), out)
	})
	for name, d := range schedules(t) {
		// Only thread 100 is inside y and past x's end.
		err := LaunchSpanCopy(d, dim(spanBlocks, 1), dim(32, 1), upload(t, d, x[:100]), upload(t, d, make([]float32, 101)))
		if err == nil {
			err = d.Sync()
		}
		wantTrap(t, name, err, "SpanCopy", gpu.Dim3{X: 3}, gpu.Dim3{X: 4}, "// the copy trap", "index out of range [100] with length 100")
	}
}

// TestSpanCount: on a 2-d grid every thread runs once, each span of
// blocks within its row of the grid.
func TestSpanCount(t *testing.T) {
	const rows, w = 3, spanBlocks*32 - 7
	want := make([]int32, rows*w)
	for y := range rows {
		for x := range w {
			want[y*w+x] = int32(y + 1)
		}
	}
	run(t, rows*w, want, func(d *device.Device, out *device.Buffer[int32]) error {
		return LaunchSpanCount(d, dim(spanBlocks, rows), dim(32, 1), w, out)
	})
}

// TestSpanRecords: the copy of a row that cannot trap records no thread
// (SpanCopy's, under the test that x and y hold the row); a copy that can
// (SpanDiv's integer division) records every thread, as the checked copy
// does.
func TestSpanRecords(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	src := readFile(t, filepath.Join(filepath.Dir(file), "gpukvet_gen.go"))
	for kernel, want := range map[string]int{"SpanCopy": 1, "SpanDiv": 2} {
		fn := src[strings.Index(src, "func gpukvetCPU"+kernel+"("):]
		fn = fn[:strings.Index(fn, "\n}\n")]
		if got := strings.Count(fn, "gpukvetB.Cursor[0] = gpukvetGX"); got != want {
			t.Errorf("%s's block loop records the thread in %d copies of its row, want %d", kernel, got, want)
		}
	}
}
