// Package itervars finds the local variables of kernel code whose address
// is used after the variable's declaration has run again. Go gives every
// execution of a declaration a variable of its own: since Go 1.22 each
// iteration of a loop has its own loop variables, and a variable declared
// in a loop body is new in every iteration. Kernel code has no heap, so
// the compiler keeps one slot per variable, which is Go's meaning exactly
// when every use of an address sees the variable of the latest execution.
// For a pointer kept across iterations (`if i == 1 { p = &i }`, read after
// the loop) the compiler instead gives the variable an array of slots, one
// per execution, when the loops around the declaration have a constant
// bound on their iterations (Escape.Copies); memspace reports, and the
// compiler refuses, the variables it cannot, both from Find.
package itervars

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/targets"
)

// sizes lays out kernel code's types as the compiler does (codegen/lower).
var sizes = types.SizesFor("gc", "amd64")

// An Escape is a local variable whose address outlives one execution of
// its declaration.
type Escape struct {
	Name string
	// Pos is where the variable is declared, or where its address is used
	// when the declaration has no position.
	Pos token.Pos
	// Why says how the address outlives the declaration.
	Why string
	// Alloc is the variable's declaration.
	Alloc *ssa.Alloc
	// Copies bounds how many times the declaration runs in one call of its
	// function (0: no bound is known, and noBound says why); Stride is
	// the bytes each copy takes.
	Copies, Stride int64
	noBound        string
}

// Compiles reports whether the compiler gives every execution of the
// declaration a copy of its own: Copies slots that fit in one local
// variable.
func (e Escape) Compiles() bool {
	return e.Copies > 0 && e.Copies*e.Stride <= targets.MaxLocalVar
}

// Message is the diagnostic for an e that does not compile.
func (e Escape) Message() string {
	head := "the address of " + e.Name + " " + e.Why + ": each iteration has its own " + e.Name +
		" (Go 1.22), and kernel code, which has no heap, "
	tail := "; copy the value instead of keeping its address"
	if e.Copies == 0 {
		return head + "gives each iteration a copy of its own only where the loops around the declaration have a constant bound " +
			"(for i := 0; i < 8; i++, for i := range 8), but " + e.noBound + tail
	}
	return head + fmt.Sprintf("would need a copy for each of up to %d iterations, %d bytes, more than the %d bytes one local variable of a GPU thread may take",
		e.Copies, e.Copies*e.Stride, targets.MaxLocalVar) + tail
}

// Find returns the local variables of fn whose address may be used after
// their declaration runs again, in block order, each with the number of
// copies that gives every execution its own.
func Find(fn *ssa.Function) []Escape {
	var out []Escape
	var ls []*loop
	reducible, found := false, false
	for _, b := range fn.Blocks {
		inCycle := false // whether b runs more than once per call, asked once per block with an Alloc
		for i, instr := range b.Instrs {
			a, ok := instr.(*ssa.Alloc)
			if !ok {
				continue
			}
			if !inCycle && !reaches(b, b, nil) {
				break // runs at most once per call
			}
			inCycle = true
			e, bad := outlives(a, i)
			if !bad {
				continue
			}
			if !found {
				ls, reducible = loops(fn)
				found = true
			}
			e.noBound = whyIrreducible
			if reducible {
				e.Copies, e.noBound = copies(b, ls)
			}
			out = append(out, e)
		}
	}
	return out
}

// A carrier is a value holding the address of one execution's variable:
// the Alloc itself, or a phi that received it (and then may hold it while
// the Alloc runs again).
type carrier struct {
	phi   bool
	block *ssa.BasicBlock // where a phi carrier is defined
}

// use is a place where an address is read: an instruction, or for a phi's
// operand the end of the predecessor block it comes from.
type use struct {
	block *ssa.BasicBlock
	index int // the instruction's index; len(block.Instrs) for the end
}

// outlives follows the address of a (the i-th instruction of its block)
// through the values derived from it and the phis it flows into, and
// reports the first use that may see a later execution's variable.
func outlives(a *ssa.Alloc, i int) (Escape, bool) {
	name := a.Comment
	if name == "" {
		name = "a local variable"
	}
	type item struct {
		v ssa.Value
		c carrier
	}
	work := []item{{a, carrier{}}}
	seen := map[ssa.Value]bool{a: true}
	push := func(v ssa.Value, c carrier) {
		if !seen[v] {
			seen[v] = true
			work = append(work, item{v, c})
		}
	}
	bad := func(pos token.Pos, why string) (Escape, bool) {
		if a.Pos().IsValid() {
			pos = a.Pos()
		}
		t := a.Type().Underlying().(*types.Pointer).Elem()
		// Go's sizes are multiples of the alignment: copies in a row stay aligned.
		return Escape{Name: name, Pos: pos, Why: why, Alloc: a, Stride: max(sizes.Sizeof(t), 1)}, true
	}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		for _, r := range *it.v.Referrers() {
			switch r := r.(type) {
			case *ssa.DebugRef:
				continue
			case *ssa.Phi:
				for j, e := range r.Edges {
					if e == it.v && stale(a, i, it.c, use{r.Block().Preds[j], len(r.Block().Preds[j].Instrs)}) {
						return bad(r.Pos(), "is kept from one iteration to the next")
					}
				}
				push(r, carrier{phi: true, block: r.Block()})
				continue
			case *ssa.Store:
				if r.Val == it.v {
					return bad(r.Pos(), "is stored in memory")
				}
			}
			if stale(a, i, it.c, use{r.Block(), index(r)}) {
				return bad(r.Pos(), "is used after its iteration")
			}
			switch r := r.(type) {
			case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Slice, *ssa.ChangeType:
				push(r.(ssa.Value), it.c) // an address into the variable
			case *ssa.Call:
				if address(r.Type()) {
					push(r, it.c) // may be an argument handed back
				}
			}
		}
	}
	return Escape{}, false
}

// address reports whether a value of type t may be an address.
func address(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice:
		return true
	}
	return false
}

// index is r's index in its block.
func index(r ssa.Instruction) int {
	for i, x := range r.Block().Instrs {
		if x == r {
			return i
		}
	}
	return 0
}

// stale reports whether the Alloc a (instruction ai of its block) may run
// between the definition of carrier c and use u, so that u would see a
// later execution's variable. The Alloc's own value is always the latest
// one where it is used (the uses it dominates come before it runs again);
// a phi holds the variable it received until the phi's block runs again.
func stale(a *ssa.Alloc, ai int, c carrier, u use) bool {
	if !c.phi {
		return false
	}
	b := a.Block()
	if c.block == b {
		// The phi is defined before a in the same block.
		return u.block != b || u.index > ai
	}
	if !reaches(c.block, b, nil) {
		return false
	}
	if u.block == b && u.index > ai {
		return true
	}
	// a runs again, then u is reached without the phi being redefined.
	return reaches(b, u.block, c.block)
}

// reaches reports whether to can be reached from from's successors without
// entering avoid.
func reaches(from, to, avoid *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), from.Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == avoid || seen[b] {
			continue
		}
		if b == to {
			return true
		}
		seen[b] = true
		work = append(work, b.Succs...)
	}
	return false
}
