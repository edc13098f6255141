package kir_test

import (
	"reflect"
	"testing"

	. "github.com/gpukvet/gpukvet/codegen/kir"
)

// TestReadOnlyLoads: loads through a parameter the kernel never writes
// (directly, through a phi or a select of two such parameters) are
// read-only; a load through a parameter that is stored to, or atomically
// updated, is not, nor is a load through a select of a read-only and a
// written parameter.
func TestReadOnlyLoads(t *testing.T) {
	b := newFB(Param{Name: "a", Type: PtrTo(Global)}, Param{Name: "b", Type: PtrTo(Global)},
		Param{Name: "c", Type: PtrTo(Global)}, Param{Name: "d", Type: PtrTo(Global)}, Param{Name: "k", Type: TBool})
	a, pb, c, d := b.param(0, PtrTo(Global)), b.param(1, PtrTo(Global)), b.param(2, PtrTo(Global)), b.param(3, PtrTo(Global))
	k := b.param(4, TBool)
	four := b.c(TI64, 4)
	la := b.v(OpLoad, TF32, b.v(OpPtrAdd, PtrTo(Global), a, four))
	lab := b.v(OpLoad, TF32, b.v(OpSelect, PtrTo(Global), k, a, pb))
	lc := b.v(OpLoad, TF32, c)
	lac := b.v(OpLoad, TF32, b.v(OpSelect, PtrTo(Global), k, a, c))
	ld := b.v(OpLoad, TU32, d)
	b.v(OpStore, Type{}, b.v(OpPtrAdd, PtrTo(Global), c, four), b.v(OpAdd, TF32, b.v(OpAdd, TF32, la, lab), b.v(OpAdd, TF32, lc, lac)))
	b.v(OpAtomic, TU32, d, ld)
	b.cur.Return()
	verify(t, b.f)
	loads, slots := ReadOnlyLoads(b.f)
	for v, want := range map[*Value]bool{la: true, lab: true, lc: false, lac: false, ld: false} {
		if loads[v] != want {
			t.Errorf("load %v: read-only %v, want %v\n%s", v, loads[v], want, Format(b.f))
		}
	}
	if want := []int{0, 1}; !reflect.DeepEqual(slots, want) {
		t.Errorf("slots %v, want %v", slots, want)
	}
	// A store through a pointer of unknown origin may write any buffer.
	b.cur.Term = TermNone
	local := b.v(OpLocal, PtrTo(Global))
	local.Imm, local.Index = 8, 8
	b.v(OpStore, Type{}, local, four)
	b.cur.Return()
	if loads, _ := ReadOnlyLoads(b.f); len(loads) != 0 {
		t.Errorf("%d read-only loads with a store of unknown target", len(loads))
	}
}
