package kir

import (
	"fmt"

	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// Launch facts. The passes that version code (RangeChecks, VersionChecks,
// LoopChecks) branch on tests of uniform values, the same in every thread
// of a launch: a stencil's extents and lengths in range, a transpose's
// rows*cols below the length. Each thread evaluates such a test, and on a
// GPU that costs a 64-bit product or two and the comparisons per thread,
// although the answer is one for the whole launch. The passes mark those
// tests (Value.Fact); AssumeFacts compiles a variant of the kernel in
// which they are true, with their slow paths gone, and returns the tests
// as a gpuabi.Facts program the runtime evaluates on the host at launch
// to choose between the kernel and the variant.
//
// The mark is a hint of where a variant pays, not a proof obligation:
// replacing a value by the constant it has in a launch changes nothing in
// that launch, so the variant is exact whenever the program, which
// computes exactly those values from the launch's parameters and shape,
// says they are all true.

// launchFact marks v as a test a variant may assume (Value.Fact) and returns it.
func launchFact(v *Value) *Value {
	v.Fact = true
	return v
}

// AssumeFacts returns a copy of f, named f.Name+"_fast", in which every
// marked test that the host can compute is true, cleaned up, and the
// program that decides at launch whether the copy may run. It returns
// ok false when f has no such test.
func AssumeFacts(f *Func) (g *Func, facts *gpuabi.Facts, ok bool) {
	g = CloneFunc(f)
	g.Name = f.Name + "_fast"
	used := map[*Value]bool{}
	for _, b := range g.Blocks {
		for _, v := range b.Values {
			for _, a := range v.Args {
				used[a] = true
			}
		}
		if b.Cond != nil {
			used[b.Cond] = true
		}
	}
	prog := &factProgram{g: g, index: map[*Value]int{}, out: &gpuabi.Facts{}}
	p := newProver(g, Dominators(g))
	var assumed []*Value
	for _, b := range g.Blocks {
		var candidates []*Value
		for _, v := range b.Values {
			if v.Fact && used[v] && v.Type == TBool {
				candidates = append(candidates, v)
			}
		}
		if len(candidates) == 0 {
			continue
		}
		// The tests a thread value needs are computed at the end of b
		// (dead in g: the program reads them).
		m := &materializer{f: g, b: b, fs: &forms{atoms: map[string][]*Value{}}, mono: map[string]*Value{}}
		for _, v := range candidates {
			if r, ok := prog.add(v); ok {
				prog.out.Result = append(prog.out.Result, r)
				assumed = append(assumed, v)
				continue
			}
			if rs, ok := prog.guarded(p, m, v); ok {
				prog.out.Result = append(prog.out.Result, rs...)
				assumed = append(assumed, v)
			}
		}
	}
	if len(assumed) == 0 {
		return nil, nil, false
	}
	for _, v := range assumed {
		v.Op, v.Args, v.Imm, v.Fact = OpConst, nil, 1, false
	}
	for range 2 {
		FoldConstants(g)
		Simplify(g)
		RemoveUnreachable(g)
		MergeBlocks(g)
		DeadCode(g)
	}
	// With the checks gone, a loop's reload of an element it stores may be
	// first in its body now.
	if ForwardStores(g) > 0 {
		MergeBlocks(g)
	}
	return g, prog.out, true
}

// factProgram translates uniform values into a gpuabi.Facts program.
type factProgram struct {
	g     *Func
	index map[*Value]int // value → its op
	out   *gpuabi.Facts
}

// factOps are the operations a fact may use, by their gpuabi names (the
// kernel IR's own).
var factOps = map[Op]bool{OpAdd: true, OpSub: true, OpMul: true, OpAnd: true, OpOr: true, OpXor: true,
	OpAndNot: true, OpShl: true, OpShr: true, OpNeg: true, OpNot: true, OpEq: true, OpNe: true, OpLt: true,
	OpLe: true, OpGt: true, OpGe: true, OpConvert: true, OpBitcast: true, OpSelect: true}

// add appends v's computation to the program and returns its op, or false
// when the host cannot compute it (a thread index, a load, a float).
func (p *factProgram) add(v *Value) (int, bool) {
	if i, ok := p.index[v]; ok {
		return i, true
	}
	kind := v.Type.Kind.String()
	if _, ok := gpuabi.FactKinds[kind]; !ok {
		return 0, false
	}
	op := gpuabi.FactOp{Op: v.Op.String(), Kind: kind}
	switch {
	case v.Op == OpConst:
		op.Imm = v.Imm
	case v.Op == OpParam:
		// A pointer has no value the host knows; a bool, whole bytes
		// being what a fact program reads, is not read as one either.
		if k := p.g.Params[v.Index].Type.Kind; k == Ptr || k == Bool {
			return 0, false
		}
		op.Index, op.Imm = v.Index, v.Imm
	case v.Op == OpSpecial:
		if v.Index < BlockDimX || v.Index > GridDimZ {
			return 0, false
		}
		op.Index = v.Index - BlockDimX
	case factOps[v.Op]:
		for _, a := range v.Args {
			i, ok := p.add(a)
			if !ok {
				return 0, false
			}
			op.Args = append(op.Args, i)
		}
	default:
		return 0, false
	}
	p.out.Ops = append(p.out.Ops, op)
	p.index[v] = len(p.out.Ops) - 1
	return len(p.out.Ops) - 1, true
}

// guarded adds to the program tests of uniform values that imply v, a
// check u64(idx) < u64(length) or a bound idx >= 0 that depends on the
// thread, in every thread that computes it (guardbound.go), and returns
// their ops.
func (p *factProgram) guarded(pr *prover, m *materializer, v *Value) ([]int, bool) {
	idx, length, ok := unsignedLess(v)
	switch {
	case ok:
	case v.Op == OpGe && v.Args[1].Op == OpConst && v.Args[1].Imm == 0:
		idx = v.Args[0]
	default:
		return nil, false
	}
	tests, ok := guardTests(pr, m.fs.atoms, v.Block, idx, length)
	if !ok {
		return nil, false
	}
	var out []int
	for _, t := range tests {
		r, ok := p.add(m.test(t))
		if !ok {
			return nil, false
		}
		out = append(out, r)
	}
	return out, true
}

// CloneFunc returns a deep copy of f: blocks, values (with their IDs) and
// edges.
func CloneFunc(f *Func) *Func {
	g := &Func{Name: f.Name, Params: append([]Param(nil), f.Params...), Block: f.Block, Dims: f.Dims, nextID: f.nextID}
	bm := map[*Block]*Block{}
	vm := map[*Value]*Value{}
	for _, b := range f.Blocks {
		c := &Block{Index: b.Index, Kind: b.Kind, Term: b.Term, Trap: b.Trap, Comment: b.Comment, Unrolled: b.Unrolled}
		bm[b] = c
		g.Blocks = append(g.Blocks, c)
		for _, v := range b.Values {
			nv := *v
			nv.Block = c
			vm[v] = &nv
			c.Values = append(c.Values, &nv)
		}
	}
	mapV := func(v *Value) *Value {
		if v == nil {
			return nil
		}
		if m, ok := vm[v]; ok {
			return m
		}
		panic(fmt.Sprintf("kir.CloneFunc: %v is used but defined in no block", v))
	}
	for _, b := range f.Blocks {
		c := bm[b]
		for _, v := range c.Values {
			args := make([]*Value, len(v.Args))
			for i, a := range v.Args {
				args[i] = mapV(a)
			}
			v.Args = args
		}
		c.Cond = mapV(b.Cond)
		for i, a := range b.Trap.Args {
			c.Trap.Args[i] = mapV(a)
		}
		for _, s := range b.Succs {
			c.Succs = append(c.Succs, bm[s])
		}
		for _, p := range b.Preds {
			c.Preds = append(c.Preds, bm[p])
		}
	}
	return g
}
