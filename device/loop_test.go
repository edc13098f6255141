package device_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func storeOne(t gpu.Thread, xs []int32) {
	i := t.GlobalIdx().X
	xs[i] = int32(i) // traps for i >= len(xs)
}

//gpu:kernel
func storeRows(t gpu.Thread, xs []int32) {
	g := t.GlobalIdx()
	i := g.Y*4 + g.X
	xs[i] = int32(i) // traps for rows past len(xs)
}

// blockLoop is the cpu entry gpukvet gen writes for a kernel k without
// barriers: a loop over the block's rows and, in each, over its threads.
func blockLoop(k func(gpu.Thread, []int32)) func(args []any) (thread func(gpu.Thread), block func(backend.CPUBlock)) {
	return func(args []any) (thread func(gpu.Thread), block func(backend.CPUBlock)) {
		xs := args[0].([]int32)
		thread = func(t gpu.Thread) { k(t, xs) }
		block = func(b backend.CPUBlock) {
			_, _, bdim := b.Index()
			for z := range bdim[2] {
				for y := range bdim[1] {
					b.Row(y, z)
					for x := range bdim[0] {
						k(b.Thread(x, y, z), xs)
					}
				}
			}
		}
		return thread, block
	}
}

// TestLoopScheduleTrap registers storeOne with the cpu entry that gpukvet
// gen writes (a block loop, as for a kernel without barriers) and checks
// that the loop runs every thread and that a trap names the thread that
// trapped, as the other schedules do.
func TestLoopScheduleTrap(t *testing.T) {
	err := device.RegisterKernel(storeOne, device.KernelSpec{Dims: 1, Params: []string{"xs"}, CPU: &backend.CPUCode{Bind: blockLoop(storeOne)}})
	if err != nil {
		t.Fatal(err)
	}
	d := openCPU(t)
	xs := upload(t, d, make([]int32, 8))
	if err := d.Launch(storeOne, dim(2, 1, 1), dim(4, 1, 1), xs); err != nil {
		t.Fatal(err)
	}
	for i, v := range download(t, xs) {
		if v != int32(i) {
			t.Errorf("xs[%d] = %d, want %d", i, v, i)
		}
	}
	small := upload(t, d, make([]int32, 6))
	if err := d.Launch(storeOne, dim(2, 1, 1), dim(4, 1, 1), small); err != nil {
		t.Fatal(err)
	}
	err = d.Sync()
	// The block loop stops at thread 2, the first out of range; under
	// -race the threads run as goroutines and thread 3 may trap first.
	want := regexp.MustCompile(`storeOne trapped at .*/` + regexp.QuoteMeta(lineIn(t, "loop_test.go", "traps for i >= len(xs)")) +
		` in block \(1,0,0\), thread \((2,0,0\): index out of range \[6\]|3,0,0\): index out of range \[7\]) with length 6`)
	if err == nil || !want.MatchString(strings.ReplaceAll(err.Error(), "\\", "/")) {
		t.Errorf("Sync = %v, want a match of %s", err, want)
	}
}

// TestLoopScheduleRows is TestLoopScheduleTrap for a 2-D block: the loop
// steps through the rows, and a trap names the thread by row too.
func TestLoopScheduleRows(t *testing.T) {
	err := device.RegisterKernel(storeRows, device.KernelSpec{Dims: 2, Params: []string{"xs"}, CPU: &backend.CPUCode{Bind: blockLoop(storeRows)}})
	if err != nil {
		t.Fatal(err)
	}
	d := openCPU(t)
	xs := upload(t, d, make([]int32, 16))
	if err := d.Launch(storeRows, dim(1, 2, 1), dim(4, 2, 1), xs); err != nil {
		t.Fatal(err)
	}
	for i, v := range download(t, xs) {
		if v != int32(i) {
			t.Errorf("xs[%d] = %d, want %d", i, v, i)
		}
	}
	small := upload(t, d, make([]int32, 6))
	if err := d.Launch(storeRows, dim(1, 1, 1), dim(4, 2, 1), small); err != nil {
		t.Fatal(err)
	}
	err = d.Sync()
	// The loop stops at thread (2,1,0), the first out of range; under -race
	// the threads run as goroutines and thread (3,1,0) may trap first.
	want := regexp.MustCompile(`storeRows trapped at .*/` + regexp.QuoteMeta(lineIn(t, "loop_test.go", "traps for rows past len(xs)")) +
		` in block \(0,0,0\), thread \((2,1,0\): index out of range \[6\]|3,1,0\): index out of range \[7\]) with length 6`)
	if err == nil || !want.MatchString(strings.ReplaceAll(err.Error(), "\\", "/")) {
		t.Errorf("Sync = %v, want a match of %s", err, want)
	}
}

// lineIn returns "file:N" for the line of file that holds text.
func lineIn(t *testing.T, file, text string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, text) && !strings.Contains(line, "lineIn") {
			return fmt.Sprintf("%s:%d", file, i+1)
		}
	}
	t.Fatalf("no line of %s holds %q", file, text)
	return ""
}
