package twothread

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// An Object is a memory object that threads share: a gpu.Shared variable
// (one per Shared call expression, per block) or a slice parameter of the
// kernel (global memory). Different slice parameters are assumed not to
// alias.
type Object struct {
	shared token.Pos // position of the Shared call; NoPos for a parameter
	param  int       // index of the kernel parameter, for global memory
}

// Global reports whether o is global memory (a slice parameter), which
// threads of different blocks share too.
func (o Object) Global() bool { return o.shared == token.NoPos }

// A valRef is an SSA value in a frame.
type valRef struct {
	fr *frame
	v  ssa.Value
}

// A comp is one index of an element path: the sum of values plus a
// constant, with 0 ≤ comp < bound when the bound is known.
type comp struct {
	terms    []valRef
	k        int64
	n        int64 // array length bound; 0 if none
	lenParam int   // kernel parameter whose length bounds it; -1 if none
	// highs are the ends of the subslices the index goes through, in the
	// root's index space: the index is below each (it traps otherwise).
	highs []bound
	// lows are the starts of the subslices the index goes through, in the
	// root's index space: the index is at or above each (a negative index
	// into a subslice traps).
	lows  []bound
	any   bool   // the access touches every element (whole-array copy)
	field bool   // a struct field selector (k is the field index)
	fname string // the field's name, for messages
}

// An Access is a load, store or atomic operation on shared or global
// memory, at one instruction of one inlined frame.
type Access struct {
	node   *node
	instr  ssa.Instruction
	root   Object
	comps  []comp
	write  bool
	atomic bool
	pos    token.Pos
	via    *ssa.Phi // the swap phi the address goes through (phigroup.go)
	viaAt  *node    // the node of that phi

	aff     []affine // the affine form of each index, if any (prefilter.go)
	affDone bool
}

// Accesses returns the kernel's accesses, in the order of its graph.
func (k *Kernel) Accesses() []*Access { return k.accesses }

// Object returns the memory object a touches.
func (a *Access) Object() Object { return a.root }

// Write reports whether a writes (a store or an atomic update).
func (a *Access) Write() bool { return a.write }

// Atomic reports whether a is an atomic update.
func (a *Access) Atomic() bool { return a.atomic }

// Pos returns the position of a itself, in the kernel or in the device
// function that holds it.
func (a *Access) Pos() token.Pos { return a.pos }

// KernelPos returns the position in the kernel itself where a happens:
// its own position, or that of the call into the device function holding
// it.
func (a *Access) KernelPos() token.Pos {
	pos := a.pos
	for fr := a.node.fr; fr.parent != nil; fr = fr.parent {
		if fr.call.Pos().IsValid() {
			pos = fr.call.Pos()
		}
	}
	return pos
}

// DeviceFunc returns the device function, inlined into the kernel, that
// holds a, or nil when the kernel itself does.
func (a *Access) DeviceFunc() *ssa.Function {
	if fr := a.node.fr; fr.parent != nil {
		return fr.fn
	}
	return nil
}

// collectAccesses finds the memory accesses of every node.
func (k *Kernel) collectAccesses() {
	for _, n := range k.g.nodes {
		for _, in := range n.instrs {
			var addr ssa.Value
			var write, atomic bool
			switch in := in.(type) {
			case *ssa.Store:
				addr, write = in.Addr, true
			case *ssa.UnOp:
				if in.Op == token.MUL {
					addr = in.X
				}
			case *ssa.Call:
				if gpuapi.Call(&in.Call).IsAtomic() && len(in.Call.Args) > 0 {
					addr, write, atomic = in.Call.Args[0], true, true
				}
			}
			if addr == nil {
				continue
			}
			pos := addr.Pos()
			if !pos.IsValid() {
				pos = in.Pos()
			}
			if !pos.IsValid() && n.fr.call != nil {
				pos = n.fr.call.Pos()
			}
			add := func(root Object, comps []comp, via *ssa.Phi) {
				if elem, ok := addr.Type().Underlying().(*types.Pointer); ok {
					if _, isArr := elem.Elem().Underlying().(*types.Array); isArr {
						comps = append(comps, comp{any: true, lenParam: -1})
					}
				}
				a := &Access{node: n, instr: in, root: root, comps: comps,
					write: write, atomic: atomic, pos: pos}
				if via != nil {
					a.via, a.viaAt = via, n.fr.nodeOf[via]
				}
				k.accesses = append(k.accesses, a)
				if write {
					k.written[root] = true
				}
			}
			if root, comps, ok := k.resolveAddr(n.fr, addr); ok {
				add(root, comps, nil)
				continue
			}
			// Through a pointer-swap phi: one access per array it may name.
			phi := swapPhiOf(addr)
			if phi == nil || n.fr.nodeOf[phi] == nil {
				continue
			}
			roots, ok := k.swapGroup(n.fr, phi)
			if !ok {
				continue
			}
			if k.phiPick == nil {
				k.phiPick = map[*ssa.Phi]Object{}
			}
			for _, r := range roots {
				k.phiPick[phi] = r
				root, comps, ok := k.resolveAddr(n.fr, addr)
				delete(k.phiPick, phi)
				if ok {
					add(root, comps, phi)
				}
			}
		}
	}
}

// A bound is the value of a sum of terms plus k.
type bound struct {
	terms []valRef
	k     int64
}

// resolveAddr returns the object and element path that the pointer v (in
// frame fr) designates.
func (k *Kernel) resolveAddr(fr *frame, v ssa.Value) (Object, []comp, bool) {
	switch v := v.(type) {
	case *ssa.IndexAddr:
		root, pre, off, ok := k.resolveSeq(fr, v.X)
		if !ok {
			return Object{}, nil, false
		}
		c := off
		c.terms = append(append([]valRef(nil), off.terms...), valRef{fr, v.Index})
		return root, append(append([]comp(nil), pre...), c), true
	case *ssa.FieldAddr:
		root, comps, ok := k.resolveAddr(fr, v.X)
		if !ok {
			return Object{}, nil, false
		}
		c := comp{k: int64(v.Field), field: true, lenParam: -1}
		if pt, ok := v.X.Type().Underlying().(*types.Pointer); ok {
			if st, ok := pt.Elem().Underlying().(*types.Struct); ok && v.Field < st.NumFields() {
				c.fname = st.Field(v.Field).Name()
			}
		}
		return root, append(append([]comp(nil), comps...), c), true
	case *ssa.Parameter:
		if a, pfr, ok := argOf(fr, v); ok {
			return k.resolveAddr(pfr, a)
		}
	case *ssa.Call:
		if gpuapi.Call(&v.Call) == gpuapi.Shared {
			k.noteShared(v)
			return Object{shared: v.Pos()}, nil, true
		}
		if r, rfr, ok := returnedValue(fr, v); ok {
			return k.resolveAddr(rfr, r)
		}
	case *ssa.Phi:
		if r, ok := k.phiPick[v]; ok {
			return r, nil, true
		}
		// A pointer that is the same whole object on every incoming edge
		// (p = s on one path, p = helper(s) on another) is that object.
		var root Object
		found := false
		for _, e := range v.Edges {
			if e == v {
				continue
			}
			if _, isPhi := e.(*ssa.Phi); isPhi {
				return Object{}, nil, false
			}
			r, comps, ok := k.resolveAddr(fr, e)
			if !ok || len(comps) > 0 || found && r != root {
				return Object{}, nil, false
			}
			root, found = r, true
		}
		if found {
			return root, nil, true
		}
	}
	return Object{}, nil, false
}

// returnedValue returns the one value that the inlined device function
// called by c returns (a pointer to a Shared variable, a subslice of a
// parameter), in the callee's frame. With several returns it answers only
// when they all return the same value.
func returnedValue(fr *frame, c *ssa.Call) (ssa.Value, *frame, bool) {
	callee := fr.calls[c]
	if callee == nil {
		return nil, nil, false
	}
	var res ssa.Value
	for _, b := range callee.fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(r.Results) != 1 || res != nil && r.Results[0] != res {
			return nil, nil, false
		}
		res = r.Results[0]
	}
	return res, callee, res != nil
}

// resolveSeq resolves a slice or array pointer v, whose elements are
// indexed by off + i.
func (k *Kernel) resolveSeq(fr *frame, v ssa.Value) (Object, []comp, comp, bool) {
	switch t := v.Type().Underlying().(type) {
	case *types.Pointer:
		root, comps, ok := k.resolveAddr(fr, v)
		var n int64
		if arr, isArr := t.Elem().Underlying().(*types.Array); isArr {
			n = arr.Len()
		}
		return root, comps, comp{n: n, lenParam: -1}, ok
	case *types.Slice:
		switch v := v.(type) {
		case *ssa.Slice:
			root, pre, off, ok := k.resolveSeq(fr, v.X)
			if ok && v.High != nil {
				// off + Low + j < off + High, for j < High − Low.
				off.highs = append(slices.Clip(off.highs), bound{append(slices.Clip(off.terms), valRef{fr, v.High}), off.k})
			}
			if ok && v.Low != nil {
				off.terms = append(append([]valRef(nil), off.terms...), valRef{fr, v.Low})
				off.lows = append(slices.Clip(off.lows), bound{slices.Clip(off.terms), off.k})
			}
			return root, pre, off, ok
		case *ssa.Call:
			if r, rfr, ok := returnedValue(fr, v); ok {
				return k.resolveSeq(rfr, r)
			}
		case *ssa.Parameter:
			if a, pfr, ok := argOf(fr, v); ok {
				return k.resolveSeq(pfr, a)
			}
			if fr.parent == nil {
				for i, p := range fr.fn.Params {
					if p == v {
						k.params[i] = p.Name()
						return Object{param: i}, nil, comp{lenParam: i}, true
					}
				}
			}
		}
	}
	return Object{}, nil, comp{}, false
}

// argOf returns the argument bound to parameter p of an inlined frame.
func argOf(fr *frame, p *ssa.Parameter) (ssa.Value, *frame, bool) {
	if fr.parent == nil {
		return nil, nil, false
	}
	for i, q := range fr.fn.Params {
		if q == p && i < len(fr.call.Call.Args) {
			return fr.call.Call.Args[i], fr.parent, true
		}
	}
	return nil, nil, false
}

// noteShared records the source name of a Shared variable for messages.
func (k *Kernel) noteShared(c *ssa.Call) {
	if _, ok := k.sharedNames[c.Pos()]; ok {
		return
	}
	// The first name bound to it (its declaration), not a later alias
	// such as src in src, dst := a, b.
	name := ""
	for _, b := range c.Parent().Blocks {
		for _, in := range b.Instrs {
			if ref, ok := in.(*ssa.DebugRef); ok && ref.X == c && name == "" {
				if obj := ref.Object(); obj != nil {
					name = obj.Name()
				}
			}
		}
	}
	if name == "" {
		name = "shared variable"
	}
	k.sharedNames[c.Pos()] = name
}

// ObjectName returns the source name of object o: the variable a Shared
// call is first bound to, or the slice parameter.
func (k *Kernel) ObjectName(o Object) string {
	if o.Global() {
		return k.params[o.param]
	}
	return k.sharedNames[o.shared]
}

// localStore returns the one value stored into local variable alloc, when
// alloc is only ever stored whole once and otherwise read (a struct such
// as g := t.GlobalIdx(), which SSA keeps in memory when its fields are
// read).
func localStore(alloc *ssa.Alloc) (ssa.Value, bool) {
	if alloc.Heap {
		return nil, false
	}
	var val ssa.Value
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != alloc || val != nil {
				return nil, false
			}
			val = r.Val
		case *ssa.FieldAddr:
			for _, rr := range *r.Referrers() {
				if u, ok := rr.(*ssa.UnOp); !ok || u.Op != token.MUL {
					if _, dbg := rr.(*ssa.DebugRef); !dbg {
						return nil, false
					}
				}
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil, false
			}
		case *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return val, val != nil
}

// localValue returns the value that load u reads from a local variable
// written once.
func localValue(u *ssa.UnOp) (ssa.Value, bool) {
	alloc, ok := u.X.(*ssa.Alloc)
	if !ok || u.Op != token.MUL {
		return nil, false
	}
	return localStore(alloc)
}

// localField returns the stored struct value and field index that load u
// reads from a local variable written once.
func localField(u *ssa.UnOp) (ssa.Value, int, bool) {
	fa, ok := u.X.(*ssa.FieldAddr)
	if !ok || u.Op != token.MUL {
		return nil, 0, false
	}
	alloc, ok := fa.X.(*ssa.Alloc)
	if !ok {
		return nil, 0, false
	}
	val, ok := localStore(alloc)
	return val, fa.Field, ok
}
