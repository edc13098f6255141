package math32

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exactFMA is x*y+z rounded once to float32, through big.Float (finite,
// nonzero x and y).
func exactFMA(x, y, z float32) float32 {
	p := new(big.Float).SetPrec(1000).Mul(big.NewFloat(float64(x)), big.NewFloat(float64(y)))
	s := new(big.Float).SetPrec(1000).Add(p, big.NewFloat(float64(z)))
	if s.Sign() == 0 {
		if p.Signbit() && math.Signbit(float64(z)) {
			return float32(math.Copysign(0, -1))
		}
		return 0
	}
	f, _ := s.Float32()
	return f
}

// TestFMA compares FMA with the exact result on products near a float32
// tie that a small z tips (where rounding through float64 first goes
// wrong), on subnormal and overflowing results, and on random values.
func TestFMA(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ld := func(f float64, e int) float32 { return float32(math.Ldexp(f, e)) }
	twice := 0
	for i := range 200000 {
		var x, y, z float32
		switch i % 4 {
		case 0:
			x, y = 1+float32(r.Uint32N(1<<12))*0x1p-12, 1+float32(r.Uint32N(1<<12))*0x1p-12
			z = ld(float64(r.IntN(7)-3), -r.IntN(100)-30)
		case 1:
			x = ld(r.Float64()+0.5, -r.IntN(60)-40)
			y = ld(r.Float64()+0.5, -149+60-math.Ilogb(float64(x))-r.IntN(30))
			z = ld(r.NormFloat64(), -140-r.IntN(10))
		case 2:
			x, y, z = ld(r.Float64()+1, 63+r.IntN(3)), ld(r.Float64()+1, 63+r.IntN(3)), -ld(r.Float64(), 127)
		case 3:
			x, y, z = float32(r.NormFloat64()), float32(r.NormFloat64()), float32(r.NormFloat64())
		}
		got, want := FMA(x, y, z), exactFMA(x, y, z)
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("FMA(%x, %x, %x) = %x, want %x", x, y, z, got, want)
		}
		if float32(math.FMA(float64(x), float64(y), float64(z))) != want {
			twice++
		}
	}
	if twice == 0 {
		t.Error("no case where rounding through float64 twice goes wrong: the test lost its hard cases")
	}
	for _, c := range [][4]float32{
		{float32(math.Inf(1)), 0, 1, float32(math.NaN())},
		{math.MaxFloat32, 2, float32(math.Inf(-1)), float32(math.Inf(-1))},
		{math.MaxFloat32, 2, 0, float32(math.Inf(1))},
		{-1e-30, 1e-30, 0, float32(math.Copysign(0, -1))},
		{1, 1, -1, 0},
	} {
		got := FMA(c[0], c[1], c[2])
		if !(got == c[3] && math.Signbit(float64(got)) == math.Signbit(float64(c[3])) || got != got && c[3] != c[3]) {
			t.Errorf("FMA(%v, %v, %v) = %v, want %v", c[0], c[1], c[2], got, c[3])
		}
	}
}
