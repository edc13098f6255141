package devicetest_test

import (
	"testing"

	"github.com/gpukvet/gpukvet/device/devicetest"
	"github.com/gpukvet/gpukvet/examples/saxpy"
	"github.com/gpukvet/gpukvet/gpu"
)

func TestAgreeSaxpy(t *testing.T) {
	n := 1000
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i)/3, float32(n-i)
	}
	devicetest.Agree(t, saxpy.Saxpy, gpu.Dim3{X: (n + 255) / 256, Y: 1, Z: 1}, gpu.Dim3{X: 256, Y: 1, Z: 1}, float32(2), x, y)
}

// failing records failures instead of failing the test.
type failing struct {
	testing.TB
	errs []string
}

func (f *failing) Errorf(format string, args ...any) { f.errs = append(f.errs, format) }
func (f *failing) Helper()                           {}
func (f *failing) Logf(string, ...any)               {}

func TestAgreeReportsTrap(t *testing.T) {
	f := &failing{TB: t}
	// y shorter than the grid: saxpy guards with len(y), so use a wrong
	// argument instead: a nil argument where a float32 is needed.
	devicetest.Agree(f, saxpy.Saxpy, gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: 4, Y: 1, Z: 1}, nil, []float32{1}, []float32{1})
	if len(f.errs) == 0 {
		t.Error("Agree with a nil scalar argument reported nothing")
	}
}
