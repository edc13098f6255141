package ownership

import (
	"go/token"
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/deviceapi"
)

// findOwners finds the package's struct types that own buffers: those with
// a Close, Free or Release method that frees some of their fields, directly
// or by closing a field of another owning type. It exports an OwnerFact for
// each.
func (c *checker) findOwners() {
	scope := c.pass.Pkg.Scope()
	var named []*types.TypeName
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if _, ok := tn.Type().Underlying().(*types.Struct); ok {
			named = append(named, tn)
		}
	}
	// Owners may hold owners: repeat until nothing new is found.
	for changed := true; changed; {
		changed = false
		for _, tn := range named {
			if c.owners[tn] != nil {
				continue
			}
			if f := c.ownerFact(tn); f != nil {
				c.owners[tn] = f
				changed = true
			}
		}
	}
	for _, tn := range named {
		if f := c.owners[tn]; f != nil {
			c.pass.ExportObjectFact(tn, f)
		}
	}
}

// ownerFact returns the OwnerFact of tn if one of its release methods frees
// fields of its receiver.
func (c *checker) ownerFact(tn *types.TypeName) *OwnerFact {
	mset := types.NewMethodSet(types.NewPointer(tn.Type()))
	for _, name := range closeMethods {
		sel := mset.Lookup(tn.Pkg(), name)
		if sel == nil {
			continue
		}
		m, ok := sel.Obj().(*types.Func)
		if !ok || len(sel.Index()) != 1 {
			continue // promoted from an embedded field
		}
		fn := c.ssa.Funcs[m]
		if fn == nil || len(fn.Params) == 0 {
			continue
		}
		fields := c.releasedFields(fn, fn.Params[0])
		if len(fields) > 0 {
			return &OwnerFact{Method: name, Fields: fields}
		}
	}
	return nil
}

// releasedFields returns the fields of recv that fn frees (or closes), in
// fn itself or in function literals it calls or defers.
func (c *checker) releasedFields(fn *ssa.Function, recv ssa.Value) []int {
	rf := &releaseFinder{c: c, fields: map[int]bool{}}
	// With debug references, go/ssa spills a value receiver into a local.
	isRecv := func(v ssa.Value) bool { return v == recv }
	rf.visit(fn, func(v ssa.Value) bool { return v == recv || isCellOf(v, isRecv) })
	var out []int
	for i := range rf.fields {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

// A releaseFinder collects the fields of a receiver that a release method
// frees.
type releaseFinder struct {
	c      *checker
	fields map[int]bool
}

// visit collects the fields that the calls of f free; recvOK reports
// whether a value of f is the receiver.
func (rf *releaseFinder) visit(f *ssa.Function, recvOK func(ssa.Value) bool) {
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				rf.call(call.Common(), recvOK)
			}
		}
	}
}

// call collects the fields of the receiver that one call frees, or that
// the function literal it calls frees.
func (rf *releaseFinder) call(common *ssa.CallCommon, recvOK func(ssa.Value) bool) {
	if mc, ok := common.Value.(*ssa.MakeClosure); ok {
		rf.closure(mc, recvOK)
		return
	}
	for _, j := range rf.c.freedArgs(common, 0) {
		if j >= len(common.Args) {
			continue
		}
		for _, v := range elements(common.Args[j]) {
			if i, ok := fieldOf(v, recvOK); ok {
				rf.fields[i] = true
			}
		}
	}
}

// closure visits a deferred or called literal that captures the receiver:
// inside it, the receiver is a load of a captured variable that holds it.
func (rf *releaseFinder) closure(mc *ssa.MakeClosure, recvOK func(ssa.Value) bool) {
	inner := mc.Fn.(*ssa.Function)
	var cells []ssa.Value
	for k, bnd := range mc.Bindings {
		if isCellOf(bnd, recvOK) && k < len(inner.FreeVars) {
			cells = append(cells, inner.FreeVars[k])
		}
	}
	if len(cells) > 0 {
		rf.visit(inner, func(v ssa.Value) bool {
			u, ok := v.(*ssa.UnOp)
			return ok && u.Op == token.MUL && slices.Contains(cells, u.X)
		})
	}
}

// isCellOf reports whether v is a local variable that holds the receiver.
func isCellOf(v ssa.Value, recvOK func(ssa.Value) bool) bool {
	a, ok := v.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, ref := range *a.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == a && recvOK(st.Val) {
			return true
		}
	}
	return false
}

// elements returns v, or for the slice of a call's variadic arguments, the
// values stored into it.
func elements(v ssa.Value) []ssa.Value {
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return []ssa.Value{v}
	}
	a, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return []ssa.Value{v}
	}
	var out []ssa.Value
	for _, ref := range *a.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, r2 := range *ia.Referrers() {
			if st, ok := r2.(*ssa.Store); ok && st.Addr == ia {
				out = append(out, st.Val)
			}
		}
	}
	return out
}

// freedArgs returns the arguments that a call frees or closes: the receiver
// of Free or of an owning type's release method, the parameters that a
// function of another package frees (its FuncFact), or those that a helper
// of this package frees itself (looked at up to a small depth).
func (c *checker) freedArgs(common *ssa.CallCommon, depth int) []int {
	callee := common.StaticCallee()
	obj := calleeObj(callee)
	if obj == nil {
		return nil
	}
	// The release method of an owning type releases its receiver, though
	// what it frees itself are the receiver's fields.
	if recv := obj.Signature().Recv(); recv != nil {
		if o, _ := c.ownerOf(recv.Type()); o != nil && o.Method == obj.Name() {
			return []int{0}
		}
	}
	if callee != nil && c.inPackage(callee) && depth < 3 {
		return c.freedParams(callee, depth+1)
	}
	if deviceapi.Func(obj) == deviceapi.Free {
		return []int{0}
	}
	var f FuncFact
	if obj.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(obj, &f) {
		return append(f.Frees, f.Takes...)
	}
	return nil
}

// fieldOf reports which field of the receiver v is read from: r.f, *r.f,
// r.f[i] (an element of a slice or array field, as in a range loop), r.f[k]
// or the value of a range loop over a map field.
func fieldOf(v ssa.Value, recvOK func(ssa.Value) bool) (int, bool) {
	for steps := 0; steps < 8; steps++ {
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return 0, false
			}
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Index:
			v = x.X
		case *ssa.Lookup:
			v = x.X
		case *ssa.Extract:
			// The value of a range loop over a map field.
			base := elementBase(x)
			if base == nil {
				return 0, false
			}
			v = base
		case *ssa.FieldAddr:
			if recvOK(x.X) || isLoadOf(x.X, recvOK) {
				return x.Field, true
			}
			return 0, false
		case *ssa.Field:
			if recvOK(x.X) || isLoadOf(x.X, recvOK) {
				return x.Field, true
			}
			return 0, false
		default:
			return 0, false
		}
	}
	return 0, false
}

func isLoadOf(v ssa.Value, recvOK func(ssa.Value) bool) bool {
	u, ok := v.(*ssa.UnOp)
	return ok && u.Op == token.MUL && recvOK(u.X)
}

// freedParams returns the parameters of fn (a function of this package)
// that it frees or closes, directly, element by element in a range loop, or
// through further helpers.
func (c *checker) freedParams(fn *ssa.Function, depth int) []int {
	set := map[int]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			common := call.Common()
			for _, j := range c.freedArgs(common, depth) {
				if j >= len(common.Args) {
					continue
				}
				for _, v := range elements(common.Args[j]) {
					if p := paramOf(fn, v); p >= 0 {
						set[p] = true
					}
				}
			}
		}
	}
	var out []int
	for p := range set {
		out = append(out, p)
	}
	sort.Ints(out)
	return out
}

// paramOf returns the index of the parameter of fn that v is, or is an
// element of (p, *p, p[i]), or -1.
func paramOf(fn *ssa.Function, v ssa.Value) int {
	for steps := 0; steps < 6; steps++ {
		switch x := v.(type) {
		case *ssa.Parameter:
			for i, p := range fn.Params {
				if p == x {
					return i
				}
			}
			return -1
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return -1
			}
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Index:
			v = x.X
		default:
			return -1
		}
	}
	return -1
}
