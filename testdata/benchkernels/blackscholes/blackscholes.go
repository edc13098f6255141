// Package blackscholes is the CUDA SDK's Black-Scholes option pricer in
// float32, with the polynomial approximation of the normal distribution.
package blackscholes

import (
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/gpu/math32"
)

// cnd is the cumulative normal distribution (Abramowitz–Stegun 26.2.17).
func cnd(d float32) float32 {
	const (
		a1       = 0.31938153
		a2       = -0.356563782
		a3       = 1.781477937
		a4       = -1.821255978
		a5       = 1.330274429
		rsqrt2pi = 0.39894228040143267793994605993438
	)
	k := 1 / (1 + 0.2316419*math32.Abs(d))
	c := rsqrt2pi * math32.Exp(-0.5*d*d) * (k * (a1 + k*(a2+k*(a3+k*(a4+k*a5)))))
	if d > 0 {
		c = 1 - c
	}
	return c
}

// Price prices European call and put options with spot s, strike x and
// years to expiry y, at riskless rate r and volatility v.
//
//gpu:kernel block=128
func Price(t gpu.Thread, r, v float32, s, x, y, call, put []float32) {
	stride := t.GridDim().X * t.BlockDim().X
	for i := t.GlobalIdx().X; i < len(s); i += stride {
		sp, k, tt := s[i], x[i], y[i]
		sqrtT := math32.Sqrt(tt)
		d1 := (math32.Log(sp/k) + (r+0.5*v*v)*tt) / (v * sqrtT)
		d2 := d1 - v*sqrtT
		c1, c2 := cnd(d1), cnd(d2)
		expRT := math32.Exp(-r * tt)
		call[i] = sp*c1 - k*expRT*c2
		put[i] = k*expRT*(1-c2) - sp*(1-c1)
	}
}
