package clean

import (
	"math/rand/v2"
	"testing"

	"github.com/gpukvet/gpukvet/device/devicetest"
	"github.com/gpukvet/gpukvet/gpu"
)

func dim(x int) gpu.Dim3 { return gpu.Dim3{X: x, Y: 1, Z: 1} }

// floats returns n values in [-1, 1) from a fixed seed.
func floats(n int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 27))
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = 2*r.Float32() - 1
	}
	return xs
}

// TestAgree runs every kernel of the package on every backend available
// (lavapipe in CI, cuda and vulkan on a GPU) and compares each with the
// cpu backend, which runs the Go source.
func TestAgree(t *testing.T) {
	const n = 4096
	t.Run("ScalarProd", func(t *testing.T) {
		devicetest.Agree(t, ScalarProd, dim(8), dim(accumN), make([]float32, 8), floats(8*512, 1), floats(8*512, 2), 8, 512)
	})
	t.Run("ScalarProdNoFinalBarrier", func(t *testing.T) {
		devicetest.Agree(t, ScalarProdNoFinalBarrier, dim(4), dim(accumN), make([]float32, 8), floats(8*512, 3), floats(8*512, 4), 8, 512)
	})
	t.Run("Triad", func(t *testing.T) {
		devicetest.Agree(t, Triad, dim(4), dim(128), floats(n, 5), floats(n, 6), make([]float32, n), float32(1.75))
	})
	t.Run("MriQ", func(t *testing.T) {
		devicetest.Agree(t, MriQ, dim(4), dim(256), 64, floats(64, 7), floats(64, 8), floats(64, 9), floats(64, 10),
			floats(1024, 11), floats(1024, 12), floats(1024, 13), make([]float32, 1024), make([]float32, 1024))
	})
	t.Run("Gesummv", func(t *testing.T) {
		const m = 128
		devicetest.Agree(t, Gesummv, dim(2), dim(64), m, float32(1.5), float32(-0.5), floats(m*m, 14), floats(m*m, 15), floats(m, 16), make([]float32, m), make([]float32, m))
	})
	t.Run("Mvt1", func(t *testing.T) {
		const m = 128
		devicetest.Agree(t, Mvt1, dim(2), dim(64), m, floats(m*m, 17), floats(m, 18), floats(m, 19))
	})
	t.Run("BlellochScan", func(t *testing.T) {
		devicetest.Agree(t, BlellochScan, dim(4), dim(256), floats(4*512, 20))
	})
	t.Run("CfdStepFactor", func(t *testing.T) {
		density := floats(n, 21)
		for i := range density {
			density[i] = 1.5 + density[i] // positive densities
		}
		devicetest.Agree(t, CfdStepFactor, dim(16), dim(256), n, density, floats(n, 22), floats(n, 23), floats(n, 24), floats(n, 25), make([]float32, n))
	})
	t.Run("ScaleFromParam", func(t *testing.T) {
		devicetest.Agree(t, ScaleFromParam, dim(16), dim(256), floats(n, 26), []float32{1, 2, 3})
	})
	t.Run("KmeansReduceGuarded", func(t *testing.T) {
		devicetest.Agree(t, KmeansReduceGuarded, dim(33), dim(128), floats(n+7, 27), make([]float32, 33))
	})
}
