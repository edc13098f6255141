package lower

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// Kernel code may use constant strings (DIALECT.md): index them and range
// over them. Their bytes are known when compiling, so a constant index is
// the byte itself, and a variable index or a range reads a table the
// kernel writes to its local memory where it needs it.

// constString returns the value of v when it is a constant string.
func constString(v ssa.Value) (string, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Value), true
}

// stringIndex lowers s[i] of a constant string s, with Go's bounds check.
func (b *builder) stringIndex(s string, v *ssa.Index) []*kir.Value {
	u8 := kir.Type{Kind: kir.U8}
	idx := b.toInt(b.value(v.Index)[0], v.Index.Type())
	if idx.Op == kir.OpConst && uint64(idx.Int()) < uint64(len(s)) {
		return []*kir.Value{b.konst(u8, uint64(s[idx.Int()]))}
	}
	b.boundsCheck(idx, b.i64(int64(len(s))), v.Pos())
	words := make([]uint64, (len(s)+7)/8)
	for i := 0; i < len(s); i++ {
		words[i/8] |= uint64(s[i]) << (8 * (i % 8)) // little-endian, as every target
	}
	return []*kir.Value{b.val(kir.OpLoad, u8, b.elemAddr(b.constTable(words), idx, 1))}
}

// constTable writes words to a fresh local array and returns its address.
func (b *builder) constTable(words []uint64) *kir.Value {
	p := b.val(kir.OpLocal, kir.PtrTo(kir.Local))
	p.Imm = uint64(8 * max(len(words), 1))
	p.Index = 8
	for i, w := range words {
		b.val(kir.OpStore, kir.Type{}, b.ptrAdd(p, int64(8*i)), b.konst(kir.TU64, w))
	}
	return p
}

// stringRange lowers range over a constant string s to an iterator of
// three leaves: a local cell holding how many runes were read, a table
// with one entry per rune (its byte offset << 32 | the rune, decoded as
// Go decodes it, invalid UTF-8 giving U+FFFD) and a zero entry past the
// end, and the number of runes.
func (b *builder) stringRange(s string) []*kir.Value {
	var words []uint64
	for off, r := range s {
		words = append(words, uint64(off)<<32|uint64(uint32(r)))
	}
	n := len(words)
	table := b.constTable(append(words, 0))
	cell := b.val(kir.OpLocal, kir.PtrTo(kir.Local))
	cell.Imm, cell.Index = 8, 8
	b.val(kir.OpStore, kir.Type{}, cell, b.i64(0))
	return []*kir.Value{cell, table, b.i64(int64(n))}
}

// stringNext lowers the Next of a range over a constant string: (ok, the
// byte offset, the rune), with a leaf for each of the last two only where
// the range statement uses it (go/ssa gives an unused one no type).
func (b *builder) stringNext(v *ssa.Next) []*kir.Value {
	it := b.value(v.Iter)
	cell, table, n := it[0], it[1], it[2]
	c := b.val(kir.OpLoad, kir.TI64, cell)
	ok := b.val(kir.OpLt, kir.TBool, c, n)
	e := b.val(kir.OpLoad, kir.TU64, b.elemAddr(table, c, 8)) // c <= n: the zero entry at the end
	b.val(kir.OpStore, kir.Type{}, cell, b.val(kir.OpAdd, kir.TI64, c, b.i64(1)))
	out := []*kir.Value{ok}
	tup := v.Type().(*types.Tuple)
	if !invalid(tup.At(1).Type()) {
		out = append(out, b.val(kir.OpConvert, kir.TI64, b.val(kir.OpShr, kir.TU64, e, b.konst(kir.TU32, 32))))
	}
	if !invalid(tup.At(2).Type()) {
		out = append(out, b.val(kir.OpConvert, kir.TI32, e))
	}
	return out
}

// invalid reports whether t is go/ssa's type of a tuple element nothing
// uses, which has no leaves.
func invalid(t types.Type) bool {
	bt, ok := t.(*types.Basic)
	return ok && bt.Kind() == types.Invalid
}
