package lower

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// copySlice lowers the builtin copy(dst, src) of two slices: n =
// min(len(dst), len(src)) elements, as memmove moves them (so copy(s[1:],
// s) is right): a loop whose element e runs backwards when dst lies above
// src in the same address space.
func (b *builder) copySlice(args []ssa.Value, v *ssa.Call) []*kir.Value {
	st, ok := args[1].Type().Underlying().(*types.Slice)
	if !ok {
		b.fail(v.Pos(), "copy from a string cannot be used in kernels")
	}
	dst, src := b.value(args[0]), b.value(args[1])
	n := b.minMax(true, dst[1], src[1])
	size := sizes.Sizeof(st.Elem())
	var back *kir.Value
	if dst[0].Type == src[0].Type {
		// dst lies above src inside it when dst == &src[j] for some
		// 0 < j < n: found with pointer equality, which every target
		// and the interpreter compare (ordering they may not).
		u8 := kir.Type{Kind: kir.U8}
		cell := b.val(kir.OpLocal, kir.PtrTo(kir.Local))
		cell.Imm, cell.Index = 1, 1
		b.val(kir.OpStore, kir.Type{}, cell, b.konst(u8, 0))
		b.loop(n, "copy.overlap", func(j *kir.Value) {
			hit := b.val(kir.OpEq, kir.TBool, b.elemAddr(src[0], j, size), dst[0])
			was := b.val(kir.OpLoad, u8, cell)
			b.val(kir.OpStore, kir.Type{}, cell, b.val(kir.OpSelect, u8, hit, b.konst(u8, 1), was))
		})
		back = b.val(kir.OpNe, kir.TBool, b.val(kir.OpLoad, u8, cell), b.konst(u8, 0))
	}
	b.loop(n, "copy", func(j *kir.Value) {
		e := j
		if back != nil {
			last := b.val(kir.OpSub, kir.TI64, b.val(kir.OpSub, kir.TI64, n, b.i64(1)), j)
			e = b.val(kir.OpSelect, kir.TI64, back, last, j)
		}
		x := b.load(b.elemAddr(src[0], e, size), st.Elem(), v.Pos())
		b.store(b.elemAddr(dst[0], e, size), st.Elem(), x, v.Pos())
	})
	return []*kir.Value{n}
}

// clearSlice lowers the builtin clear(s) of a slice: every element zero.
func (b *builder) clearSlice(args []ssa.Value, v *ssa.Call) []*kir.Value {
	st, ok := args[0].Type().Underlying().(*types.Slice)
	if !ok {
		b.fail(v.Pos(), "clear of %s cannot be used in kernels", args[0].Type())
	}
	s := b.value(args[0])
	size := sizes.Sizeof(st.Elem())
	b.loop(s[1], "clear", func(j *kir.Value) {
		b.store(b.elemAddr(s[0], j, size), st.Elem(), b.zero(st.Elem()), v.Pos())
	})
	return nil
}

// loop emits for j := 0; j < n; j++ { body(j) } as the blocks of a Go for
// statement (header, body, done), which every emitter structures.
func (b *builder) loop(n *kir.Value, name string, body func(j *kir.Value)) {
	header := b.f.NewBlock(kir.BlockLoopHeader, name+".loop")
	bodyB := b.f.NewBlock(kir.BlockLoopBody, name+".body")
	done := b.f.NewBlock(kir.BlockLoopDone, name+".done")
	zero := b.i64(0)
	b.cur.Jump(header)
	b.cur = header
	j := b.f.NewPhi(header, kir.TI64)
	b.cur.Branch(b.val(kir.OpLt, kir.TBool, j, n), bodyB, done)
	b.cur = bodyB
	body(j)
	next := b.val(kir.OpAdd, kir.TI64, j, b.i64(1))
	b.cur.Jump(header)
	j.Args = []*kir.Value{zero, next}
	b.cur = done
}
