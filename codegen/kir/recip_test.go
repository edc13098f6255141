package kir_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	. "github.com/gpukvet/gpukvet/codegen/kir"
)

// TestReciprocalDivisions: a float division by a power of two with a
// normal reciprocal becomes a multiplication (and no other division
// does), and for dividends of every class (zeros, subnormals, normals,
// near overflow, infinities, NaN) it computes the division's bits.
func TestReciprocalDivisions(t *testing.T) {
	var divisors32 []float32
	for e := -149; e <= 127; e += 1 {
		divisors32 = append(divisors32, float32(math.Ldexp(1, e)), -float32(math.Ldexp(1, e)))
	}
	divisors32 = append(divisors32, 3, 0.1, 0, float32(math.Inf(1)), float32(math.NaN()))
	xs := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 1.5, 3, math.MaxFloat32, -math.MaxFloat32,
		math.SmallestNonzeroFloat32, 1e-39, 1.17549435e-38, 123456.789, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	for _, c := range divisors32 {
		b := newFB(out1...)
		out := b.param(0, PtrTo(Global))
		x := b.v(OpLoad, TF32, out)
		k := b.c(TF32, uint64(math.Float32bits(c)))
		q := b.v(OpDiv, TF32, x, k)
		b.v(OpStore, Type{}, out, q)
		b.cur.Return()
		f := b.f
		FoldConstants(f)
		verify(t, f)
		fr, _ := math.Frexp(float64(c))
		pow2 := math.Abs(fr) == 0.5 && c != 0 && !math.IsInf(float64(c), 0)
		e := math.Ilogb(float64(c))
		wantMul := pow2 && e >= -126 && e <= 126
		if got := q.Op == OpMul; got != wantMul {
			t.Errorf("x/%g: became a multiplication %v, want %v", c, got, wantMul)
		}
		for _, xv := range xs {
			buf := &kirexec.Buffer{Name: "out", Data: make([]byte, 4)}
			binary.LittleEndian.PutUint32(buf.Data, math.Float32bits(xv))
			if trap, err := kirexec.Run(f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: 4}}); err != nil || trap != nil {
				t.Fatalf("run: %v %v", trap, err)
			}
			want := xv / c
			got := math.Float32frombits(binary.LittleEndian.Uint32(buf.Data))
			if math.Float32bits(got) != math.Float32bits(want) && !(want != want && got != got) {
				t.Errorf("%g/%g = %g, want %g", xv, c, got, want)
			}
		}
	}
	// float64: a normal power of two and the edge of the range.
	for _, tc := range []struct {
		c       float64
		wantMul bool
	}{{16, true}, {0.125, true}, {math.Ldexp(1, 1022), true}, {math.Ldexp(1, 1023), false}, {math.Ldexp(1, -1022), true}, {3, false}} {
		b := newFB(out1...)
		out := b.param(0, PtrTo(Global))
		x := b.v(OpLoad, TF64, out)
		q := b.v(OpDiv, TF64, x, b.c(TF64, math.Float64bits(tc.c)))
		b.v(OpStore, Type{}, out, q)
		b.cur.Return()
		FoldConstants(b.f)
		verify(t, b.f)
		if got := q.Op == OpMul; got != tc.wantMul {
			t.Errorf("x/%g (float64): became a multiplication %v, want %v", tc.c, got, tc.wantMul)
		}
		for _, xv := range []float64{1, 3, math.MaxFloat64, math.SmallestNonzeroFloat64, 1e-310, -7.5} {
			buf := &kirexec.Buffer{Name: "out", Data: make([]byte, 8)}
			binary.LittleEndian.PutUint64(buf.Data, math.Float64bits(xv))
			if trap, err := kirexec.Run(b.f, nil, [3]int{1, 1, 1}, [3]int{1, 1, 1}, []kirexec.Arg{{Buf: buf}, {Bits: 8}}); err != nil || trap != nil {
				t.Fatalf("run: %v %v", trap, err)
			}
			if got := math.Float64frombits(binary.LittleEndian.Uint64(buf.Data)); math.Float64bits(got) != math.Float64bits(xv/tc.c) {
				t.Errorf("%g/%g = %g, want %g", xv, tc.c, got, xv/tc.c)
			}
		}
	}
}
