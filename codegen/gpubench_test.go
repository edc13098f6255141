package codegen_test

import (
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/device/cuda"
	"github.com/gpukvet/gpukvet/gpu"
)

// The modules the GPU benchmark runs: the matmul example compiled with the
// range-based optimizations (bounds-check elimination, 32-bit index
// arithmetic) and without. The GPU machine has no Go toolchain, so they are
// golden files, kept equal to the codegen's output by TestGPUBenchModules.
var benchModules = map[string]codegen.Options{
	"testdata/bench/matmul-optimized.ptx": {},
	"testdata/bench/matmul-checked.ptx":   {KeepBoundsChecks: true},
}

func TestGPUBenchModules(t *testing.T) {
	for file, opts := range benchModules {
		m := build(t, opts, "github.com/gpukvet/gpukvet/examples/matmul")
		if *update {
			if err := os.WriteFile(file, m.PTX, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		golden, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if string(golden) != string(m.PTX) {
			t.Errorf("%s is stale: run go test ./codegen -run GPUBenchModules -update", file)
		}
		assemble(t, "bench", string(m.PTX))
	}
}

// BenchmarkGPUMatMul times the matmul example (2048×2048 float32) on a CUDA
// GPU with and without the range-based optimizations, CUDA-event timed.
func BenchmarkGPUMatMul(b *testing.B) {
	dev, err := cuda.OpenBackend()
	if err != nil {
		b.Skipf("no CUDA GPU here: %v", err)
	}
	defer dev.Close()
	const n = 2048
	f32 := reflect.TypeFor[float32]()
	mats := make([]backend.Memory, 3)
	for i := range mats {
		if mats[i], err = dev.Alloc(f32, n*n); err != nil {
			b.Fatal(err)
		}
		host := make([]float32, n*n)
		for j := range host {
			host[j] = float32(j%7) - 3
		}
		if err := dev.Write(mats[i], reflect.ValueOf(host)); err != nil {
			b.Fatal(err)
		}
	}
	ints := reflect.TypeFor[int]()
	f32s := reflect.TypeFor[[]float32]()
	for _, name := range []string{"optimized", "checked"} {
		text, err := os.ReadFile("testdata/bench/matmul-" + name + ".ptx")
		if err != nil {
			b.Fatal(err)
		}
		k := &backend.Kernel{Name: "matmul.MatMul." + name, Params: []reflect.Type{ints, ints, ints, f32s, f32s, f32s},
			Block: gpu.Dim3{X: 16, Y: 16, Z: 1}, Dims: 2,
			Code: &backend.Code{PTX: text, Entry: "matmul_MatMul", Positions: []string{}}}
		args := []backend.Arg{{Value: reflect.ValueOf(n)}, {Value: reflect.ValueOf(n)}, {Value: reflect.ValueOf(n)},
			{Mem: mats[0]}, {Mem: mats[1]}, {Mem: mats[2]}}
		grid, block := gpu.Dim3{X: n / 16, Y: n / 16, Z: 1}, gpu.Dim3{X: 16, Y: 16, Z: 1}
		b.Run(name, func(b *testing.B) {
			if err := dev.Launch(k, grid, block, args); err != nil { // warm up, load the module
				b.Fatal(err)
			}
			if err := dev.Sync(); err != nil {
				b.Fatal(err)
			}
			var total time.Duration
			for range b.N {
				d, err := dev.Time(func() error { return dev.Launch(k, grid, block, args) })
				if err != nil {
					b.Fatal(err)
				}
				total += d
			}
			per := total / time.Duration(b.N)
			b.ReportMetric(float64(per.Nanoseconds())/1e3, "µs/launch")
			b.ReportMetric(2*n*n*n/per.Seconds()/1e9, "GFLOP/s")
		})
	}
}
