package ownership

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/deviceapi"
)

// Owned fields overwritten. A struct of an owning type releases the buffers
// in its owned fields when it is closed: storing a new buffer into a field
// that still holds one loses the old one (a leak), unless the old one was
// freed or taken out first. Each struct's state carries the owned fields
// that may hold a buffer (resState.heldFields): a store of a buffer sets the
// field's bit; a Free of the field's buffer, a read of it that may hand it
// on, a store of nil, the branch where it is nil, and closing the struct
// clear it. A parameter's fields start out unknown (set): a function that
// stores into one without releasing the old buffer overwrites it, which its
// summary records so that a caller whose struct holds a buffer in that field
// is told (a Resize method called twice).

// fieldSum is what a function does to the owned fields of a parameter of an
// owning type.
type fieldSum struct {
	overwritten uint64 // fields stored into while they may hold a buffer
	stored      uint64 // fields a buffer is stored into
	kept        uint64 // fields that may hold their old buffer, or a new one, at a return
}

// ownedFieldAddr returns the owner (a single resource) and the field of an
// address of an owned field that holds a buffer, or false.
func (fa *funcAnalysis) ownedFieldAddr(addr ssa.Value) (int, int, bool) {
	f, ok := addr.(*ssa.FieldAddr)
	if !ok || f.Field >= 64 || !fa.ownedField(f.X, f.Field) || !isBuffer(fieldType(f)) {
		return 0, 0, false
	}
	owners := fa.alias[f.X]
	if len(owners) != 1 || fa.res[owners[0]].owner == nil || fa.res[owners[0]].freeVar {
		return 0, 0, false
	}
	return owners[0], f.Field, true
}

// fieldType returns the type of the field f addresses.
func fieldType(f *ssa.FieldAddr) types.Type {
	return f.Type().(*types.Pointer).Elem()
}

// fieldName names field f of the struct r of type t (or *t): "w.scratch",
// or "field scratch of the Workspace value".
func fieldName(r *resource, t types.Type, f int) string {
	field := fmt.Sprintf("field %d", f)
	if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if st, ok := t.Underlying().(*types.Struct); ok && f < st.NumFields() {
		field = st.Field(f).Name()
	}
	if r.name != "" {
		return r.name + "." + field
	}
	return fmt.Sprintf("field %s of the %s", field, r.what())
}

// storeField applies a store into an owned field: a buffer (or nil) stored
// where the field may still hold one overwrites it. The field holds the
// new buffer for the struct to release only where the function owed it
// (not one a deferred Free releases, or one handed on already).
func (fa *funcAnalysis) storeField(in *ssa.Store, st flowState, final bool) {
	o, f, ok := fa.ownedFieldAddr(in.Addr)
	if !ok {
		return
	}
	shared := unshare(st, o)
	s, bit := &st[o], uint64(1)<<f
	if s.heldFields&bit != 0 && final && !shared {
		f := in.Addr.(*ssa.FieldAddr)
		fa.overwrite(st, o, f.Field, fieldName(fa.res[o], f.X.Type(), f.Field), in.Pos(), "it is overwritten")
	}
	stored := owed(st, fa.alias[in.Val])
	if r := fa.res[o]; r.param >= 0 && final && fa.building != nil {
		fs := fa.building.field(r.param)
		if stored {
			fs.stored |= bit
		}
		if s.heldFields&bit != 0 {
			fs.overwritten |= bit
		}
	}
	s.heldFields &^= bit
	if stored {
		s.heldFields |= bit
		s.fieldPos = in.Pos()
	}
}

// overwrite reports the buffer that field f (named name) of the struct o
// (created in the function) holds in state st as lost at pos, by what ("it
// is overwritten"), with where it was stored and, when the function knows
// it, where it was allocated. For a parameter there is nothing to report
// here: the summary tells the callers.
func (fa *funcAnalysis) overwrite(st flowState, o, f int, name string, pos token.Pos, what string) {
	if fa.res[o].param >= 0 {
		return
	}
	var rel []analysis.RelatedInformation
	if p := st[o].fieldPos; p.IsValid() {
		rel = append(rel, analysis.RelatedInformation{Pos: p, Message: "stored here: the buffer " + name + " holds"})
	}
	for id := range st {
		if s := st[id]; s.heldBy == o+1 && s.heldField == f && s.bits&escaped != 0 {
			rel = append(rel, fa.allocated(fa.res[id]))
		}
	}
	fa.reportAt(pos, fmt.Sprintf("the buffer held in %s is not freed before %s at line %d",
		name, what, fa.line(pos)), rel...)
}

// loadField applies a read of an owned field: a read that may free or hand
// on the buffer (anything but a nil test, a use by a Buffer method other
// than Free, or an argument of Launch) leaves the field not the struct's
// to release any more, as far as overwriting goes.
func (fa *funcAnalysis) loadField(in *ssa.UnOp, st flowState) {
	if in.Op != token.MUL {
		return
	}
	o, f, ok := fa.ownedFieldAddr(in.X)
	if !ok || onlyInspected(in) {
		return
	}
	st[o].heldFields &^= 1 << f
}

// onlyInspected reports whether the buffer v is only compared, used by a
// Buffer method other than Free, or passed among the variadic arguments
// of a Device method (Launch's ...any); for a struct value, whether each
// buffer read from its fields (also after a copy into a local variable)
// only is.
func onlyInspected(v ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef, *ssa.BinOp:
		case *ssa.Field:
			if !onlyInspected(ref) {
				return false
			}
		case *ssa.Store:
			a, ok := ref.Addr.(*ssa.Alloc)
			if !ok || ref.Val != v || !isStruct(v.Type()) || !copyInspected(a) {
				return false
			}
		case *ssa.Call:
			obj := calleeObj(ref.Call.StaticCallee())
			if !isMethodOf(obj, deviceapi.IsBuffer) || deviceapi.Func(obj) == deviceapi.Free || ref.Call.Args[0] != v {
				return false
			}
		case *ssa.MakeInterface:
			for _, r2 := range *ref.Referrers() {
				if s, ok := r2.(*ssa.Store); !ok || s.Val != ref || !isDeviceVararg(s.Addr) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// copyInspected reports whether the buffers read from the local struct
// variable a, a copy of a struct value, are only inspected.
func copyInspected(a *ssa.Alloc) bool {
	for _, ref := range *a.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if ref.Addr != a {
				return false
			}
		case *ssa.FieldAddr:
			for _, r2 := range *ref.Referrers() {
				if _, dbg := r2.(*ssa.DebugRef); dbg {
					continue
				}
				if load, ok := r2.(*ssa.UnOp); !ok || load.Op != token.MUL || !onlyInspected(load) {
					return false
				}
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL || !onlyInspected(ref) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// isStruct reports whether t is a struct type.
func isStruct(t types.Type) bool {
	_, ok := types.Unalias(t).Underlying().(*types.Struct)
	return ok
}

// isDeviceVararg reports whether addr is an element of the array the SSA
// builder made for the variadic arguments of a call of a Device method.
func isDeviceVararg(addr ssa.Value) bool {
	ia, ok := addr.(*ssa.IndexAddr)
	if !ok {
		return false
	}
	a, ok := ia.X.(*ssa.Alloc)
	if !ok || a.Comment != "varargs" {
		return false
	}
	for _, ref := range *a.Referrers() {
		sl, ok := ref.(*ssa.Slice)
		if !ok {
			continue
		}
		for _, use := range *sl.Referrers() {
			if call, ok := use.(*ssa.Call); ok && isMethodOf(calleeObj(call.Call.StaticCallee()), deviceapi.IsDevice) {
				return true
			}
		}
	}
	return false
}

// refineFieldNil clears, on the edge where an owned field was found nil
// (`if w.scratch == nil`), that field's bit.
func (fa *funcAnalysis) refineFieldNil(x ssa.Value, nilEdge flowState) {
	load, ok := x.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return
	}
	if o, f, ok := fa.ownedFieldAddr(load.X); ok {
		nilEdge[o].heldFields &^= 1 << f
	}
}

// callFields applies what a call does to the owned fields of the structs it
// receives: a field it overwrites while the caller's struct holds a buffer
// there loses that buffer; afterwards a field holds a buffer where the
// callee stored one, or kept what it held.
func (cs *callSite) callFields(sum *summary) {
	if sum == nil || len(sum.fields) == 0 {
		return
	}
	fa := cs.fa
	for j, a := range cs.common.Args {
		fs, ok := sum.fields[j]
		if !ok {
			continue
		}
		ids := fa.argAliases(a)
		if len(ids) != 1 || fa.res[ids[0]].owner == nil || fa.res[ids[0]].freeVar {
			continue
		}
		o := ids[0]
		s := &cs.st[o]
		if lost := s.heldFields & fs.overwritten; lost != 0 {
			if cs.final {
				f := lowestBit(lost)
				fa.overwrite(cs.st, o, f, fieldName(fa.res[o], a.Type(), f), cs.pos, "a call to "+calleeName(cs.common)+" overwrites it")
			}
			if r := fa.res[o]; r.param >= 0 && cs.final && fa.building != nil {
				fa.building.field(r.param).overwritten |= lost
			}
		}
		if r := fa.res[o]; r.param >= 0 && cs.final && fa.building != nil {
			fa.building.field(r.param).stored |= fs.stored
		}
		s.heldFields = s.heldFields&fs.kept | fs.stored
		if fs.stored != 0 {
			s.fieldPos = cs.pos
		}
	}
}

// retFields records, at a return, which owned fields of a parameter may
// hold a buffer.
func (fa *funcAnalysis) retFields(r *resource, s resState) {
	if fa.building != nil && r.owner != nil && !r.freeVar && r.param >= 0 {
		fa.building.field(r.param).kept |= s.heldFields
	}
}

// field returns the field summary of parameter j, creating it.
func (s *summary) field(j int) *fieldSum {
	if s.fields == nil {
		s.fields = map[int]*fieldSum{}
	}
	if s.fields[j] == nil {
		s.fields[j] = &fieldSum{}
	}
	return s.fields[j]
}

func lowestBit(m uint64) int {
	for i := 0; i < 64; i++ {
		if m&(1<<i) != 0 {
			return i
		}
	}
	return -1
}

func calleeName(common *ssa.CallCommon) string {
	if obj := calleeObj(common.StaticCallee()); obj != nil {
		return obj.Name()
	}
	return "a function"
}

// retResultFields records, at a return, which owned fields of a new struct
// of an owning type returned as result k may hold a buffer (a constructor
// that fills them).
func (fa *funcAnalysis) retResultFields(k int, ids []int, st flowState) {
	sum := fa.building
	if sum == nil || len(ids) != 1 || fa.res[ids[0]].owner == nil || fa.res[ids[0]].param >= 0 {
		return
	}
	if sum.resultFields == nil {
		sum.resultFields = map[int]uint64{}
	}
	sum.resultFields[k] |= st[ids[0]].heldFields
}

// filledFields returns the owned fields that may hold a buffer in the new
// struct r that the call creates, as its callee's summary says.
func (fa *funcAnalysis) filledFields(call *ssa.Call, r *resource) uint64 {
	if r.owner == nil {
		return 0
	}
	if sum := fa.c.summaryOf(call.Common()); sum != nil {
		return sum.resultFields[r.result]
	}
	return 0
}

// unshare forgets that the struct o holds, besides another struct, a buffer
// stored in both, once o's owned fields are stored into, and reports
// whether it did: which field the shared buffer was in is not kept, so a
// later Close of both is not taken as freeing it twice, and the store is
// not taken as losing it (the other struct still holds it).
func unshare(st flowState, o int) bool {
	shared := false
	for id := range st {
		switch s := &st[id]; {
		case s.sharedBy == o+1:
			s.sharedBy, shared = 0, true
		case s.heldBy == o+1 && s.sharedBy > 0:
			s.heldBy, s.sharedBy, shared = s.sharedBy, 0, true
		}
	}
	return shared
}

// owed reports whether some of the buffers ids is still the function's to
// release.
func owed(st flowState, ids []int) bool {
	for _, id := range ids {
		if st[id].bits&live != 0 {
			return true
		}
	}
	return false
}
