package lower

import (
	"fmt"
	"go/types"
	"math"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// intrinsic lowers calls into package gpu and package math; ok is false
// for any other function.
func (b *builder) intrinsic(fn *ssa.Function, args []ssa.Value, v *ssa.Call) (r []*kir.Value, ok bool) {
	id := funcID(fn)
	switch {
	case gpuapi.Callee(fn) != gpuapi.None:
		return b.gpuCall(gpuapi.Callee(fn), args, v), true
	case strings.HasPrefix(id, "math/bits."):
		return b.bitsCall(strings.TrimPrefix(id, "math/bits."), args, v), true
	case strings.HasPrefix(id, "math."):
		return b.mathCall(strings.TrimPrefix(id, "math."), args, v), true
	}
	return nil, false
}

var dimSpecial = map[gpuapi.Kind]int{gpuapi.ThreadIdx: kir.ThreadIdxX, gpuapi.BlockIdx: kir.BlockIdxX,
	gpuapi.BlockDim: kir.BlockDimX, gpuapi.GridDim: kir.GridDimX}

var atomicOps = map[gpuapi.Kind]kir.AtomicOp{gpuapi.AtomicAdd: kir.AtomicAdd, gpuapi.AtomicMin: kir.AtomicMin,
	gpuapi.AtomicMax: kir.AtomicMax, gpuapi.AtomicExchange: kir.AtomicExchange, gpuapi.AtomicCompareAndSwap: kir.AtomicCAS}

func (b *builder) gpuCall(k gpuapi.Kind, args []ssa.Value, v *ssa.Call) []*kir.Value {
	if base, ok := dimSpecial[k]; ok {
		out := make([]*kir.Value, 3)
		for d := range out {
			out[d] = b.special(base + d)
		}
		return out
	}
	switch k {
	case gpuapi.GlobalIdx:
		out := make([]*kir.Value, 3)
		for d := range out {
			prod := b.val(kir.OpMul, kir.TI64, b.special(kir.BlockIdxX+d), b.special(kir.BlockDimX+d))
			out[d] = b.val(kir.OpAdd, kir.TI64, prod, b.special(kir.ThreadIdxX+d))
		}
		return out
	case gpuapi.Barrier:
		b.val(kir.OpBarrier, kir.Type{})
		return nil
	case gpuapi.Shared:
		t := v.Type().Underlying()
		elem := t.(*types.Pointer).Elem()
		pos := b.env.Fset.Position(v.Pos())
		where := pos.String()
		if b.env.RelPos != nil {
			where = b.env.RelPos(pos) // no absolute paths in the module
		}
		key := fmt.Sprintf("%s %s", where, elem)
		id, ok := b.shared[key]
		if !ok {
			id = b.m.SharedIndex(key, int(sizes.Sizeof(elem)), int(sizes.Alignof(elem)))
			b.shared[key] = id
		}
		p := b.val(kir.OpShared, kir.PtrTo(kir.Shared))
		p.Index = id
		return []*kir.Value{p}
	}
	if op, ok := atomicOps[k]; ok {
		ptr := b.value(args[0])[0]
		vals := []*kir.Value{ptr}
		for _, a := range args[1:] {
			vals = append(vals, b.value(a)[0])
		}
		r := b.val(kir.OpAtomic, vals[1].Type, vals...)
		r.Index = int(op)
		return []*kir.Value{r}
	}
	b.fail(v.Pos(), "gpu.%s cannot be compiled for the GPU", k.Selector())
	return nil
}

// special reads a special register as an int.
func (b *builder) special(idx int) *kir.Value {
	s := b.val(kir.OpSpecial, kir.TU32)
	s.Index = idx
	return b.val(kir.OpConvert, kir.TI64, s)
}

var mathFns = map[string]kir.MathFn{"Sqrt": kir.MathSqrt, "Abs": kir.MathAbs, "Floor": kir.MathFloor,
	"Ceil": kir.MathCeil, "Trunc": kir.MathTrunc, "Copysign": kir.MathCopysign, "Max": kir.MathMax,
	"Min": kir.MathMin, "Round": kir.MathRound}

// mathCall lowers a function of package math: exact operations become
// kir.OpMath, the rest are inlined from codegen/devmath, a Go port of the
// math package's own algorithms that kernels can run.
func (b *builder) mathCall(name string, args []ssa.Value, v *ssa.Call) []*kir.Value {
	var xs []*kir.Value
	for _, a := range args {
		xs = append(xs, b.value(a)...)
	}
	if fn, ok := mathFns[name]; ok {
		return []*kir.Value{b.math(fn, kir.TF64, xs...)}
	}
	switch name {
	case "FMA":
		return []*kir.Value{b.val(kir.OpFMA, kir.TF64, xs...)}
	case "Signbit":
		return []*kir.Value{b.math(kir.MathSignbit, kir.TBool, xs[0])}
	case "IsNaN":
		return []*kir.Value{b.val(kir.OpNe, kir.TBool, xs[0], xs[0])}
	case "Float64bits":
		return []*kir.Value{b.val(kir.OpBitcast, kir.TU64, xs[0])}
	case "Float64frombits":
		return []*kir.Value{b.val(kir.OpBitcast, kir.TF64, xs[0])}
	case "Float32bits":
		return []*kir.Value{b.val(kir.OpBitcast, kir.TU32, xs[0])}
	case "Float32frombits":
		return []*kir.Value{b.val(kir.OpBitcast, kir.TF32, xs[0])}
	case "NaN":
		return []*kir.Value{b.konst(kir.TF64, 0x7FF8000000000001)}
	case "Inf":
		pos := b.konst(kir.TF64, math.Float64bits(math.Inf(1)))
		neg := b.konst(kir.TF64, math.Float64bits(math.Inf(-1)))
		nonneg := b.val(kir.OpGe, kir.TBool, xs[0], b.konst(xs[0].Type, 0))
		return []*kir.Value{b.val(kir.OpSelect, kir.TF64, nonneg, pos, neg)}
	}
	if b.env.DevMath != nil {
		if fn := b.env.DevMath.Func(name); fn != nil {
			var leaves [][]*kir.Value
			for _, a := range args {
				leaves = append(leaves, b.value(a))
			}
			return b.inline(fn, leaves, v.Pos())
		}
	}
	b.fail(v.Pos(), "math.%s cannot be compiled for the GPU yet", name)
	return nil
}

// bitsCall lowers the functions of math/bits that devmath and kernels use.
func (b *builder) bitsCall(name string, args []ssa.Value, v *ssa.Call) []*kir.Value {
	var xs []*kir.Value
	for _, a := range args {
		xs = append(xs, b.value(a)...)
	}
	switch name {
	case "Mul64", "Mul32", "Mul":
		hi := b.val(kir.OpMulHi, xs[0].Type, xs[0], xs[1])
		lo := b.val(kir.OpMul, xs[0].Type, xs[0], xs[1])
		return []*kir.Value{hi, lo}
	case "Add64", "Add32", "Add":
		t := xs[0].Type
		sum := b.val(kir.OpAdd, t, b.val(kir.OpAdd, t, xs[0], xs[1]), xs[2])
		// carryOut = ((x & y) | ((x | y) &^ sum)) >> (width-1)
		and := b.val(kir.OpAnd, t, xs[0], xs[1])
		or := b.val(kir.OpOr, t, xs[0], xs[1])
		c := b.val(kir.OpOr, t, and, b.val(kir.OpAndNot, t, or, sum))
		c = b.val(kir.OpShr, t, c, b.konst(kir.TU32, uint64(t.Kind.Bits()-1)))
		return []*kir.Value{sum, c}
	case "LeadingZeros64", "LeadingZeros32", "LeadingZeros":
		return []*kir.Value{b.val(kir.OpConvert, kir.TI64, b.val(kir.OpClz, kir.TU32, xs[0]))}
	case "OnesCount64", "OnesCount32", "OnesCount":
		return []*kir.Value{b.val(kir.OpConvert, kir.TI64, b.val(kir.OpPopc, kir.TU32, xs[0]))}
	}
	b.fail(v.Pos(), "bits.%s cannot be compiled for the GPU yet", name)
	return nil
}
