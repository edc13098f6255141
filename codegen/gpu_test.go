package codegen_test

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/device/cuda"
	"github.com/gpukvet/gpukvet/gpu"
)

// TestGPUTrapBeforeBarrier runs kernels whose threads trap before a barrier
// that the rest of their block waits at, on a CUDA GPU (skipped without
// one): the trap must be reported at its line and the block must not hang.
func TestGPUTrapBeforeBarrier(t *testing.T) {
	b, err := cuda.OpenBackend()
	if err != nil {
		t.Skipf("no CUDA GPU here: %v", err)
	}
	defer b.Close()
	// The GPU machine has no Go toolchain to load packages with: the
	// module is the golden file TestGPUTrapModule keeps up to date.
	m := readModule(t, gputrapPTX)
	code := func(entry string) *backend.Code {
		return &backend.Code{PTX: m.PTX, Entry: entry, Positions: m.Manifest.Positions}
	}
	i64s := reflect.TypeFor[[]int64]()
	alloc := func(n int) backend.Memory {
		mem, err := b.Alloc(reflect.TypeFor[int64](), n)
		if err != nil {
			t.Fatal(err)
		}
		return mem
	}
	syncWithin := func(d time.Duration) error {
		done := make(chan error, 1)
		go func() { done <- b.Sync() }()
		select {
		case err := <-done:
			return err
		case <-time.After(d):
			t.Fatalf("the block hangs at the barrier after a trap (no Sync within %v)", d)
			return nil
		}
	}
	for _, n := range []int{32, 40, 63} { // a whole warp traps; part of a warp; one thread
		k := &backend.Kernel{Name: "gputrap.TrapBeforeBarrier", Params: []reflect.Type{i64s, i64s}, Dims: 1, Code: code("gputrap_TrapBeforeBarrier")}
		args := []backend.Arg{{Mem: alloc(n)}, {Mem: alloc(4 * 64)}}
		if err := b.Launch(k, gpu.Dim3{X: 4, Y: 1, Z: 1}, gpu.Dim3{X: 64, Y: 1, Z: 1}, args); err != nil {
			t.Fatal(err)
		}
		err := syncWithin(20 * time.Second)
		var te *backend.Trap
		if !errors.As(err, &te) || !strings.Contains(te.Pos, "gputrap.go:15") {
			t.Errorf("len(x)=%d: Sync = %v, want a trap at gputrap.go:15", n, err)
		}
		t.Logf("len(x)=%d: %v", n, err)
	}
	k := &backend.Kernel{Name: "gputrap.TrapInLoop", Params: []reflect.Type{reflect.TypeFor[int64](), i64s}, Dims: 1, Code: code("gputrap_TrapInLoop")}
	out := alloc(8)
	if err := b.Launch(k, gpu.Dim3{X: 8, Y: 1, Z: 1}, gpu.Dim3{X: 128, Y: 1, Z: 1}, []backend.Arg{{Value: reflect.ValueOf(int64(300))}, {Mem: out}}); err != nil {
		t.Fatal(err)
	}
	err = syncWithin(20 * time.Second)
	t.Logf("trap in a loop of barriers: %v", err)
	var te *backend.Trap
	if !errors.As(err, &te) || !strings.HasPrefix(te.Msg, "panic") || !strings.Contains(te.Pos, "gputrap.go:31") {
		t.Errorf("Sync = %v, want the panic", err)
	}
}

const gputrapPTX = "testdata/kernels/gputrap/gputrap.ptx"

var update = flag.Bool("update", false, "rewrite the golden modules under testdata")

func readModule(t *testing.T, file string) *codegen.Module {
	t.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file + ".json")
	if err != nil {
		t.Fatal(err)
	}
	m := &codegen.Module{PTX: text, Manifest: new(codegen.Manifest)}
	if err := json.Unmarshal(data, m.Manifest); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGPUTrapModule keeps the golden module of the gputrap kernels equal to
// what the codegen emits (go test ./codegen -run GPUTrapModule -update
// rewrites it).
func TestGPUTrapModule(t *testing.T) {
	m := build(t, codegen.Options{}, corpus+"gputrap")
	if *update {
		data, err := json.MarshalIndent(m.Manifest, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(gputrapPTX, m.PTX, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(gputrapPTX+".json", append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden := readModule(t, gputrapPTX)
	if string(golden.PTX) != string(m.PTX) {
		t.Errorf("%s is stale: run go test ./codegen -run GPUTrapModule -update", gputrapPTX)
	}
	assemble(t, "gputrap", string(m.PTX))
}
