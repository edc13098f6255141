package ownership

import (
	"go/token"
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/apitable"
	"github.com/gpukvet/gpukvet/internal/deviceapi"
)

func (fa *funcAnalysis) newResource(r *resource) *resource {
	r.id = len(fa.res)
	fa.res = append(fa.res, r)
	return r
}

// ownerOf returns the OwnerFact of t's named struct type (t or *t), or nil.
func (c *checker) ownerOf(t types.Type) (*OwnerFact, string) {
	n := apitable.Named(t)
	if n == nil {
		return nil, ""
	}
	tn := n.Origin().Obj()
	if f := c.owners[tn]; f != nil {
		return f, tn.Name()
	}
	if tn.Pkg() != nil && tn.Pkg() != c.pass.Pkg {
		var f OwnerFact
		if c.pass.ImportObjectFact(tn, &f) {
			return &f, tn.Name()
		}
	}
	return nil, ""
}

// tracked reports whether values of type t are followed: buffers and
// (pointers to) owning structs.
func (c *checker) tracked(t types.Type) bool {
	if isBuffer(t) || c.isBufferSlice(t) {
		return true
	}
	o, _ := c.ownerOf(t)
	return o != nil
}

func (fa *funcAnalysis) findResources() {
	fn := fa.fn
	for i, p := range fn.Params {
		if fa.c.tracked(p.Type()) {
			r := fa.newResource(&resource{param: i, name: p.Name(), pos: p.Pos(), coll: fa.c.isBufferSlice(p.Type()),
				elemFields: fa.c.bufferPaths(collElemType(p.Type()))})
			r.owner, r.tname = fa.c.ownerOf(p.Type())
			fa.alias[p] = []int{r.id}
		}
	}
	for i, fv := range fn.FreeVars {
		t := fv.Type()
		if fa.c.tracked(t) {
			// Captured by value, as the receiver of a method value.
			r := fa.newResource(&resource{param: i, freeVar: true, name: fv.Name(), pos: fv.Pos(), coll: fa.c.isBufferSlice(t),
				elemFields: fa.c.bufferPaths(collElemType(t))})
			r.owner, r.tname = fa.c.ownerOf(t)
			fa.alias[fv] = []int{r.id}
		} else if p, ok := types.Unalias(t).(*types.Pointer); ok && fa.c.tracked(p.Elem()) {
			r := fa.newResource(&resource{param: i, freeVar: true, name: fv.Name(), pos: fv.Pos(), coll: fa.c.isBufferSlice(p.Elem()),
				elemFields: fa.c.bufferPaths(collElemType(p.Elem()))})
			r.owner, r.tname = fa.c.ownerOf(p.Elem())
			fa.cells[fv] = true
			fa.contents[fv] = []int{r.id}
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Call:
				fa.findCreated(instr)
			case *ssa.Alloc:
				if o, name := fa.c.ownerOf(instr.Type()); o != nil && !fa.isOwnType(instr) {
					r := fa.newResource(&resource{param: -1, owner: o, tname: name, alloc: instr,
						pos: instr.Pos(), from: allocOrigin(instr, name), name: fa.varName(instr)})
					fa.alias[instr] = []int{r.id}
					fa.created[instr] = []int{r.id}
				} else if fa.isCell(instr) && !bufferArray(instr) {
					fa.cells[instr] = true
				}
			}
		}
	}
}

// isOwnType reports whether alloc holds the receiver inside the owning
// type's own methods, where it is not a new value to close.
func (fa *funcAnalysis) isOwnType(a *ssa.Alloc) bool {
	recv := fa.fn.Signature.Recv()
	if recv == nil {
		return false
	}
	return apitable.Named(recv.Type()) != nil && apitable.Named(a.Type()) != nil &&
		apitable.Named(recv.Type()).Origin() == apitable.Named(a.Type()).Origin()
}

// findCreated records the resources that a call creates: buffers from
// device.Alloc and device.Upload, and the new results of functions whose
// summary or fact says so.
func (fa *funcAnalysis) findCreated(call *ssa.Call) {
	common := call.Common()
	obj := calleeObj(common.StaticCallee())
	var results uint64
	var from string
	switch {
	case deviceapi.Func(obj).NewBuffer():
		results, from = 1, "device."+obj.Name()
	case obj != nil:
		sum := fa.c.summaryOf(common)
		if sum == nil || sum.returns == 0 {
			return
		}
		results = sum.returns
		from = obj.Name()
		if obj.Pkg() != nil && obj.Pkg() != fa.c.pass.Pkg {
			from = obj.Pkg().Name() + "." + from
		}
		if recv := obj.Signature().Recv(); recv != nil {
			if n := apitable.Named(recv.Type()); n != nil {
				from = n.Obj().Name() + "." + obj.Name()
			}
		}
	default:
		return
	}
	// One resource per new result, whether or not the caller keeps it (a
	// result assigned to _ leaks at once).
	tuple, isTuple := call.Type().(*types.Tuple)
	n := 1
	if isTuple {
		n = tuple.Len()
	}
	for k := 0; k < n && k < 64; k++ {
		if results&(1<<k) == 0 {
			continue
		}
		var v ssa.Value = call
		if isTuple {
			v = nil
			for _, ref := range *call.Referrers() {
				if ex, ok := ref.(*ssa.Extract); ok && ex.Index == k {
					v = ex
				}
			}
		}
		r := fa.newResource(&resource{param: -1, pos: call.Pos(), from: from, result: k})
		if v != nil {
			r.name = fa.varName(v)
			r.coll = fa.c.isBufferSlice(v.Type())
			r.owner, r.tname = fa.c.ownerOf(v.Type())
			fa.alias[v] = []int{r.id}
		} else if isTuple {
			r.owner, r.tname = fa.c.ownerOf(tuple.At(k).Type())
		}
		fa.created[call] = append(fa.created[call], r.id)
	}
}

// varName returns the name of the source variable v is assigned to, if any.
func (fa *funcAnalysis) varName(v ssa.Value) string {
	refs := v.Referrers()
	if refs == nil {
		return ""
	}
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
			if ref.X == v && !ref.IsAddr {
				if obj, ok := ref.Object().(*types.Var); ok && obj != nil {
					return obj.Name()
				}
			}
		case *ssa.Store:
			if ref.Val == v {
				if a, ok := ref.Addr.(*ssa.Alloc); ok && a.Comment != "" && fa.isCellName(a.Comment) {
					return a.Comment
				}
			}
		}
	}
	if a, ok := v.(*ssa.Alloc); ok && fa.isCellName(a.Comment) {
		return a.Comment
	}
	return ""
}

func (fa *funcAnalysis) isCellName(s string) bool {
	switch s {
	case "", "complit", "varargs", "slicelit", "new", "makeslice":
		return false
	}
	return token.IsIdentifier(s)
}

// isCell reports whether a local allocation only holds values: every use
// stores into it, loads from it, slices it for a call, indexes it, or
// captures it in a function literal.
func (fa *funcAnalysis) isCell(a *ssa.Alloc) bool {
	var ok func(v ssa.Value, depth int) bool
	ok = func(v ssa.Value, depth int) bool {
		refs := v.Referrers()
		if refs == nil {
			return true
		}
		for _, ref := range *refs {
			switch ref := ref.(type) {
			case *ssa.DebugRef:
			case *ssa.Store:
				if ref.Val == v {
					return false
				}
			case *ssa.UnOp:
				if ref.Op != token.MUL {
					return false
				}
			case *ssa.MakeClosure:
			case *ssa.IndexAddr, *ssa.FieldAddr:
				if depth > 0 || !ok(ref.(ssa.Value), depth+1) {
					return false
				}
			case *ssa.Slice:
				for _, r2 := range *ref.Referrers() {
					switch r2 := r2.(type) {
					case *ssa.DebugRef:
					case ssa.CallInstruction:
						if r2.Common().Value == ref {
							return false
						}
					default:
						return false
					}
				}
			default:
				return false
			}
		}
		return true
	}
	return ok(a, 0)
}

// cellOf returns the cell that addr points into, or nil.
func (fa *funcAnalysis) cellOf(addr ssa.Value) ssa.Value {
	switch a := addr.(type) {
	case *ssa.IndexAddr:
		addr = a.X
	case *ssa.FieldAddr:
		addr = a.X
	}
	if fa.cells[addr] {
		return addr
	}
	return nil
}

// computeAliases finds, for every value, the resources it may refer to.
func (fa *funcAnalysis) computeAliases() {
	for changed := true; changed; {
		changed = false
		add := func(v ssa.Value, ids []int) {
			if len(ids) == 0 {
				return
			}
			if u, c := union(fa.alias[v], ids); c {
				fa.alias[v] = u
				changed = true
			}
		}
		for _, b := range fa.fn.Blocks {
			for _, instr := range b.Instrs {
				switch v := instr.(type) {
				case *ssa.Phi:
					for _, e := range v.Edges {
						add(v, fa.alias[e])
					}
				case *ssa.ChangeType:
					add(v, fa.alias[v.X])
				case *ssa.MakeInterface:
					add(v, fa.alias[v.X])
				case *ssa.ChangeInterface:
					add(v, fa.alias[v.X])
				case *ssa.TypeAssert:
					if !v.CommaOk {
						add(v, fa.alias[v.X])
					}
				case *ssa.Extract:
					if ta, ok := v.Tuple.(*ssa.TypeAssert); ok && v.Index == 0 {
						add(v, fa.alias[ta.X])
					}
				case *ssa.Store:
					if f, ok := v.Addr.(*ssa.FieldAddr); ok && fa.literalHolder(f.X) {
						add(f.X, fa.alias[v.Val]) // `&plan{in: in}` carries in
					}
					if cell := fa.cellOf(v.Addr); cell != nil {
						if u, c := union(fa.contents[cell], fa.alias[v.Val]); c {
							fa.contents[cell] = u
							changed = true
						}
						// Field by field: a struct in a local variable.
						if f, ok := v.Addr.(*ssa.FieldAddr); ok {
							changed = addField(fa.cellFields, cell, f.Field, fa.alias[v.Val]) || changed
						} else if v.Addr == cell {
							for f, ids := range fa.structFields[v.Val] {
								changed = addField(fa.cellFields, cell, f, ids) || changed
							}
						}
					}
				case *ssa.UnOp:
					if v.Op != token.MUL {
						continue
					}
					if cell := fa.cellOf(v.X); cell != nil {
						if st := fa.reachingStore(v, v.X); st != nil {
							add(v, fa.alias[st.Val])
							for f, ids := range fa.structFields[st.Val] {
								changed = addField(fa.structFields, v, f, ids) || changed
							}
						} else if f, ok := v.X.(*ssa.FieldAddr); ok && fa.isStructCell(cell) {
							add(v, fa.cellFields[cell][f.Field])
						} else {
							add(v, fa.ofKind(v.Type(), fa.contents[cell]))
						}
						if v.X == cell {
							for f, ids := range fa.cellFields[cell] {
								changed = addField(fa.structFields, v, f, ids) || changed
							}
						}
						if fa.c.holdsBuffers(v.Type()) {
							add(v, fa.structContents(v)) // a plain struct carries its buffers
						}
					} else if a, ok := v.X.(*ssa.Alloc); ok && bufferArray(a) {
						add(v, fa.collIDs(fa.alias[a])) // the array's value: `range bufs`
					} else if st := fa.reachingElemStore(v); st != nil {
						add(v, fa.alias[st.Val]) // `ws[0]` just after `ws[0], err = device.Alloc(...)`
					} else if ids := fa.alias[v.X]; len(ids) > 0 && fa.isOwnerAlloc(v.X) {
						add(v, ids) // a copy of a struct value of an owning type
					} else if fa.fields[v] == nil {
						if f, ok := v.X.(*ssa.FieldAddr); ok && fa.ownedField(f.X, f.Field) {
							fa.fields[v] = fa.alias[f.X]
						}
					}
				case *ssa.Field:
					if fa.fields[v] == nil && fa.ownedField(v.X, v.Field) {
						fa.fields[v] = fa.alias[v.X]
					}
					add(v, fa.structFields[v.X][v.Field])
				case *ssa.Slice:
					if fa.cells[v.X] {
						add(v, fa.contents[v.X])
					} else {
						add(v, fa.collIDs(fa.alias[v.X]))
					}
				case *ssa.Call:
					if bi, ok := v.Call.Value.(*ssa.Builtin); ok && bi.Name() == "append" && len(v.Call.Args) > 0 {
						add(v, fa.collIDs(fa.alias[v.Call.Args[0]]))
					}
				}
			}
		}
	}
}

// addField adds ids to m[v][f] and reports whether that changed it.
func addField(m map[ssa.Value]map[int][]int, v ssa.Value, f int, ids []int) bool {
	if len(ids) == 0 {
		return false
	}
	if m[v] == nil {
		m[v] = map[int][]int{}
	}
	u, c := union(m[v][f], ids)
	m[v][f] = u
	return c
}

// isStructCell reports whether a cell is a local variable of struct type,
// whose fields are followed one by one.
func (fa *funcAnalysis) isStructCell(cell ssa.Value) bool {
	p, ok := types.Unalias(cell.Type()).(*types.Pointer)
	if !ok {
		return false
	}
	_, ok = p.Elem().Underlying().(*types.Struct)
	return ok
}

// ofKind keeps the resources that a value of type t can be: buffers for a
// buffer, structs for a struct of an owning type, any for an interface
// (a field of a cell that holds a struct is not the struct).
func (fa *funcAnalysis) ofKind(t types.Type, ids []int) []int {
	if types.IsInterface(t) {
		return ids
	}
	if !fa.c.tracked(t) {
		return nil
	}
	buf, coll := isBuffer(t), fa.c.isBufferSlice(t)
	var out []int
	for _, id := range ids {
		r := fa.res[id]
		if r.coll == coll && (coll || (r.owner == nil) == buf) {
			out = append(out, id)
		}
	}
	return out
}

// ownedField reports whether field i of x (a struct of an owning type, or a
// pointer to one) is one its release method frees.
func (fa *funcAnalysis) ownedField(x ssa.Value, i int) bool {
	o, _ := fa.c.ownerOf(x.Type())
	if o == nil {
		return false
	}
	for _, f := range o.Fields {
		if f == i {
			return true
		}
	}
	return false
}

func (fa *funcAnalysis) isOwnerAlloc(v ssa.Value) bool {
	a, ok := v.(*ssa.Alloc)
	if !ok {
		return false
	}
	ids := fa.created[a]
	return len(ids) == 1 && fa.res[ids[0]].owner != nil
}

// reachingStore returns the store to addr that a load certainly sees: the
// last one before it in its block, or in the chain of single predecessors.
func (fa *funcAnalysis) reachingStore(load ssa.Instruction, addr ssa.Value) *ssa.Store {
	return storeBefore(load, func(st *ssa.Store) (hit, stop bool) { return st.Addr == addr, false })
}

// storeBefore walks back from load through its block and the chain of
// single predecessors (64 blocks at most) and returns the first store
// match accepts, or nil where match says stop, at a call of a function
// literal (which may store into what it captures) or at a join.
func storeBefore(load ssa.Instruction, match func(*ssa.Store) (hit, stop bool)) *ssa.Store {
	b := load.Block()
	instrs := b.Instrs[:slices.Index(b.Instrs, load)]
	for steps := 0; steps < 64; steps++ {
		for i := len(instrs) - 1; i >= 0; i-- {
			switch in := instrs[i].(type) {
			case *ssa.Store:
				hit, stop := match(in)
				if hit {
					return in
				}
				if stop {
					return nil
				}
			case ssa.CallInstruction:
				if _, ok := in.Common().Value.(*ssa.MakeClosure); ok {
					return nil
				}
			}
		}
		if len(b.Preds) != 1 {
			return nil
		}
		b = b.Preds[0]
		instrs = b.Instrs
	}
	return nil
}

func union(a, b []int) ([]int, bool) {
	changed := false
	for _, x := range b {
		found := false
		for _, y := range a {
			if x == y {
				found = true
				break
			}
		}
		if !found {
			a = append(a, x)
			changed = true
		}
	}
	if changed {
		sort.Ints(a)
	}
	return a, changed
}

// fieldUses returns the structs of an owning type whose owned field v (or,
// for a variadic slice, one of its elements) was read from.
func (fa *funcAnalysis) fieldUses(v ssa.Value) []int {
	if sl, ok := v.(*ssa.Slice); ok && fa.cells[sl.X] {
		var ids []int
		for _, ref := range *sl.X.Referrers() {
			ia, ok := ref.(*ssa.IndexAddr)
			if !ok {
				continue
			}
			for _, r2 := range *ia.Referrers() {
				if st, ok := r2.(*ssa.Store); ok && st.Addr == ia {
					val := st.Val
					if mi, ok := val.(*ssa.MakeInterface); ok {
						val = mi.X
					}
					ids, _ = union(ids, fa.fields[val])
				}
			}
		}
		return ids
	}
	return fa.fields[v]
}

// argAliases returns the resources an argument may carry, looking into the
// variadic slice of a call.
func (fa *funcAnalysis) argAliases(v ssa.Value) []int {
	ids := fa.alias[v]
	if phi, ok := v.(*ssa.Phi); ok && fa.cur != nil && len(ids) > 0 {
		var keep []int
		for _, id := range ids {
			if !fa.staleIn(phi, id, fa.cur) {
				keep = append(keep, id)
			}
		}
		ids = keep
	}
	return ids
}

// creator returns the instruction that creates resource id, or nil.
func (fa *funcAnalysis) creator(id int) ssa.Instruction {
	if fa.createdBy == nil {
		fa.createdBy = map[int]ssa.Instruction{}
		for instr, ids := range fa.created {
			for _, r := range ids {
				fa.createdBy[r] = instr
			}
		}
	}
	return fa.createdBy[id]
}

// staleIn reports whether the φ phi, used at instruction at, can only hold
// an earlier instance of resource id than the one the flow state tracks:
// phi's block dominates the instruction c that creates id (so phi was
// evaluated before c in the same pass through a loop) and c dominates at
// (so c ran again after phi was evaluated). `prev.Free()` of the previous
// iteration's buffer after this iteration allocates the next one is then
// not a Free of the new one.
func (fa *funcAnalysis) staleIn(phi *ssa.Phi, id int, at ssa.Instruction) bool {
	c := fa.creator(id)
	if c == nil || c.Block() == nil || at.Block() == nil {
		return false
	}
	h := phi.Block()
	if h == c.Block() || !h.Dominates(c.Block()) {
		return false
	}
	if c.Block() == at.Block() {
		for _, instr := range c.Block().Instrs {
			if instr == c {
				return true
			}
			if instr == at {
				return false
			}
		}
		return false
	}
	return c.Block().Dominates(at.Block())
}
