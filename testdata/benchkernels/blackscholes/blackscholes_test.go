package blackscholes

import (
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/testdata/benchkernels/internal/bt"
)

func cndRef(d float64) float64 { return 0.5 * math.Erfc(-d/math.Sqrt2) }

func TestPrice(t *testing.T) {
	d := bt.Open(t)
	r := bt.Rand(11)
	n := 1000
	s, x, y := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range s {
		s[i] = 5 + 25*(r.Float()+1)
		x[i] = 1 + 99*(r.Float()+1)/2
		y[i] = 0.25 + 9.75*(r.Float()+1)/2
	}
	const rate, vol = 0.02, 0.30
	call, put := bt.Zeros[float32](t, d, n), bt.Zeros[float32](t, d, n)
	bt.Run(t, d, Price, bt.Dim(4), bt.Dim(128), float32(rate), float32(vol), bt.Up(t, d, s), bt.Up(t, d, x), bt.Up(t, d, y), call, put)
	wc, wp := make([]float32, n), make([]float32, n)
	for i := range wc {
		S, X, T := float64(s[i]), float64(x[i]), float64(y[i])
		d1 := (math.Log(S/X) + (rate+0.5*vol*vol)*T) / (vol * math.Sqrt(T))
		d2 := d1 - vol*math.Sqrt(T)
		e := math.Exp(-rate * T)
		wc[i] = float32(S*cndRef(d1) - X*e*cndRef(d2))
		wp[i] = float32(X*e*cndRef(-d2) - S*cndRef(-d1))
	}
	// The polynomial CND is good to about 1e-7 absolute; float32 adds more.
	bt.Near(t, "call", bt.Down(t, call), wc, 2e-4)
	bt.Near(t, "put", bt.Down(t, put), wp, 2e-4)
}
