package lower

import (
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// bitsCall lowers a function of math/bits with Go's exact semantics, for
// every width: from the count instructions every target has (kir.OpClz,
// kir.OpPopc), shifts and masks, and for the divisions from
// codegen/devmath. 8- and 16-bit operands are widened to 32 bits first,
// since that is the narrowest width the count instructions take.
func (b *builder) bitsCall(name string, args []ssa.Value, v *ssa.Call) []*kir.Value {
	var xs []*kir.Value
	for _, a := range args {
		xs = append(xs, b.value(a)...)
	}
	x := xs[0]
	t, w := x.Type, x.Type.Kind.Bits()
	switch strings.TrimRight(name, "0123456789") {
	case "LeadingZeros":
		return []*kir.Value{b.countInt(b.leadingZeros(x))}
	case "Len":
		return []*kir.Value{b.countInt(b.val(kir.OpSub, kir.TU32, b.konst(kir.TU32, uint64(w)), b.leadingZeros(x)))}
	case "OnesCount":
		return []*kir.Value{b.countInt(b.val(kir.OpPopc, kir.TU32, b.widen(x)))}
	case "TrailingZeros":
		// The ones below the lowest one of x: x-1 &^ x. A bit just above
		// the width makes TrailingZeros8(0) 8 rather than 32.
		y := b.widen(x)
		if w < 32 {
			y = b.val(kir.OpOr, kir.TU32, y, b.konst(kir.TU32, 1<<w))
		}
		below := b.val(kir.OpAndNot, y.Type, b.val(kir.OpSub, y.Type, y, b.konst(y.Type, 1)), y)
		return []*kir.Value{b.countInt(b.val(kir.OpPopc, kir.TU32, below))}
	case "RotateLeft":
		// x<<s | x>>(w-s) with s = k mod w, which also rotates right for
		// a negative k; a shift by w gives 0 in kir as in Go.
		y := b.widen(x)
		s := b.val(kir.OpAnd, kir.TU32, b.val(kir.OpConvert, kir.TU32, xs[1]), b.konst(kir.TU32, uint64(w-1)))
		left := b.val(kir.OpShl, y.Type, y, s)
		right := b.val(kir.OpShr, y.Type, y, b.val(kir.OpSub, kir.TU32, b.konst(kir.TU32, uint64(w)), s))
		return []*kir.Value{b.narrow(b.val(kir.OpOr, y.Type, left, right), t)}
	case "Reverse":
		return []*kir.Value{b.reverse(x, 1)}
	case "ReverseBytes":
		return []*kir.Value{b.reverse(x, 8)}
	case "Add":
		sum := b.val(kir.OpAdd, t, b.val(kir.OpAdd, t, xs[0], xs[1]), xs[2])
		// carryOut = ((x & y) | ((x | y) &^ sum)) >> (width-1)
		and := b.val(kir.OpAnd, t, xs[0], xs[1])
		or := b.val(kir.OpOr, t, xs[0], xs[1])
		c := b.val(kir.OpOr, t, and, b.val(kir.OpAndNot, t, or, sum))
		c = b.val(kir.OpShr, t, c, b.konst(kir.TU32, uint64(w-1)))
		return []*kir.Value{sum, c}
	case "Sub":
		diff := b.val(kir.OpSub, t, b.val(kir.OpSub, t, xs[0], xs[1]), xs[2])
		// borrowOut = ((^x & y) | (^(x ^ y) & diff)) >> (width-1)
		c := b.val(kir.OpOr, t, b.val(kir.OpAndNot, t, xs[1], xs[0]),
			b.val(kir.OpAndNot, t, diff, b.val(kir.OpXor, t, xs[0], xs[1])))
		c = b.val(kir.OpShr, t, c, b.konst(kir.TU32, uint64(w-1)))
		return []*kir.Value{diff, c}
	case "Mul":
		hi := b.val(kir.OpMulHi, t, xs[0], xs[1])
		lo := b.val(kir.OpMul, t, xs[0], xs[1])
		return []*kir.Value{hi, lo}
	case "Div", "Rem":
		// Long division with Go's panics as traps, from devmath; uint is
		// 64 bits wide in kernels.
		if r, ok := b.devMath(strings.TrimRight(name, "0123456789")+itoa(w), args, v); ok {
			return r
		}
	}
	b.fail(v.Pos(), "bits.%s cannot be compiled for the GPU", name) // a kernelapi entry without a lowering: TestKernelAPI fails
	return nil
}

func itoa(w int) string {
	if w == 32 {
		return "32"
	}
	return "64"
}

// countInt converts a count to Go's int.
func (b *builder) countInt(n *kir.Value) *kir.Value { return b.val(kir.OpConvert, kir.TI64, n) }

// widen zero-extends an 8- or 16-bit x to 32 bits; wider x is returned.
func (b *builder) widen(x *kir.Value) *kir.Value {
	if x.Type.Kind.Bits() < 32 {
		return b.val(kir.OpConvert, kir.TU32, x)
	}
	return x
}

// narrow truncates y, the widened result of an operation on a value of
// type t, back to t.
func (b *builder) narrow(y *kir.Value, t kir.Type) *kir.Value {
	if y.Type != t {
		return b.val(kir.OpConvert, t, y)
	}
	return y
}

// leadingZeros counts the leading zeros of x in its own width (U32): 8 for
// LeadingZeros8(0), as Go says.
func (b *builder) leadingZeros(x *kir.Value) *kir.Value {
	w := x.Type.Kind.Bits()
	n := b.val(kir.OpClz, kir.TU32, b.widen(x))
	if w < 32 {
		n = b.val(kir.OpSub, kir.TU32, n, b.konst(kir.TU32, uint64(32-w)))
	}
	return n
}

// reverse reverses the order of x's bits (unit 1) or bytes (unit 8) by
// swapping ever larger halves under masks; narrow x is reversed as 32 bits
// and shifted down.
func (b *builder) reverse(x *kir.Value, unit int) *kir.Value {
	t, w := x.Type, x.Type.Kind.Bits()
	y := b.widen(x)
	yw := y.Type.Kind.Bits()
	for s := unit; s < yw; s *= 2 {
		// m: the low s bits of every 2s-bit group.
		var m uint64
		for i := 0; i < yw; i += 2 * s {
			m |= (1<<s - 1) << i
		}
		mask := b.konst(y.Type, m)
		count := b.konst(kir.TU32, uint64(s))
		hi := b.val(kir.OpAnd, y.Type, b.val(kir.OpShr, y.Type, y, count), mask)
		lo := b.val(kir.OpShl, y.Type, b.val(kir.OpAnd, y.Type, y, mask), count)
		y = b.val(kir.OpOr, y.Type, hi, lo)
	}
	if w < yw {
		y = b.val(kir.OpShr, y.Type, y, b.konst(kir.TU32, uint64(yw-w)))
	}
	return b.narrow(y, t)
}
