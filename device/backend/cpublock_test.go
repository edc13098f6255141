package backend

import (
	"reflect"
	"testing"

	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/cpuexec"
)

// TestThreadLayout keeps thread, which CPUBlock.Thread converts to a
// gpu.Thread, identical to gpu.Thread: the same fields, of the same types,
// at the same offsets.
func TestThreadLayout(t *testing.T) {
	want, got := reflect.TypeFor[gpu.Thread](), reflect.TypeFor[thread]()
	if want.Size() != got.Size() || want.NumField() != got.NumField() {
		t.Fatalf("gpu.Thread is %d bytes in %d fields, thread %d in %d", want.Size(), want.NumField(), got.Size(), got.NumField())
	}
	for i := range want.NumField() {
		w, g := want.Field(i), got.Field(i)
		if w.Name != g.Name || w.Type != g.Type || w.Offset != g.Offset {
			t.Errorf("field %d: gpu.Thread has %s %v at %d, thread %s %v at %d", i, w.Name, w.Type, w.Offset, g.Name, g.Type, g.Offset)
		}
	}
}

// TestCPUBlockThread: the thread's indices are those of the block and the
// thread, and the block records the thread's X.
func TestCPUBlockThread(t *testing.T) {
	blk := cpuexec.NewBlock("k", [3]int{}, 8)
	blk.Reset([3]int{1, 2, 0}, [3]int{4, 2, 1}, [3]int{3, 3, 1})
	th := CPUBlock{blk}.Thread(3, 1, 0)
	if got, want := th.ThreadIdx(), (gpu.Dim3{X: 3, Y: 1}); got != want {
		t.Errorf("ThreadIdx = %v, want %v", got, want)
	}
	if got, want := th.GlobalIdx(), (gpu.Dim3{X: 7, Y: 5}); got != want {
		t.Errorf("GlobalIdx = %v, want %v", got, want)
	}
	if got, want := th.BlockDim(), (gpu.Dim3{X: 4, Y: 2, Z: 1}); got != want {
		t.Errorf("BlockDim = %v, want %v", got, want)
	}
	blk.Row(1, 0)
	if bid, tid := blk.Running(); bid != [3]int{1, 2, 0} || tid != [3]int{3, 1, 0} {
		t.Errorf("Running = %v, %v (Cursor %v), want block (1,2,0) thread (3,1,0)", bid, tid, blk.Cursor)
	}
	// A loop over a span of blocks counts X across them.
	blk.Span = 2
	CPUBlock{blk}.Thread(6, 1, 0)
	if bid, tid := blk.Running(); bid != [3]int{2, 2, 0} || tid != [3]int{2, 1, 0} {
		t.Errorf("Running in a span = %v, %v (Cursor %v), want block (2,2,0) thread (2,1,0)", bid, tid, blk.Cursor)
	}
}
