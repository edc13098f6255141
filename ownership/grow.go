package ownership

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/deviceapi"
)

// Buffer fields of structs without a release method, overwritten after the
// function found them holding a buffer (a "grow if too small" helper:
// `if w.buf != nil && w.buf.Len() >= n { return nil }; w.buf = bigger`).
// Such a struct is not tracked as an owner (owner.go), so fields.go does
// not follow it. Two facts together make the store lose a buffer:
//   - the package frees buffers through that field (`w.buf.Free()`
//     somewhere, a deferred literal included): the field owns its buffer,
//     it does not merely refer to one;
//   - on some path to the store the function found the field non-nil and,
//     since, neither read it in a way that may free or hand it on (a Free,
//     a copy, an argument of a call other than Launch) nor passed the
//     struct to anything that may release it.
// A function that stores without looking at the field (an initializer)
// is not told: it does not know whether the field held a buffer.

// fieldKey is a buffer field of one struct pointer (or variable) of the
// function: w.buf.
type fieldKey struct {
	x ssa.Value
	f int
}

// growScan is the forward scan of one function for buffer fields known to
// hold a buffer (one bit per fieldKey).
type growScan struct {
	fa   *funcAnalysis
	keys map[fieldKey]int
	in   map[*ssa.BasicBlock]uint64
}

// checkGrownFields reports the stores into buffer fields of structs
// without a release method that lose the buffer the function found there.
func (fa *funcAnalysis) checkGrownFields() {
	g := &growScan{fa: fa, keys: map[fieldKey]int{}, in: map[*ssa.BasicBlock]uint64{}}
	g.findKeys()
	if len(g.keys) == 0 {
		return
	}
	entry := fa.fn.Blocks[0]
	g.in[entry] = 0
	work := []*ssa.BasicBlock{entry}
	for len(work) > 0 {
		b := work[0]
		work = work[1:]
		for to, held := range g.block(b, false) {
			if old, ok := g.in[to]; !ok || old|held != old {
				g.in[to] = old | held
				work = append(work, to)
			}
		}
	}
	for _, b := range fa.fn.Blocks {
		if _, ok := g.in[b]; ok {
			g.block(b, true)
		}
	}
}

// findKeys numbers the fields the function tests against nil that hold
// buffers the package frees through the field.
func (g *growScan) findKeys() {
	for _, b := range g.fa.fn.Blocks {
		if k, ok := g.nilTest(b); ok && len(g.keys) < 64 {
			if _, seen := g.keys[k]; !seen {
				g.keys[k] = len(g.keys)
			}
		}
	}
}

// nilTest returns the field that block b's branch compares with nil.
func (g *growScan) nilTest(b *ssa.BasicBlock) (fieldKey, bool) {
	if len(b.Instrs) == 0 {
		return fieldKey{}, false
	}
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return fieldKey{}, false
	}
	bin, ok := cond.Cond.(*ssa.BinOp)
	if !ok || (bin.Op != token.EQL && bin.Op != token.NEQ) {
		return fieldKey{}, false
	}
	x := bin.X
	if isNilConst(x) {
		x = bin.Y
	} else if !isNilConst(bin.Y) {
		return fieldKey{}, false
	}
	return g.loadedField(x)
}

// loadedField returns the field v is a load of, if it is one the package
// frees buffers through and no owning type's tracking covers.
func (g *growScan) loadedField(v ssa.Value) (fieldKey, bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return fieldKey{}, false
	}
	return g.field(load.X)
}

// field returns the key of the field addr addresses, as loadedField.
func (g *growScan) field(addr ssa.Value) (fieldKey, bool) {
	f, ok := addr.(*ssa.FieldAddr)
	if !ok || !isBuffer(fieldType(f)) || fieldVar(f) == nil || g.fa.ownedField(f.X, f.Field) || !g.fa.c.freedThrough()[fieldVar(f)] {
		return fieldKey{}, false
	}
	return fieldKey{f.X, f.Field}, true
}

// bitOf returns the bit of field k in the scan's state, or 0 for a field
// the function does not test against nil (or one past the 64 followed).
func (g *growScan) bitOf(k fieldKey) uint64 {
	if i, ok := g.keys[k]; ok {
		return 1 << i
	}
	return 0
}

// block runs block b from its entry state and returns the states along its
// outgoing edges; with final, it reports the stores that lose a buffer.
func (g *growScan) block(b *ssa.BasicBlock, final bool) map[*ssa.BasicBlock]uint64 {
	held := g.in[b]
	for _, instr := range b.Instrs {
		held = g.transfer(instr, held, final)
	}
	out := map[*ssa.BasicBlock]uint64{}
	switch b.Instrs[len(b.Instrs)-1].(type) {
	case *ssa.Jump:
		out[b.Succs[0]] = held
	case *ssa.If:
		t, f := held, held
		if k, ok := g.nilTest(b); ok && g.bitOf(k) != 0 {
			bit := g.bitOf(k)
			bin := b.Instrs[len(b.Instrs)-1].(*ssa.If).Cond.(*ssa.BinOp)
			if bin.Op == token.NEQ {
				t, f = t|bit, f&^bit
			} else {
				t, f = t&^bit, f|bit
			}
		}
		out[b.Succs[0]] = t
		out[b.Succs[1]] |= f
	}
	return out
}

// transfer applies one instruction to the fields known to hold a buffer.
func (g *growScan) transfer(instr ssa.Instruction, held uint64, final bool) uint64 {
	switch in := instr.(type) {
	case *ssa.UnOp:
		if k, ok := g.loadedField(in); ok && !onlyInspected(in) {
			held &^= g.bitOf(k) // freed, copied or handed on
		}
	case *ssa.Store:
		if k, ok := g.field(in.Addr); ok {
			if bit := g.bitOf(k); held&bit != 0 && final {
				g.report(in)
			}
			held &^= g.bitOf(k)
		}
	case ssa.CallInstruction:
		if !callsOutside(in.Common(), g.fa.fn.Pkg) {
			return 0 // a function of the package, or an unknown one, may release the field
		}
	}
	if v, ok := instr.(ssa.Value); ok {
		held &^= g.keysOf(v) // a new struct each time round a loop
	}
	switch instr.(type) {
	case *ssa.FieldAddr, *ssa.DebugRef:
		return held
	}
	for _, op := range instr.Operands(nil) {
		held &^= g.keysOf(*op) // the struct itself handed to something
	}
	return held
}

// keysOf returns the bits of the fields of struct x the scan follows.
func (g *growScan) keysOf(x ssa.Value) uint64 {
	var m uint64
	for k := range g.keys {
		if k.x == x {
			m |= g.bitOf(k)
		}
	}
	return m
}

// callsOutside reports whether common statically calls a function of
// another package than pkg: it cannot reach a field of the package's
// struct except through its arguments.
func callsOutside(common *ssa.CallCommon, pkg *ssa.Package) bool {
	callee := common.StaticCallee()
	if callee == nil {
		return false
	}
	if o := callee.Origin(); o != nil {
		callee = o // device.Alloc[float32] is device's
	}
	return callee.Pkg != nil && callee.Pkg != pkg
}

func (g *growScan) report(in *ssa.Store) {
	f := in.Addr.(*ssa.FieldAddr)
	elem := types.Unalias(f.X.Type()).Underlying().(*types.Pointer).Elem()
	name := fmt.Sprintf("field %s of a %s", fieldVar(f).Name(), types.TypeString(elem, types.RelativeTo(g.fa.fn.Pkg.Pkg)))
	switch f.X.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		name = f.X.Name() + "." + fieldVar(f).Name()
	}
	g.fa.reportAt(in.Pos(), fmt.Sprintf("the buffer held in %s is not freed before it is overwritten at line %d",
		name, g.fa.line(in.Pos())))
}

// fieldVar returns the field f addresses, or nil where the struct is
// known only through a type parameter.
func fieldVar(f *ssa.FieldAddr) *types.Var {
	p, ok := types.Unalias(f.X.Type()).Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok || f.Field >= st.NumFields() {
		return nil
	}
	return st.Field(f.Field)
}

// freedThrough returns the buffer fields (of struct types of any package)
// that some function of the package frees the buffer of directly:
// `w.buf.Free()`, deferred or not. It is computed once.
func (c *checker) freedThrough() map[*types.Var]bool {
	if c.freedFields != nil {
		return c.freedFields
	}
	c.freedFields = map[*types.Var]bool{}
	for _, fn := range c.ssa.SrcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if f := freedField(call.Common()); f != nil && fieldVar(f) != nil {
						c.freedFields[fieldVar(f)] = true
					}
				}
			}
		}
	}
	return c.freedFields
}

// freedField returns the field whose buffer common frees (`w.buf.Free()`),
// or nil.
func freedField(common *ssa.CallCommon) *ssa.FieldAddr {
	obj := calleeObj(common.StaticCallee())
	if !isMethodOf(obj, deviceapi.IsBuffer) || deviceapi.Func(obj) != deviceapi.Free || len(common.Args) == 0 {
		return nil
	}
	load, ok := common.Args[0].(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	f, _ := load.X.(*ssa.FieldAddr)
	return f
}
