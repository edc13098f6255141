package kir

import "sort"

// ScalarReplace keeps in registers the local variables whose address does
// not escape: a local (OpLocal: a struct, an array, a gpu.Dim3 whose fields
// are assigned one by one) that is only loaded from and stored to at
// constant offsets is split into one scalar per accessed leaf, and each
// scalar is put into SSA form (phis where stores on different paths meet,
// Cytron et al.'s iterated dominance frontiers). Its memory never existed:
// no .local frame on the GPU. A local indexed by a variable stays in memory
// (full unrolling first turns constant-trip loop indices into constants).
//
// A local qualifies when every pointer derived from it (by ptradd of a
// constant) is used only as the address of loads and stores, every access
// lies inside the allocation, and accesses at one offset all have one type
// and never overlap accesses at another offset. The value a load sees
// before any store on its path is zero, which is what the lowering's
// zeroing stores give too (and the state of a fresh allocation).
//
// It works in three steps: findSlots finds the locals that qualify and
// splits each into slots; placePhis puts a phi for a slot where its stores
// meet; rename walks the dominator tree, replacing each load by the value
// its slot holds there, and deletes the loads and stores.
func ScalarReplace(f *Func) int {
	RemoveUnreachable(f)
	s := findSlots(f)
	if len(s.slots) == 0 {
		return 0
	}
	dom := Dominators(f)
	s.placePhis(f, dom)
	replaceUses(f, s.rename(f, dom).find)
	DeadCode(f)
	return len(s.slots)
}

// slot is one scalar of a local: its leaf of type typ at offset off.
type slot struct {
	off  int64
	typ  Type
	size int
}

// scalars is ScalarReplace's plan: the slots of the locals that qualify,
// the slot each of their loads and stores accesses, and the phis placed
// for each slot.
type scalars struct {
	slots   []slot
	slotOf  map[*Value]int // load or store → slot index
	phiSlot map[*Value]int // phi → slot index
}

// findSlots splits each local that qualifies into its slots.
func findSlots(f *Func) *scalars {
	users := Users(f)
	s := &scalars{slotOf: map[*Value]int{}}
	for _, b := range f.Blocks {
		for _, l := range b.Values {
			if l.Op != OpLocal {
				continue
			}
			acc, ok := localAccesses(l, users)
			if !ok {
				continue
			}
			slots, ok := leafSlots(l, acc)
			if !ok || len(slots) == 0 {
				continue
			}
			index := map[int64]int{}
			for _, sl := range slots {
				index[sl.off] = len(s.slots)
				s.slots = append(s.slots, sl)
			}
			for _, a := range acc {
				s.slotOf[a.v] = index[a.off]
			}
		}
	}
	return s
}

// leafSlots splits local l, accessed by acc, into one slot per offset
// accessed, in offset order. It reports false when an access lies outside
// l or is of a pointer, when two accesses at one offset differ in type, or
// when accesses at two offsets overlap.
func leafSlots(l *Value, acc []access) ([]slot, bool) {
	bySlot := map[int64]slot{}
	for _, a := range acc {
		t := a.v.Type
		if a.v.Op == OpStore {
			t = a.v.Args[1].Type
		}
		size := t.Kind.Size()
		if t.Kind == Ptr || t.Kind == Void || a.off < 0 || a.off+int64(size) > int64(l.Imm) {
			return nil, false
		}
		if s, ok := bySlot[a.off]; ok {
			if s.typ != t {
				return nil, false
			}
			continue
		}
		bySlot[a.off] = slot{off: a.off, typ: t, size: size}
	}
	slots := make([]slot, 0, len(bySlot))
	for _, s := range bySlot {
		slots = append(slots, s)
	}
	sort.Slice(slots, func(i, j int) bool { return slots[i].off < slots[j].off })
	for i := 1; i < len(slots); i++ {
		if slots[i-1].off+int64(slots[i-1].size) > slots[i].off {
			return nil, false
		}
	}
	return slots, true
}

// placePhis puts a phi for each slot at the iterated dominance frontier
// of the blocks that store to it.
func (s *scalars) placePhis(f *Func, dom *DomTree) {
	df := dominanceFrontiers(f, dom)
	s.phiSlot = map[*Value]int{}
	// Each slot's store blocks in block order (not the map's): the order
	// phis are made in names them in the LLVM output.
	stores := make([][]*Block, len(s.slots))
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if si, ok := s.slotOf[v]; ok && v.Op == OpStore && !containsBlock(stores[si], b) {
				stores[si] = append(stores[si], b)
			}
		}
	}
	for si, sl := range s.slots {
		work := append([]*Block(nil), stores[si]...)
		has := map[*Block]bool{}
		for _, b := range work {
			has[b] = true
		}
		placed := map[*Block]bool{}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, y := range df[b.Index] {
				if placed[y] {
					continue
				}
				placed[y] = true
				p := f.NewPhi(y, sl.typ)
				p.Args = make([]*Value, len(y.Preds))
				s.phiSlot[p] = si
				if !has[y] {
					has[y] = true
					work = append(work, y)
				}
			}
		}
	}
}

// rename walks the dominator tree with the value each slot holds, zero at
// the entry: a phi of the slot becomes that value, a store sets it, a load
// is replaced by it (in the forwarding it returns); the loads and stores
// are deleted, and the phis on the edges out of each block get their
// arguments.
func (s *scalars) rename(f *Func, dom *DomTree) forwarding {
	replaced := forwarding{}
	find := replaced.find
	entry := f.Blocks[0]
	cur := s.zeros(f, entry)
	// saved holds cur as it was on entering each block on the walk's path.
	saved := make([][]*Value, len(f.Blocks))
	enter := func(b *Block) {
		saved[b.Index] = append([]*Value(nil), cur...)
		kept := b.Values[:0]
		for _, v := range b.Values {
			for i, a := range v.Args {
				if a != nil {
					v.Args[i] = find(a)
				}
			}
			if si, ok := s.phiSlot[v]; ok {
				cur[si] = v
			}
			if si, ok := s.slotOf[v]; ok {
				if v.Op == OpLoad {
					replaced[v] = cur[si]
				} else {
					cur[si] = v.Args[1]
				}
				continue
			}
			kept = append(kept, v)
		}
		b.Values = kept
		s.fillPhis(b, cur)
	}
	leave := func(b *Block) {
		copy(cur, saved[b.Index])
		saved[b.Index] = nil
	}
	dom.Walk(entry, enter, leave)
	return replaced
}

// zeros puts a zero constant for each slot at the start of entry, the
// value a load sees before any store, and returns them by slot.
func (s *scalars) zeros(f *Func, entry *Block) []*Value {
	zeros := make([]*Value, len(s.slots))
	for i, sl := range s.slots {
		zeros[i] = &Value{ID: f.nextID, Op: OpConst, Type: sl.typ, Block: entry}
		f.nextID++
	}
	entry.Values = append(append([]*Value(nil), zeros...), entry.Values...)
	return zeros
}

// fillPhis gives the slots' phis in b's successors their arguments on the
// edges from b: the values the slots hold at b's end.
func (s *scalars) fillPhis(b *Block, cur []*Value) {
	for _, succ := range b.Succs {
		for j, p := range succ.Preds {
			if p != b {
				continue
			}
			for _, phi := range succ.Phis() {
				if si, ok := s.phiSlot[phi]; ok {
					phi.Args[j] = cur[si]
				}
			}
		}
	}
}

// access is a load or store at a constant offset from a local.
type access struct {
	v   *Value
	off int64
}

// localAccesses lists the loads and stores through local l, or reports
// false if a pointer derived from l is used in any other way.
func localAccesses(l *Value, users [][]*Value) ([]access, bool) {
	var out []access
	type item struct {
		p   *Value
		off int64
	}
	work := []item{{l, 0}}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		for _, u := range users[it.p.ID] {
			switch {
			case u.Op == OpPtrAdd && u.Args[0] == it.p && u.Args[1].Op == OpConst:
				work = append(work, item{u, it.off + int64(u.Args[1].Imm)})
			case u.Op == OpLoad:
				out = append(out, access{u, it.off})
			case u.Op == OpStore && u.Args[0] == it.p && u.Args[1] != it.p:
				out = append(out, access{u, it.off})
			default:
				return nil, false
			}
		}
	}
	return out, true
}

// Users returns, by value ID, the values that use each value as an operand
// (once per use).
func Users(f *Func) [][]*Value {
	users := make([][]*Value, f.NumValues())
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			for _, a := range v.Args {
				if a != nil {
					users[a.ID] = append(users[a.ID], v)
				}
			}
		}
	}
	return users
}

// forwarding maps values a pass replaced to their replacements, which may
// themselves have been replaced.
type forwarding map[*Value]*Value

// find follows v's replacements to the value that stands for it now.
func (m forwarding) find(v *Value) *Value {
	for {
		r, ok := m[v]
		if !ok {
			return v
		}
		v = r
	}
}

// replaceUses rewrites every operand, branch condition and trap detail
// through find.
func replaceUses(f *Func, find func(*Value) *Value) {
	for _, b := range f.Blocks {
		replaceBlockUses(b, false, find)
	}
}

// replaceBlockUses rewrites b's operands, branch condition and trap
// details through find, leaving b's phis alone when skipPhis: the
// versioning passes' join, whose phis find adds (so the walk is then over
// a snapshot of b's values).
func replaceBlockUses(b *Block, skipPhis bool, find func(*Value) *Value) {
	values := b.Values
	if skipPhis {
		values = append([]*Value(nil), values...)
	}
	for _, v := range values {
		if skipPhis && v.Op == OpPhi {
			continue
		}
		for i, a := range v.Args {
			if a != nil {
				v.Args[i] = find(a)
			}
		}
	}
	if b.Cond != nil {
		b.Cond = find(b.Cond)
	}
	for i, a := range b.Trap.Args {
		if a != nil {
			b.Trap.Args[i] = find(a)
		}
	}
}

// dominanceFrontiers returns, by block index, the dominance frontier of
// each block (Cooper, Harvey and Kennedy's algorithm).
func dominanceFrontiers(f *Func, dom *DomTree) [][]*Block {
	df := make([][]*Block, len(f.Blocks))
	for _, b := range f.Blocks {
		if len(b.Preds) < 2 || !dom.reachable(b) {
			continue
		}
		for _, p := range b.Preds {
			if !dom.reachable(p) {
				continue
			}
			for r := p; r != dom.Idom(b); r = dom.Idom(r) {
				if containsBlock(df[r.Index], b) {
					break
				}
				df[r.Index] = append(df[r.Index], b)
				if dom.Idom(r) == r {
					break
				}
			}
		}
	}
	return df
}

func containsBlock(bs []*Block, b *Block) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}

// DeadCode deletes the values whose results nothing with an effect needs:
// unlike RemoveDead it also removes cycles of phis that only feed each
// other (what scalar replacement and unrolling leave).
func DeadCode(f *Func) {
	live := make([]bool, f.NumValues())
	var work []*Value
	mark := func(v *Value) {
		if v != nil && !live[v.ID] {
			live[v.ID] = true
			work = append(work, v)
		}
	}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if !pure(v) {
				mark(v)
			}
		}
		mark(b.Cond)
		for _, a := range b.Trap.Args {
			mark(a)
		}
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a := range v.Args {
			mark(a)
		}
	}
	for _, b := range f.Blocks {
		kept := b.Values[:0]
		for _, v := range b.Values {
			if live[v.ID] {
				kept = append(kept, v)
			}
		}
		b.Values = kept
	}
}
