package spirv

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sqrt32Operands are positive normal and subnormal operands, powers of two
// and their neighbours (where the root's lower neighbour is half a ULP
// away), and random bits.
func sqrt32Operands(n int) []float32 {
	xs := []float32{1.5, 2, 3, 0.5, math.MaxFloat32, math.SmallestNonzeroFloat32, 0x1p-126, 0x1p-127}
	for e := -149; e <= 127; e++ {
		p := math.Float32bits(float32(math.Ldexp(1, e)))
		for _, d := range []int32{-1, 0, 1} {
			if x := math.Float32frombits(uint32(int32(p) + d)); x > 0 {
				xs = append(xs, x)
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 9))
	for len(xs) < n {
		xs = append(xs, math.Float32frombits(r.Uint32N(0x7f800000-1)+1))
	}
	return xs
}

// TestRoundSqrt32 rounds every root one ULP off either way and the right
// one, and must give Go's math32.Sqrt each time; zeros, negative operands,
// infinities and NaNs keep the device's root.
func TestRoundSqrt32(t *testing.T) {
	bad := 0
	for _, x := range sqrt32Operands(200000) {
		want := math.Float32bits(float32(math.Sqrt(float64(x))))
		for _, d := range []int32{-1, 0, 1} {
			s := uint32(int32(want) + d)
			if got := uint32(roundSqrt32[uint64, bool](goOps{}, uint64(math.Float32bits(x)), uint64(s))); got != want {
				if bad++; bad < 10 {
					t.Errorf("sqrt(%g = %#x) from root %#x: %#x, want %#x", x, math.Float32bits(x), s, got, want)
				}
			}
		}
	}
	nan := math.Float32bits(float32(math.NaN()))
	for _, c := range [][2]uint32{{0, 0}, {1 << 31, 1 << 31}, {0x7f800000, 0x7f800000}, {0xbf800000, nan}, {nan, nan}, {0x1, 0}} {
		if got := uint32(roundSqrt32[uint64, bool](goOps{}, uint64(c[0]), uint64(c[1]))); got != c[1] {
			t.Errorf("sqrt(%#x) from root %#x: %#x, want the root kept", c[0], c[1], got)
		}
	}
}
