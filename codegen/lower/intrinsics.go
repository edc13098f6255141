package lower

import (
	"fmt"
	"go/build"
	"go/types"
	"math"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"github.com/gpukvet/gpukvet/internal/kernelapi"
	"github.com/gpukvet/gpukvet/internal/math32api"
)

// intrinsic lowers calls into package gpu and the standard library; ok is
// false for any other function. Of the standard library it compiles
// exactly the functions internal/kernelapi lists, the ones the checks
// allow, and refuses every other (the checks being off or not).
func (b *builder) intrinsic(fn *ssa.Function, args []ssa.Value, v *ssa.Call) (r []*kir.Value, ok bool) {
	id := funcID(fn)
	if k := gpuapi.Callee(fn); k != gpuapi.None {
		return b.gpuCall(k, args, v), true
	}
	pkg, name := funcPkg(fn), strings.TrimPrefix(id, funcPkg(fn)+".")
	if math32api.Callee(fn) == math32api.FMA {
		// The float32 FMA instruction: the Go body (exact through
		// float64) is for the CPU.
		var xs []*kir.Value
		for _, a := range args {
			xs = append(xs, b.value(a)...)
		}
		return []*kir.Value{b.val(kir.OpFMA, kir.TF32, xs...)}, true
	}
	if !kernelapi.Listed(pkg) && !b.isStd(fn, pkg) {
		return nil, false
	}
	if !kernelapi.Allowed(pkg, name) {
		b.fail(v.Pos(), "%s cannot be called in kernels: of the standard library, kernel code may call only the functions of math and math/bits that DIALECT.md lists", id)
	}
	switch pkg {
	case "math/bits":
		return b.bitsCall(name, args, v), true
	case "math":
		return b.mathCall(name, args, v), true
	}
	b.fail(v.Pos(), "%s cannot be compiled for the GPU", id) // a kernelapi entry without a lowering: TestKernelAPI fails
	return nil, true
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
		b.nilCheck(args[0], ptr, v.Pos())
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
	"Ceil": kir.MathCeil, "Trunc": kir.MathTrunc, "Copysign": kir.MathCopysign, "Round": kir.MathRound}

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
	case "Max", "Min":
		return []*kir.Value{b.mathMaxMin(name == "Max", xs[0], xs[1])}
	case "FMA":
		return []*kir.Value{b.val(kir.OpFMA, kir.TF64, xs...)}
	case "Signbit":
		return []*kir.Value{b.math(kir.MathSignbit, kir.TBool, xs[0])}
	case "IsNaN":
		return []*kir.Value{b.val(kir.OpNe, kir.TBool, xs[0], xs[0])}
	case "IsInf":
		// (f == +Inf && sign >= 0) || (f == -Inf && sign <= 0), without
		// branches: the short-circuit form, inlined into a condition of
		// several terms, is a shape the SPIR-V emitter cannot structure.
		pos := b.val(kir.OpEq, kir.TBool, xs[0], b.konst(kir.TF64, math.Float64bits(math.Inf(1))))
		neg := b.val(kir.OpEq, kir.TBool, xs[0], b.konst(kir.TF64, math.Float64bits(math.Inf(-1))))
		up := b.val(kir.OpAnd, kir.TBool, pos, b.val(kir.OpGe, kir.TBool, xs[1], b.i64(0)))
		down := b.val(kir.OpAnd, kir.TBool, neg, b.val(kir.OpLe, kir.TBool, xs[1], b.i64(0)))
		return []*kir.Value{b.val(kir.OpOr, kir.TBool, up, down)}
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
	if r, ok := b.devMath(name, args, v); ok {
		return r
	}
	b.fail(v.Pos(), "math.%s cannot be compiled for the GPU", name) // a kernelapi entry without a lowering: TestKernelAPI fails
	return nil
}

// devMath inlines codegen/devmath's function name, the Go code that
// implements a call without a GPU instruction, and reports whether there
// is one.
func (b *builder) devMath(name string, args []ssa.Value, v *ssa.Call) ([]*kir.Value, bool) {
	if b.env.DevMath == nil {
		return nil, false
	}
	fn := b.env.DevMath.Func(name)
	if fn == nil {
		return nil, false
	}
	var leaves [][]*kir.Value
	for _, a := range args {
		leaves = append(leaves, b.value(a))
	}
	return b.inline(fn, leaves, v.Pos()), true
}

// mathMaxMin is math.Max or math.Min: the builtin's max or min (NaN if
// either is NaN, -0 below +0), except that an infinity of the direction
// wins over NaN: math.Max(+Inf, NaN) is +Inf.
func (b *builder) mathMaxMin(isMax bool, x, y *kir.Value) *kir.Value {
	fn, inf := kir.MathMin, math.Inf(-1)
	if isMax {
		fn, inf = kir.MathMax, math.Inf(1)
	}
	r := b.math(fn, kir.TF64, x, y)
	if ordinaryConst(x) || ordinaryConst(y) {
		return r // a finite constant operand is neither NaN nor the infinity
	}
	k := b.konst(kir.TF64, math.Float64bits(inf))
	either := b.val(kir.OpOr, kir.TBool, b.val(kir.OpEq, kir.TBool, x, k), b.val(kir.OpEq, kir.TBool, y, k))
	return b.val(kir.OpSelect, kir.TF64, either, k, r)
}

// ordinaryConst reports whether v is a float constant that is neither NaN
// nor infinite.
func ordinaryConst(v *kir.Value) bool {
	if v.Op != kir.OpConst {
		return false
	}
	f := math.Float64frombits(v.Imm)
	return !math.IsNaN(f) && !math.IsInf(f, 0)
}

// funcPkg is the import path of fn's package ("" for none).
func funcPkg(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() != nil {
		return obj.Pkg().Path()
	}
	return ""
}

// isStd reports whether fn, of the package with import path path, is a
// function of the standard library: its path's first element has no dot
// (as no dotted module path's does) and its source lies under GOROOT (a
// module may be named without a dot too).
func (b *builder) isStd(fn *ssa.Function, path string) bool {
	first, _, _ := strings.Cut(path, "/")
	if path == "" || strings.Contains(first, ".") {
		return false
	}
	file := b.env.Fset.Position(fn.Pos()).Filename
	if file == "" || goroot == "" {
		return true // no source to tell by: trust the path
	}
	return strings.HasPrefix(filepath.Clean(file), goroot)
}

// goroot is the source directory of the standard library.
var goroot = func() string {
	if build.Default.GOROOT == "" {
		return ""
	}
	return filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
}()
