package spirv

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// goOps evaluates softFMA in Go; shifts by 64 or more panic, as SPIR-V
// leaves them undefined.
type goOps struct{}

func (goOps) k(c uint64) uint64      { return c }
func (goOps) add(a, b uint64) uint64 { return a + b }
func (goOps) sub(a, b uint64) uint64 { return a - b }
func (goOps) and(a, b uint64) uint64 { return a & b }
func (goOps) or(a, b uint64) uint64  { return a | b }
func (goOps) xor(a, b uint64) uint64 { return a ^ b }
func (goOps) shl(a, n uint64) uint64 {
	if n >= 64 {
		panic("shl by 64 or more")
	}
	return a << n
}
func (goOps) shr(a, n uint64) uint64 {
	if n >= 64 {
		panic("shr by 64 or more")
	}
	return a >> n
}
func (goOps) mul(a, b uint64) (uint64, uint64) { return bits.Mul64(a, b) }
func (goOps) ult(a, b uint64) bool             { return a < b }
func (goOps) slt(a, b uint64) bool             { return int64(a) < int64(b) }
func (goOps) eq(a, b uint64) bool              { return a == b }
func (goOps) sel(c bool, a, b uint64) uint64 {
	if c {
		return a
	}
	return b
}
func (goOps) or1(a, b bool) bool  { return a || b }
func (goOps) and1(a, b bool) bool { return a && b }
func (goOps) clz(a uint64) uint64 { return uint64(bits.LeadingZeros64(a)) }

// goFMA64 and goFMA32 are the emitted computation, evaluated in Go.
func goFMA64(x, y, z float64) float64 {
	return math.Float64frombits(softFMA[uint64, bool](goOps{}, math.Float64bits(x), math.Float64bits(y), math.Float64bits(z), false))
}

func goFMA32(x, y, z float32) float32 {
	return math.Float32frombits(uint32(softFMA[uint64, bool](goOps{}, uint64(math.Float32bits(x)), uint64(math.Float32bits(y)), uint64(math.Float32bits(z)), true)))
}

// exact32 is x*y+z rounded once to float32 (big.Float, exact to 2000
// bits), IEEE's fusedMultiplyAdd.
func exact32(x, y, z float32) float32 {
	if x == 0 || y == 0 || isNonFinite32(x) || isNonFinite32(y) || isNonFinite32(z) {
		return float32(math.FMA(float64(x), float64(y), float64(z)))
	}
	p := new(big.Float).SetPrec(2000).Mul(big.NewFloat(float64(x)), big.NewFloat(float64(y)))
	s := new(big.Float).SetPrec(2000).Add(p, big.NewFloat(float64(z)))
	if s.Sign() == 0 {
		if p.Signbit() && math.Signbit(float64(z)) {
			return float32(math.Copysign(0, -1))
		}
		return 0
	}
	f, _ := s.Float32()
	return f
}

func isNonFinite32(x float32) bool { return math.IsInf(float64(x), 0) || x != x }

// exact64 is exact32 for float64.
func exact64(x, y, z float64) float64 {
	if x == 0 || y == 0 || math.IsInf(x, 0) || math.IsInf(y, 0) || x != x || y != y {
		return x*y + z
	}
	if math.IsInf(z, 0) || z != z {
		return z // the exact product is finite
	}
	p := new(big.Float).SetPrec(4000).Mul(big.NewFloat(x), big.NewFloat(y))
	s := new(big.Float).SetPrec(4000).Add(p, big.NewFloat(z))
	if s.Sign() == 0 {
		if p.Signbit() && math.Signbit(z) {
			return math.Copysign(0, -1)
		}
		return 0
	}
	f, _ := s.Float64()
	return f
}

func same64(a, b float64) bool {
	return a == b && math.Signbit(a) == math.Signbit(b) || a != a && b != b
}
func same32(a, b float32) bool { return same64(float64(a), float64(b)) }

// FMAInputs64 and FMAInputs32 are the hard cases the tests (here and on
// lavapipe) run: ties and near-ties of the final rounding, cancellation,
// subnormal operands and results, overflow, zeros of both signs,
// infinities and NaNs, and random values over the whole exponent range.
func fmaInputs64(n int) [][3]float64 {
	r := rand.New(rand.NewPCG(1, 2))
	edges := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, 0x1p-1023, 1 + 0x1p-52, 1 - 0x1p-53, 0x1p-537, 0x1p512, 3, 1.5}
	var in [][3]float64
	for _, a := range edges {
		for _, b := range edges {
			for _, c := range edges {
				in = append(in, [3]float64{a, b, c})
			}
		}
	}
	any64 := func() float64 {
		for {
			if f := math.Float64frombits(r.Uint64()); f == f {
				return f
			}
		}
	}
	for len(in) < n {
		switch r.IntN(6) {
		case 0: // anything
			in = append(in, [3]float64{any64(), any64(), any64()})
		case 1: // (1+a)(1+b) with a tie or near-tie: z moves it by a tiny amount
			a := 1 + float64(r.Uint64N(1<<26))*0x1p-26
			b := 1 + float64(r.Uint64N(1<<27))*0x1p-27
			z := math.Ldexp(float64(r.IntN(7)-3), -r.IntN(200)-53)
			in = append(in, [3]float64{a, b, z})
		case 2: // cancellation: z near -x*y
			x, y := r.NormFloat64(), r.NormFloat64()
			p := x * y
			in = append(in, [3]float64{x, y, -p + math.Ldexp(float64(r.IntN(5)-2), math.Ilogb(p)-52-r.IntN(3))})
		case 3: // subnormal results
			x := math.Ldexp(r.Float64()+0.5, -r.IntN(600)-400)
			y := math.Ldexp(r.Float64()+0.5, -1074+600-math.Ilogb(x)-r.IntN(80))
			in = append(in, [3]float64{x, y * float64(1-2*r.IntN(2)), math.Ldexp(r.NormFloat64(), -1060-r.IntN(20))})
		case 4: // overflow
			in = append(in, [3]float64{math.Ldexp(r.Float64()+1, 511+r.IntN(3)), math.Ldexp(r.Float64()+1, 511+r.IntN(3)), -math.Ldexp(r.Float64(), 1023)})
		case 5: // z == 0, products that underflow
			x := math.Ldexp(r.NormFloat64(), -r.IntN(600))
			y := math.Ldexp(r.NormFloat64(), -1074-math.Ilogb(x)+r.IntN(4)-2)
			in = append(in, [3]float64{x, y, math.Copysign(0, float64(r.IntN(2))-0.5)})
		}
	}
	return in
}

func fmaInputs32(n int) [][3]float32 {
	r := rand.New(rand.NewPCG(3, 4))
	edges := []float32{0, float32(math.Copysign(0, -1)), 1, -1, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.MaxFloat32, -math.MaxFloat32,
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 0x1p-126, 0x1p-127, 1 + 0x1p-23, 1 - 0x1p-24, 0x1p-75, 0x1p64, 3, 1.5}
	var in [][3]float32
	for _, a := range edges {
		for _, b := range edges {
			for _, c := range edges {
				in = append(in, [3]float32{a, b, c})
			}
		}
	}
	any32 := func() float32 {
		for {
			if f := math.Float32frombits(r.Uint32()); f == f {
				return f
			}
		}
	}
	ld := func(f float64, e int) float32 { return float32(math.Ldexp(f, e)) }
	for len(in) < n {
		switch r.IntN(6) {
		case 0:
			in = append(in, [3]float32{any32(), any32(), any32()})
		case 1: // ties of the float32 rounding that float64 would round first
			a := 1 + float32(r.Uint32N(1<<12))*0x1p-12
			b := 1 + float32(r.Uint32N(1<<12))*0x1p-12
			in = append(in, [3]float32{a, b, ld(float64(r.IntN(7)-3), -r.IntN(100)-30)})
		case 2:
			x, y := float32(r.NormFloat64()), float32(r.NormFloat64())
			p := float64(x) * float64(y)
			in = append(in, [3]float32{x, y, float32(-p) + ld(float64(r.IntN(5)-2), math.Ilogb(p)-23-r.IntN(3))})
		case 3:
			x := ld(r.Float64()+0.5, -r.IntN(60)-40)
			y := ld(r.Float64()+0.5, -149+60-math.Ilogb(float64(x))-r.IntN(30))
			in = append(in, [3]float32{x, y * float32(1-2*r.IntN(2)), ld(r.NormFloat64(), -140-r.IntN(10))})
		case 4:
			in = append(in, [3]float32{ld(r.Float64()+1, 63+r.IntN(3)), ld(r.Float64()+1, 63+r.IntN(3)), -ld(r.Float64(), 127)})
		case 5:
			x := ld(r.NormFloat64(), -r.IntN(60))
			y := ld(r.NormFloat64(), -149-math.Ilogb(float64(x))+r.IntN(4)-2)
			in = append(in, [3]float32{x, y, float32(math.Copysign(0, float64(r.IntN(2))-0.5))})
		}
	}
	return in
}

func TestSoftFMA64(t *testing.T) {
	bad := 0
	for _, c := range fmaInputs64(300000) {
		x, y, z := c[0], c[1], c[2]
		got, want := goFMA64(x, y, z), exact64(x, y, z)
		if !same64(got, want) {
			if bad++; bad < 10 {
				t.Errorf("FMA(%x, %x, %x) = %x, want %x", x, y, z, got, want)
			}
		}
		if m := math.FMA(x, y, z); !same64(got, m) {
			if bad++; bad < 10 {
				t.Errorf("FMA(%x, %x, %x) = %x, math.FMA %x", x, y, z, got, m)
			}
		}
	}
}

func TestSoftFMA32(t *testing.T) {
	bad, doubled := 0, 0
	for _, c := range fmaInputs32(300000) {
		x, y, z := c[0], c[1], c[2]
		got, want := goFMA32(x, y, z), exact32(x, y, z)
		if !same32(got, want) {
			if bad++; bad < 10 {
				t.Errorf("FMA32(%x, %x, %x) = %x, want %x", x, y, z, got, want)
			}
		}
		if !same32(want, float32(math.FMA(float64(x), float64(y), float64(z)))) {
			doubled++
		}
	}
	// The inputs must hold cases that rounding through float64 gets wrong.
	if doubled == 0 {
		t.Error("no input where float32(math.FMA(float64...)) rounds twice: the hard cases are missing")
	}
	t.Logf("%d inputs where rounding through float64 differs from the exact float32 FMA", doubled)
}
