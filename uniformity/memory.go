package uniformity

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// memory models what loads see. Every store, atomic update and call of a
// device function that writes through a parameter is a store event on a root
// object: a local variable (*ssa.Alloc), a parameter (a kernel's slice is
// global memory), a block-shared variable (the *ssa.Call of gpu.Shared) or
// unknown (nil). A load is divergent when a divergent store event on its
// root may precede it: for a local variable any such store, and any atomic
// update of global memory (blocks communicate through those, and barriers do
// not order blocks); otherwise one that reaches the load with no barrier in
// between (after a barrier every thread of the block sees the same memory;
// the races check proves the rest).
type memory struct {
	f        *Func
	stores   []*storeEvent
	index    map[ssa.Instruction]int // position of each instruction in its block
	barriers [][]int                 // positions of barrier calls per block
	reached  map[[2]ssa.Instruction]bool
}

type storeEvent struct {
	instr ssa.Instruction
	root  ssa.Value // nil if unknown or not one object
	// roots are the objects the address may point into (several through a
	// φ of pointers, as for swapped buffers), nil if unknown.
	roots []ssa.Value
	what  string // "a store", "an atomic update", "a call of F"
	// crossBlock is true for an atomic update of global (or unknown)
	// memory: atomics are how blocks talk, and a barrier orders nothing
	// between blocks, so no barrier makes the value uniform.
	crossBlock bool
	d          Dep // what the stored values, addresses and control depend on
	// compute returns the event's current dependence.
	compute func() Dep
}

func newMemory(f *Func) *memory {
	m := &memory{f: f, index: map[ssa.Instruction]int{}, barriers: make([][]int, len(f.Fn.Blocks))}
	for _, b := range f.Fn.Blocks {
		for i, instr := range b.Instrs {
			m.index[instr] = i
			switch instr := instr.(type) {
			case *ssa.Store:
				m.stores = append(m.stores, &storeEvent{instr: instr, root: root(instr.Addr), roots: roots(instr.Addr), what: "a store",
					compute: func() Dep {
						return f.operand(instr, instr.Addr).join(f.operand(instr, instr.Val)).join(f.ctrl[b.Index])
					}})
			case *ssa.Call:
				callee := instr.Call.StaticCallee()
				k := gpuapi.Callee(callee)
				switch {
				case k.IsBarrier():
					m.barriers[b.Index] = append(m.barriers[b.Index], i)
				case k.IsAtomic() && len(instr.Call.Args) > 0:
					src := &Reason{What: "memory updated by " + k.String(), Pos: instr.Pos(), Param: -1}
					r := root(instr.Call.Args[0])
					_, shared := r.(*ssa.Call)
					_, local := r.(*ssa.Alloc)
					m.stores = append(m.stores, &storeEvent{instr: instr, root: r, roots: roots(instr.Call.Args[0]), what: "an atomic update", crossBlock: !shared && !local,
						compute: func() Dep { return Dep{Src: src} }})
				case f.callees[instr] != nil:
					s := f.callees[instr]
					for j, arg := range instr.Call.Args {
						if j >= len(s.Writes) || !s.Writes[j].Divergent() {
							continue
						}
						w := s.Writes[j]
						m.stores = append(m.stores, &storeEvent{instr: instr, root: root(arg), roots: roots(arg), what: "a call of " + calleeName(callee),
							compute: func() Dep { return f.resolve(instr, w).join(f.ctrl[b.Index]) }})
					}
				}
			}
		}
	}
	return m
}

// update recomputes the store events' dependences and reports a change.
func (m *memory) update() bool {
	changed := false
	for _, e := range m.stores {
		n := e.d.join(e.compute())
		if !e.d.covers(n) {
			e.d = n
			changed = true
		}
	}
	return changed
}

// loadDep is the dependence of the memory that addr points to, as seen by
// the instruction at (a load, or a call that passes addr on).
func (m *memory) loadDep(at ssa.Instruction, addr ssa.Value) Dep {
	r := root(addr)
	rs := roots(addr)
	var d Dep
	for _, e := range m.stores {
		if !e.d.Divergent() || e.instr == at {
			continue
		}
		if !mayShare(rs, e.roots) {
			continue // different objects: a store to one is no write to the other
		}
		if st, ok := e.instr.(*ssa.Store); ok && disjoint(st.Addr, addr) {
			continue
		}
		_, localR := r.(*ssa.Alloc)
		_, localE := e.root.(*ssa.Alloc)
		if localR || localE || e.crossBlock || m.reaches(e.instr, at) {
			d = d.join(e.reason())
		}
	}
	return d
}

func (e *storeEvent) reason() Dep {
	d := e.d
	if d.Src != nil && !strings.HasPrefix(d.Src.What, "memory ") {
		d.Src = &Reason{What: fmt.Sprintf("memory that threads write differently (%s)", e.what), Pos: e.instr.Pos(), Param: -1, Because: d.Src}
	}
	return d
}

// reaches reports whether a path leads from just after instruction from to
// just before instruction to without passing a barrier.
func (m *memory) reaches(from, to ssa.Instruction) bool {
	key := [2]ssa.Instruction{from, to}
	if r, ok := m.reached[key]; ok {
		return r
	}
	r := m.reach(from, to)
	if m.reached == nil {
		m.reached = map[[2]ssa.Instruction]bool{}
	}
	m.reached[key] = r
	return r
}

func (m *memory) reach(from, to ssa.Instruction) bool {
	fb, tb := from.Block(), to.Block()
	fi, ti := m.index[from], m.index[to]
	if fb == tb && fi < ti && !m.barrierBetween(fb, fi, ti) {
		return true
	}
	if m.barrierBetween(fb, fi, len(fb.Instrs)) {
		return false
	}
	seen := make([]bool, len(m.f.Fn.Blocks))
	work := append([]*ssa.BasicBlock(nil), fb.Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b.Index] {
			continue
		}
		seen[b.Index] = true
		if b == tb && !m.barrierBetween(b, -1, ti) {
			return true
		}
		if len(m.barriers[b.Index]) > 0 {
			continue
		}
		work = append(work, b.Succs...)
	}
	return false
}

func (m *memory) barrierBetween(b *ssa.BasicBlock, i, j int) bool {
	for _, k := range m.barriers[b.Index] {
		if i < k && k < j {
			return true
		}
	}
	return false
}

// root returns the object an address points into, or nil if unknown.
func root(v ssa.Value) ssa.Value { return rootN(v, 8) }

func rootN(v ssa.Value, phis int) ssa.Value {
	for range 100 {
		switch x := v.(type) {
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Slice:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.SliceToArrayPointer:
			v = x.X
		case *ssa.Phi:
			var r ssa.Value
			for i, e := range x.Edges {
				if e == x {
					continue
				}
				if phis == 0 {
					return nil
				}
				er := rootN(e, phis-1)
				if er == nil || (i > 0 && r != nil && er != r) {
					return nil
				}
				r = er
			}
			return r
		case *ssa.Alloc, *ssa.Parameter, *ssa.Global:
			return x
		case *ssa.Call:
			if gpuapi.Call(&x.Call) == gpuapi.Shared {
				return x
			}
			return nil
		default:
			return nil
		}
	}
	return nil
}

// roots returns the objects (as root returns them) that an address may
// point into, following every incoming value of a φ, or nil if one of them
// is unknown.
func roots(v ssa.Value) []ssa.Value {
	var out []ssa.Value
	seen := map[ssa.Value]bool{}
	work := []ssa.Value{v}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if len(seen) > 64 {
			return nil
		}
		switch y := x.(type) {
		case *ssa.IndexAddr:
			work = append(work, y.X)
		case *ssa.FieldAddr:
			work = append(work, y.X)
		case *ssa.Slice:
			work = append(work, y.X)
		case *ssa.ChangeType:
			work = append(work, y.X)
		case *ssa.SliceToArrayPointer:
			work = append(work, y.X)
		case *ssa.Phi:
			work = append(work, y.Edges...)
		case *ssa.Alloc, *ssa.Parameter, *ssa.Global:
			out = append(out, y)
		case *ssa.Call:
			if gpuapi.Call(&y.Call) != gpuapi.Shared {
				return nil
			}
			out = append(out, y)
		default:
			return nil
		}
	}
	return out
}

// mayShare reports whether two sets of roots (nil: unknown) may name one
// object.
func mayShare(a, b []ssa.Value) bool {
	if a == nil || b == nil {
		return true
	}
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// step is one step of an access path from a root object: a field, or an
// index (constant or not).
type step struct {
	field int // field index, or -1 for an index step
	index ssa.Value
	// shifted marks an index step below a re-slicing (x[i:][k]): its
	// constant is relative to an unknown offset.
	shifted bool
}

// path returns the root of an address and the steps from it to the
// address, or nil, nil when the address is not a chain of field and index
// steps from one object.
func path(v ssa.Value) (ssa.Value, []step) {
	var rev []step
	shifted := false
	for range 32 {
		switch x := v.(type) {
		case *ssa.IndexAddr:
			rev = append(rev, step{field: -1, index: x.Index})
			v = x.X
		case *ssa.FieldAddr:
			rev = append(rev, step{field: x.Field})
			v = x.X
		case *ssa.Slice:
			if x.Low != nil {
				if c, ok := x.Low.(*ssa.Const); !ok || c.Value == nil || c.Value.ExactString() != "0" {
					shifted = true
				}
			}
			if shifted && len(rev) > 0 {
				rev[len(rev)-1].shifted = true
			}
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.SliceToArrayPointer:
			v = x.X
		default:
			if r := root(v); r != nil && r == v {
				out := make([]step, len(rev))
				for i := range rev {
					out[i] = rev[len(rev)-1-i]
				}
				return r, out
			}
			return nil, nil
		}
	}
	return nil, nil
}

// disjoint reports whether two addresses provably name different memory:
// the same object reached through different fields, or different constant
// indices, at the same depth. The steps before that depth may be anything
// (two different fields of any elements of an array are different memory),
// since the addresses have the same types at each depth.
func disjoint(a, b ssa.Value) bool {
	ra, pa := path(a)
	rb, pb := path(b)
	if ra == nil || ra != rb {
		return distinct(a, b)
	}
	for i := 0; i < len(pa) && i < len(pb); i++ {
		x, y := pa[i], pb[i]
		switch {
		case x.field >= 0 && y.field >= 0:
			if x.field != y.field {
				return true
			}
		case x.field < 0 && y.field < 0 && !x.shifted && !y.shifted:
			cx, okx := x.index.(*ssa.Const)
			cy, oky := y.index.(*ssa.Const)
			if okx && oky && cx.Value != nil && cy.Value != nil && cx.Value.ExactString() != cy.Value.ExactString() {
				return true
			}
		}
	}
	return false
}

// distinct reports whether two addresses are provably different elements of
// one object: the same base indexed (or selected) by different constants.
// disjoint uses it for addresses that are not plain paths from a root.
func distinct(a, b ssa.Value) bool {
	for range 8 {
		switch x := a.(type) {
		case *ssa.IndexAddr:
			y, ok := b.(*ssa.IndexAddr)
			if !ok {
				return false
			}
			cx, okx := x.Index.(*ssa.Const)
			cy, oky := y.Index.(*ssa.Const)
			if okx && oky && cx.Value != nil && cy.Value != nil && cx.Value.ExactString() != cy.Value.ExactString() {
				return x.X == y.X || sameAddr(x.X, y.X)
			}
			if !sameIndex(x.Index, y.Index) {
				return false
			}
			a, b = x.X, y.X
		case *ssa.FieldAddr:
			y, ok := b.(*ssa.FieldAddr)
			if !ok {
				return false
			}
			if x.Field != y.Field {
				return x.X == y.X || sameAddr(x.X, y.X)
			}
			a, b = x.X, y.X
		default:
			return false
		}
	}
	return false
}

// sameAddr reports whether a and b compute the same address from the same
// base through the same constant steps.
func sameAddr(a, b ssa.Value) bool {
	for range 8 {
		if a == b {
			return true
		}
		switch x := a.(type) {
		case *ssa.IndexAddr:
			y, ok := b.(*ssa.IndexAddr)
			if !ok || !sameIndex(x.Index, y.Index) {
				return false
			}
			a, b = x.X, y.X
		case *ssa.FieldAddr:
			y, ok := b.(*ssa.FieldAddr)
			if !ok || x.Field != y.Field {
				return false
			}
			a, b = x.X, y.X
		default:
			return false
		}
	}
	return false
}

func sameIndex(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	ca, oka := a.(*ssa.Const)
	cb, okb := b.(*ssa.Const)
	return oka && okb && ca.Value != nil && cb.Value != nil && ca.Value.ExactString() == cb.Value.ExactString()
}
