package vulkan

import (
	"reflect"
	"testing"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// BenchmarkLaunch measures the backend's cost per launch in a series of
// launches back to back and a Sync every 20, as the benchmarks launch: an
// empty kernel (saxpy over empty slices: one workgroup that returns) and a
// tiny one (saxpy over 64 elements, one workgroup). It reports launches
// per second and the queue submissions per launch.
//
//	go test ./device/vulkan -run '^$' -bench Launch -benchtime 2000x
func BenchmarkLaunch(b *testing.B) {
	for _, c := range []struct {
		name string
		n    int
	}{{"empty", 0}, {"tiny", 64}} {
		b.Run(c.name, func(b *testing.B) {
			be := openOrSkip(b)
			x := make([]float32, c.n)
			mx, my := upload(b, be, x), upload(b, be, x)
			k := handKernel("hand_Saxpy", f32, f32s, f32s)
			args := []backend.Arg{{Value: reflect.ValueOf(float32(1))}, {Mem: mx}, {Mem: my}}
			one, block := gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: 64, Y: 1, Z: 1}
			if err := be.Launch(k, one, block, args); err != nil { // pipeline creation
				b.Fatal(err)
			}
			sub0 := be.submitted
			b.ResetTimer()
			for i := range b.N {
				if err := be.Launch(k, one, block, args); err != nil {
					b.Fatal(err)
				}
				if i%20 == 19 {
					if err := be.Sync(); err != nil {
						b.Fatal(err)
					}
				}
			}
			if err := be.Sync(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "launches/s")
			b.ReportMetric(float64(be.submitted-sub0)/float64(b.N), "submits/launch")
		})
	}
}
