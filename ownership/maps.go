package ownership

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Map entries. A map that owns buffers (a local map of buffers that holds
// some, or an owned map field of a struct of an owning type, which its
// release method frees in a range loop) loses an entry's buffer when the
// entry is deleted, or overwritten, without the buffer being freed or taken
// out first.
//
// delete(m, k) is correct where a read of m[k] (the same map and key: one
// SSA value, one constant, or the key of the range loop that read the
// value) comes first on every path and the buffer read is freed or handed
// on. An overwrite m[k] = b is followed for constant keys only: the entry
// held a buffer if one was stored under that key on some path, and was not
// read out since (resState.heldFields of the map, one bit per constant key
// of the function). A key that is a variable takes a new value each time
// round a loop, so a store under it is not an overwrite.

// deleteEntry applies delete(m, k): it reports the entry's buffer as lost
// where nothing took it out first.
func (fa *funcAnalysis) deleteEntry(st flowState, m, k ssa.Value, pos token.Pos, final bool) {
	name, coll, owns := fa.owningMap(st, m)
	if !owns {
		return
	}
	if coll >= 0 {
		if slot, ok := fa.keySlot(k); ok {
			st[coll].heldFields &^= 1 << slot
		}
	}
	if !final || fa.takenOut(m, k, fa.cur) || fa.entryReleased(st, m, k, fa.cur) {
		return
	}
	what, freed := "buffer", "is not freed"
	if elem := mapElem(m.Type()); elem != nil && !isBuffer(elem) {
		if o, tname := fa.c.ownerOf(elem); o != nil {
			what, freed = tname+" value", "is not closed by "+o.Method
		} else if fa.c.carriesBuffers(elem) {
			what, freed = "buffers of the "+types.TypeString(elem, types.RelativeTo(fa.c.pass.Pkg))+" value", "are not freed"
		}
	}
	msg := fmt.Sprintf("the %s in %s[%s] %s before the entry is deleted at line %d",
		what, name, keyText(k), freed, fa.line(pos))
	if coll >= 0 {
		fa.reportAt(pos, msg, fa.allocated(fa.res[coll]))
	} else {
		fa.reportAt(pos, msg)
	}
}

// owningMap reports whether m owns the buffers it holds, with its name and
// the collection it is (-1 for an owned field): a local map of buffers that
// holds some on this path, or an owned map field.
func (fa *funcAnalysis) owningMap(st flowState, m ssa.Value) (string, int, bool) {
	if e := mapElem(m.Type()); e == nil || !fa.c.tracked(e) && !fa.c.carriesBuffers(e) {
		return "", -1, false
	}
	for _, id := range fa.collIDs(fa.contentsOrAlias(m)) {
		if responsible(st[id]) {
			name := fa.res[id].name
			if name == "" {
				name = "the map"
			}
			return name, id, true
		}
	}
	load, ok := m.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return "", -1, false
	}
	f, ok := load.X.(*ssa.FieldAddr)
	if !ok || !fa.ownedField(f.X, f.Field) {
		return "", -1, false
	}
	t := f.X.Type().(*types.Pointer).Elem().Underlying().(*types.Struct)
	base := fa.varName(f.X)
	if base == "" {
		base = "the struct"
	}
	return base + "." + t.Field(f.Field).Name(), -1, true
}

// responsible reports whether a collection must release what it holds on
// this path: it holds buffers, or a deferred call will release them (which
// does not see an entry deleted before it runs).
func responsible(s resState) bool {
	return s.bits&(live|deferred) != 0
}

// mapElem returns the element type of a map, or nil.
func mapElem(t types.Type) types.Type {
	m, ok := types.Unalias(t).Underlying().(*types.Map)
	if !ok {
		return nil
	}
	return m.Elem()
}

// takenOut reports whether, before at on every path, the entry m[k] is read
// and the value read may be freed or handed on: a lookup of the same map
// and key that dominates at, or the value of the range loop over m whose
// key k is.
func (fa *funcAnalysis) takenOut(m, k ssa.Value, at ssa.Instruction) bool {
	if ex, ok := k.(*ssa.Extract); ok && ex.Index == 1 {
		if next, ok := ex.Tuple.(*ssa.Next); ok && sameMap(next.Iter.(*ssa.Range).X, m) {
			for _, ref := range *next.Referrers() {
				if v, ok := ref.(*ssa.Extract); ok && v.Index == 2 && !onlyInspected(v) {
					return true
				}
			}
		}
	}
	for _, b := range fa.fn.Blocks {
		for _, instr := range b.Instrs {
			l, ok := instr.(*ssa.Lookup)
			if !ok || !sameMap(l.X, m) || !sameKey(l.Index, k) || !before(l, at) {
				continue
			}
			if !onlyInspected(lookupValue(l)) {
				return true
			}
		}
	}
	return false
}

// lookupValue returns the value a lookup reads: the lookup, or the first
// result of its comma-ok form.
func lookupValue(l *ssa.Lookup) ssa.Value {
	if !l.CommaOk {
		return l
	}
	for _, ref := range *l.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == 0 {
			return ex
		}
	}
	return l
}

// before reports whether a runs before b on every path to b: earlier in
// b's block, or in a block that dominates b's.
func before(a, b ssa.Instruction) bool {
	if a.Block() != b.Block() {
		return a.Block().Dominates(b.Block())
	}
	for _, instr := range a.Block().Instrs {
		switch instr {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}

// sameMap reports whether two values are the same map: one value, or loads
// of one variable or of one field of one value.
func sameMap(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	la, ok1 := a.(*ssa.UnOp)
	lb, ok2 := b.(*ssa.UnOp)
	if !ok1 || !ok2 || la.Op != token.MUL || lb.Op != token.MUL {
		return false
	}
	if la.X == lb.X {
		return true
	}
	fa, ok1 := la.X.(*ssa.FieldAddr)
	fb, ok2 := lb.X.(*ssa.FieldAddr)
	return ok1 && ok2 && fa.Field == fb.Field && sameMap(fa.X, fb.X)
}

// sameKey reports whether two keys are certainly equal: one value, equal
// constants, or loads of one variable, of one field of one value, or of
// one element (`names[0]`) of one slice.
func sameKey(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	ca, ok1 := a.(*ssa.Const)
	cb, ok2 := b.(*ssa.Const)
	if ok1 && ok2 {
		return ca.Value != nil && cb.Value != nil && constant.Compare(ca.Value, token.EQL, cb.Value)
	}
	la, ok1 := a.(*ssa.UnOp)
	lb, ok2 := b.(*ssa.UnOp)
	if !ok1 || !ok2 || la.Op != token.MUL || lb.Op != token.MUL {
		return false
	}
	if la.X == lb.X {
		return true
	}
	if ia, ok := la.X.(*ssa.IndexAddr); ok {
		ib, ok := lb.X.(*ssa.IndexAddr)
		return ok && ia.X == ib.X && sameVal(ia.Index, ib.Index, 0)
	}
	fa, ok1 := la.X.(*ssa.FieldAddr)
	fb, ok2 := lb.X.(*ssa.FieldAddr)
	return ok1 && ok2 && fa.X == fb.X && fa.Field == fb.Field
}

// keyText is how a message spells a key: the constant, the variable, or k.
func keyText(k ssa.Value) string {
	if c, ok := k.(*ssa.Const); ok && c.Value != nil {
		return c.Value.ExactString()
	}
	if name := debugName(k); name != "" {
		return name
	}
	if load, ok := k.(*ssa.UnOp); ok && load.Op == token.MUL {
		switch x := load.X.(type) {
		case *ssa.Alloc:
			if x.Comment != "" {
				return x.Comment
			}
		case *ssa.IndexAddr:
			if s, i := debugName(x.X), x.Index; s != "" {
				if c, ok := i.(*ssa.Const); ok && c.Value != nil {
					return s + "[" + c.Value.ExactString() + "]"
				}
			}
		}
	}
	return "k"
}

// debugName returns the name of the variable a debug reference ties v to,
// or "".
func debugName(v ssa.Value) string {
	for _, ref := range *v.Referrers() {
		if d, ok := ref.(*ssa.DebugRef); ok {
			if obj, ok := d.Object().(*types.Var); ok {
				return obj.Name()
			}
		}
	}
	return ""
}

// keySlot returns the bit of a constant key in the maps' heldFields: the
// index of its value among the constant keys the function uses (up to 64).
func (fa *funcAnalysis) keySlot(k ssa.Value) (int, bool) {
	c, ok := k.(*ssa.Const)
	if !ok || c.Value == nil {
		return 0, false
	}
	key := c.Value.ExactString()
	if fa.keys == nil {
		fa.keys = map[string]int{}
	}
	slot, ok := fa.keys[key]
	if !ok {
		if len(fa.keys) >= 64 {
			return 0, false
		}
		slot = len(fa.keys)
		fa.keys[key] = slot
	}
	return slot, true
}

// updateEntry applies m[k] = v to a local map of buffers under a constant
// key: a buffer stored where the entry may still hold one overwrites it.
func (fa *funcAnalysis) updateEntry(in *ssa.MapUpdate, st flowState, final bool) {
	slot, ok := fa.keySlot(in.Key)
	if !ok {
		return
	}
	bit := uint64(1) << slot
	for _, id := range fa.collIDs(fa.contentsOrAlias(in.Map)) {
		s := &st[id]
		if s.heldFields&bit != 0 && responsible(*s) && final {
			r := fa.res[id]
			name := r.name
			if name == "" {
				name = "the map"
			}
			fa.reportAt(in.Pos(), fmt.Sprintf("the buffer in %s[%s] is not freed before the entry is overwritten at line %d",
				name, keyText(in.Key), fa.line(in.Pos())), fa.allocated(r))
		}
		s.heldFields &^= bit
		if !isNilConst(in.Value) {
			s.heldFields |= bit
		}
	}
}

// lookupEntry applies a read of m[k] under a constant key: a value read
// that may be freed or handed on leaves the entry empty, as far as
// overwriting goes.
func (fa *funcAnalysis) lookupEntry(in *ssa.Lookup, st flowState) {
	slot, ok := fa.keySlot(in.Index)
	if !ok || onlyInspected(lookupValue(in)) {
		return
	}
	for _, id := range fa.collIDs(fa.contentsOrAlias(in.X)) {
		st[id].heldFields &^= 1 << slot
	}
}

// deletedAfter reports whether the map entry m[k] that arg was read from
// (a lookup, or the value of a range loop over m, or a field of either) is
// deleted (or set to nil) right after the Free in the same block
// (`bufs["phi"].Free(); delete(bufs, "phi")`, `p.a.Free(); p.b.Free();
// delete(m, k)` in `for k, p := range m`), so that a deferred loop over the
// map does not free it again.
func (fa *funcAnalysis) deletedAfter(arg ssa.Value) bool {
	m, k := entryOf(arg)
	if m == nil || fa.cur == nil {
		return false
	}
	after := false
	for _, instr := range fa.cur.Block().Instrs {
		if instr == fa.cur {
			after = true
			continue
		}
		if !after {
			continue
		}
		switch in := instr.(type) {
		case *ssa.Call:
			if b, ok := in.Call.Value.(*ssa.Builtin); ok && b.Name() == "delete" &&
				sameMap(in.Call.Args[0], m) && sameKey(in.Call.Args[1], k) {
				return true
			}
		case *ssa.MapUpdate:
			if isNilConst(in.Value) && sameMap(in.Map, m) && sameKey(in.Key, k) {
				return true
			}
		}
	}
	return false
}

// entryOf returns the map and key of the entry v was read from: a lookup
// m[k], or the value of a range loop over m with its key k, or a field of
// either; nil otherwise.
func entryOf(v ssa.Value) (m, k ssa.Value) {
	if l, ok := v.(*ssa.Lookup); ok {
		return l.X, l.Index
	}
	ex, ok := elemOf(v).(*ssa.Extract)
	if !ok || ex.Index != 2 {
		return nil, nil
	}
	next, ok := ex.Tuple.(*ssa.Next)
	if !ok || next.IsString {
		return nil, nil
	}
	rng, ok := next.Iter.(*ssa.Range)
	if !ok {
		return nil, nil
	}
	for _, ref := range *next.Referrers() {
		if key, ok := ref.(*ssa.Extract); ok && key.Index == 1 {
			return rng.X, key
		}
	}
	return nil, nil
}

// entryReleased reports whether every buffer stored into m[k] before at
// (the same map and key) is no longer held by the map on this path: freed
// through its own variable (`tmp.Free(); delete(bufs, "tmp")`).
func (fa *funcAnalysis) entryReleased(st flowState, m, k ssa.Value, at ssa.Instruction) bool {
	found := false
	for _, b := range fa.fn.Blocks {
		for _, instr := range b.Instrs {
			u, ok := instr.(*ssa.MapUpdate)
			if !ok || !sameMap(u.Map, m) || !sameKey(u.Key, k) || !before(u, at) {
				continue
			}
			for _, id := range fa.alias[u.Value] {
				if st[id].bits&(escaped|live) != 0 || st[id].bits == 0 {
					return false
				}
				found = true
			}
		}
	}
	return found
}
