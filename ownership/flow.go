package ownership

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/deviceapi"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
)

func (fa *funcAnalysis) entryState() flowState {
	st := make(flowState, len(fa.res))
	for _, r := range fa.res {
		if r.param >= 0 {
			st[r.id].bits = live
			if r.owner != nil && !r.freeVar {
				st[r.id].heldFields = ^uint64(0) // unknown: the caller's
			}
		} else if r.coll {
			st[r.id].bits = empty // a nil slice
		}
	}
	return st
}

// solve computes the state at the entry of every reachable block.
func (fa *funcAnalysis) solve() {
	if len(fa.res) == 0 {
		return
	}
	entry := fa.fn.Blocks[0]
	fa.in[entry] = fa.entryState()
	work := []*ssa.BasicBlock{entry}
	queued := map[*ssa.BasicBlock]bool{entry: true}
	for len(work) > 0 {
		b := work[0]
		work = work[1:]
		queued[b] = false
		for _, e := range fa.transferBlock(b, false) {
			if fa.lastByHeader != nil && fa.infeasible(b, e.to) {
				continue
			}
			if old, ok := fa.in[e.to]; !ok {
				fa.in[e.to] = e.st.clone()
			} else if fa.overwrites(b, e.to) {
				if sameBits(old, e.st) {
					continue
				}
				fa.in[e.to] = e.st.clone()
			} else if !old.join(e.st) {
				continue
			}
			if !queued[e.to] {
				queued[e.to] = true
				work = append(work, e.to)
			}
		}
	}
}

type edge struct {
	to *ssa.BasicBlock
	st flowState
}

// finalPass walks every reachable block once more with the fixed-point
// states, reporting diagnostics and computing the summary.
func (fa *funcAnalysis) finalPass() *summary {
	sum := &summary{}
	if len(fa.res) == 0 {
		return sum
	}
	fa.building = sum
	for _, b := range fa.fn.Blocks {
		if _, ok := fa.in[b]; ok {
			fa.transferBlock(b, true)
		}
	}
	sum.frees &^= sum.everyReturnFreesSeen
	sum.fvFrees &^= sum.everyReturnFreesSeen >> 32
	fa.building = nil
	return sum
}

// transferBlock runs the block's instructions from its entry state and
// returns the states along its outgoing edges.
func (fa *funcAnalysis) transferBlock(b *ssa.BasicBlock, final bool) []edge {
	st := fa.in[b].clone()
	for _, instr := range b.Instrs {
		if !fa.transfer(instr, st, final) {
			return nil // the path ends here (panic, os.Exit, …)
		}
	}
	switch last := b.Instrs[len(b.Instrs)-1].(type) {
	case *ssa.If:
		t, f := st.clone(), st
		fa.refine(last.Cond, t, f)
		fa.refineLoopExitBlock(b, t, f)
		edges := []edge{{b.Succs[0], t}, {b.Succs[1], f}}
		fa.lastEdges(b, edges)
		return edges
	case *ssa.Jump:
		edges := []edge{{b.Succs[0], st}}
		fa.lastEdges(b, edges)
		return edges
	}
	return nil
}

// refine applies what a branch condition says about nil-ness: on the edge
// where the error result of an allocating call is non-nil, or where a
// buffer is nil, the buffer needs no release.
func (fa *funcAnalysis) refine(cond ssa.Value, t, f flowState) {
	fa.refineSelect(cond, t)
	fa.refineEmpty(cond, t, f)
	fa.refineGuards(cond, t, f)
	fa.refineLoopExit(cond, t, f)
	bin, ok := cond.(*ssa.BinOp)
	if !ok || (bin.Op != token.EQL && bin.Op != token.NEQ) {
		return
	}
	x := bin.X
	if !isNilConst(bin.Y) {
		if !isNilConst(bin.X) {
			return
		}
		x = bin.Y
	}
	// errEdge: where x != nil; nilEdge: where x == nil.
	errEdge, nilEdge := t, f
	if bin.Op == token.EQL {
		errEdge, nilEdge = f, t
	}
	fa.refineFieldNil(x, nilEdge)
	toNil := func(s flowState, ids []int) {
		for _, id := range ids {
			if s[id].bits&live != 0 {
				s[id].bits = s[id].bits&^live | isNil
			}
			// Stored into an owned field before the check: the field
			// holds nil there.
			if h := s[id].heldBy; h > 0 && s[id].bits&escaped != 0 {
				s[id].bits = s[id].bits&^escaped | isNil
				if f := s[id].heldField; f < 64 {
					s[h-1].heldFields &^= 1 << f
				}
			}
		}
	}
	if ids := fa.errorOf(x, 0); len(ids) > 0 {
		toNil(errEdge, ids)
		fa.elemsFailed(errEdge, ids)
		return
	}
	fa.freeFailed(x, errEdge)
	fa.fillFailed(x, errEdge)
	if ids := fa.alias[x]; len(ids) == 1 {
		toNil(nilEdge, ids)
	}
}

// freeFailed handles the branch where a Free of a buffer that a deferred
// Free also frees returned an error (`if err := x.Free(); err != nil {
// return err }`): that Free did not release it, so the deferred one is not
// a second Free.
func (fa *funcAnalysis) freeFailed(v ssa.Value, errEdge flowState) {
	call, ok := v.(*ssa.Call)
	if !ok || call.Call.IsInvoke() {
		return
	}
	obj := calleeObj(call.Call.StaticCallee())
	if !isMethodOf(obj, deviceapi.IsBuffer) || deviceapi.Func(obj) != deviceapi.Free {
		return
	}
	if ids := fa.argAliases(call.Call.Args[0]); len(ids) == 1 {
		if s := &errEdge[ids[0]]; s.twicePos == call.Pos() {
			s.bits &^= freedTwice
		}
	}
}

// fillFailed handles the branch where a call that fills a struct of an
// owning type which held nothing returned an error (`if err :=
// p.load(d, xs); err != nil { return err }`): the struct holds nothing
// there.
func (fa *funcAnalysis) fillFailed(v ssa.Value, errEdge flowState) {
	if !types.Identical(v.Type(), types.Universe.Lookup("error").Type()) {
		return
	}
	if ex, ok := v.(*ssa.Extract); ok {
		v = ex.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return
	}
	for id := range errEdge {
		if s := &errEdge[id]; s.filledAt == call.Pos() && s.bits&live != 0 {
			s.bits = s.bits&^live | empty
			s.heldFields = 0
		}
	}
}

func isNilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// errorOf returns the resources created by the allocating calls whose
// error result v is (a φ of several, or the value of a variable that holds
// one), or nil.
func (fa *funcAnalysis) errorOf(v ssa.Value, depth int) []int {
	if phi, ok := v.(*ssa.Phi); ok && depth < 4 {
		var ids []int
		for _, e := range phi.Edges {
			if isNilConst(e) {
				continue
			}
			more := fa.errorOf(e, depth+1)
			if len(more) == 0 {
				return nil
			}
			ids, _ = union(ids, more)
		}
		return ids
	}
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		st := fa.reachingStore(load, load.X)
		if st == nil {
			return nil
		}
		v = st.Val
	}
	ex, ok := v.(*ssa.Extract)
	if !ok {
		return nil
	}
	call, ok := ex.Tuple.(*ssa.Call)
	if !ok || len(fa.created[call]) == 0 {
		return nil
	}
	tuple := call.Type().(*types.Tuple)
	if ex.Index != tuple.Len()-1 || !types.Identical(ex.Type(), types.Universe.Lookup("error").Type()) {
		return nil
	}
	return fa.created[call]
}

// effects of an operation on a resource.
type effect int

const (
	effNone effect = iota
	effUse
	effFree
	effEscape
	effDeferFree    // a deferred call takes it
	effDeferFreeAll // a deferred call frees it
)

// transfer applies one instruction to st; it returns false when the path
// ends at the instruction without returning.
func (fa *funcAnalysis) transfer(instr ssa.Instruction, st flowState, final bool) bool {
	fa.cur = instr
	defer func() { fa.cur = nil }()
	switch in := instr.(type) {
	case *ssa.Panic:
		return false
	case *ssa.Alloc:
		for _, id := range fa.created[in] {
			st[id] = resState{bits: empty} // a new struct value; it owns nothing yet
		}
	case *ssa.MakeSlice:
		for _, id := range fa.created[in] {
			st[id] = resState{bits: empty}
		}
	case *ssa.Call:
		obj := calleeObj(in.Call.StaticCallee())
		fa.call(in, in.Common(), st, final, false, false)
		if ids := fa.created[in]; len(ids) > 0 {
			for _, id := range ids {
				if fa.lostByAllocAgain(st[id], id, in) && final && !fa.carriedAndFreed(id) {
					r := fa.res[id]
					fa.reportAt(in.Pos(), fmt.Sprintf("%s %s not %s before it is allocated again at line %d",
						fa.origin(r), r.isAre(), r.freed(), fa.line(in.Pos())), fa.allocated(r))
				}
				st[id] = resState{bits: live, heldFields: fa.filledFields(in, fa.res[id])}
			}
		}
		if noReturn(obj) {
			return false
		}
	case *ssa.Defer:
		fa.call(in, in.Common(), st, final, true, false)
	case *ssa.Go:
		fa.call(in, in.Common(), st, final, false, true)
	case *ssa.Store:
		fa.storeField(in, st, final)
		fa.store(in, st, final)
	case *ssa.UnOp:
		fa.loadField(in, st)
	case *ssa.Slice:
		if cutToNothing(in) {
			fa.dropAll(st, fa.alias[in.X], in.Pos(), "the slice is cut to nothing", final)
		} else if final && fa.cutsTail(in) {
			fa.dropTail(st, fa.alias[in.X], in.Pos())
		}
	case *ssa.Send:
		fa.apply(st, fa.alias[in.X], effEscape, in.Pos(), "a channel send", final)
	case *ssa.Select:
		// A send case hands the value on only where that case is
		// chosen: refineSelect applies it on the case's edge.
		for _, s := range in.States {
			if s.Send != nil {
				fa.apply(st, fa.alias[s.Send], effUse, s.Pos, "a channel send", final)
			}
		}
	case *ssa.Lookup:
		fa.lookupEntry(in, st)
	case *ssa.MapUpdate:
		fa.updateEntry(in, st, final)
		fill(st, fa.alias[in.Map], fa.alias[in.Value], fa) // a local map of buffers now holds it
		fa.apply(st, fa.alias[in.Key], effEscape, in.Pos(), "a map update", final)
		fa.apply(st, fa.alias[in.Value], effEscape, in.Pos(), "a map update", final && !fa.c.carriesBuffers(in.Value.Type()))
	case *ssa.MakeClosure:
		if !onlyCalled(in) {
			// A literal that escapes (passed to t.Cleanup or a task
			// runner, stored, returned) takes the captured buffers that
			// its body frees or takes; one that only uses a buffer leaves
			// it to this function.
			sum := fa.c.analyze(in.Fn.(*ssa.Function)).sum
			for k, b := range in.Bindings {
				e := effEscape
				if sum != nil && k < 32 && (sum.fvFrees|sum.fvTakes)&(1<<k) == 0 {
					e = effUse
				}
				fa.apply(st, fa.contentsOrAlias(b), e, in.Pos(), "a function literal", final)
			}
		}
	case *ssa.Return:
		fa.ret(in, st, final)
	}
	return true
}

// lostByAllocAgain reports whether the previous instance of resource id,
// whose creation c runs again (in a loop), is lost there: it is still live,
// or it is held by a variable that a deferred literal releases at exit and
// that the new instance will replace (`s = ns` after `ns, err :=
// newSolver(...)`, with `defer func() { s.Close() }()`), a variable
// declared outside the loop (one declared in the body is a new variable
// each time round, which the deferred literal of that iteration reads).
func (fa *funcAnalysis) lostByAllocAgain(s resState, id int, c ssa.Instruction) bool {
	if s.bits&live != 0 {
		return true
	}
	if s.bits&deferCell == 0 || s.bits&freed != 0 {
		return false
	}
	for cell, ids := range fa.contents {
		if a, ok := cell.(*ssa.Alloc); ok && contains(ids, id) && a.Block() != nil && !kernelssa.Reaches(c.Block(), a.Block()) {
			return true
		}
	}
	return false
}

// onlyCalled reports whether a function literal is only called, deferred
// or started right where it is made.
func onlyCalled(mc *ssa.MakeClosure) bool {
	for _, ref := range *mc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case ssa.CallInstruction:
			if ref.Common().Value != mc {
				return false
			}
			for _, a := range ref.Common().Args {
				if a == mc {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

func (fa *funcAnalysis) contentsOrAlias(v ssa.Value) []int {
	if fa.cells[v] {
		return fa.contents[v]
	}
	return fa.alias[v]
}

// store handles a store of a resource: into a cell it only aliases; into a
// field of a struct of an owning type it hands the resource to the struct;
// anywhere else it hands it on.
func (fa *funcAnalysis) store(in *ssa.Store, st flowState, final bool) {
	if cell := fa.cellOf(in.Addr); cell != nil {
		if cell == in.Addr {
			// The variable no longer holds what it held: a deferred
			// literal that reads it at exit will not release that.
			fa.clearDeferCell(st, without(fa.contents[cell], fa.alias[in.Val]))
			fa.deferredReadAt(in, cell, st, final)
		}
		return
	}
	if f, ok := in.Addr.(*ssa.FieldAddr); ok {
		if fa.literalHolder(f.X) {
			return // the literal carries the buffer into its collection
		}
		if final {
			fa.overwriteElemField(in, f, st)
		}
	} else if ia, ok := in.Addr.(*ssa.IndexAddr); ok && final {
		fa.overwriteElem(in, ia, st)
	}
	ids := fa.alias[in.Val]
	if base := elemStoreBase(in.Addr); base != nil {
		fill(st, fa.contentsOrAlias(base), ids, fa)
		fa.holdElem(st, in, ids, final)
	}
	if fa.storesIntoOwnedField(in) {
		owners := fa.alias[in.Addr.(*ssa.FieldAddr).X]
		// The struct becomes responsible for what the function owed.
		holds := owed(st, ids)
		if call, ok := in.Val.(*ssa.Call); ok && !holds {
			if _, isBuiltin := call.Call.Value.(*ssa.Builtin); isBuiltin {
				for _, a := range call.Call.Args {
					holds = holds || len(fa.argAliases(a)) > 0 || len(fa.contentsOrAlias(a)) > 0
				}
			}
		}
		if len(owners) == 1 {
			defer func() {
				for _, id := range ids {
					if !fa.res[id].coll && st[id].bits&escaped != 0 {
						if h := st[id].heldBy; h > 0 && h != owners[0]+1 {
							st[id].sharedBy = h // now held by two structs
						}
						st[id].heldBy = owners[0] + 1
						st[id].heldField = in.Addr.(*ssa.FieldAddr).Field
					}
				}
			}()
		}
		if holds {
			for _, o := range owners {
				r := fa.res[o]
				if r.param < 0 && st[o].bits&(freed|escaped|deferred) == 0 {
					st[o].bits = st[o].bits&^(isNil|empty) | live
				}
				if r.param >= 0 && r.param < 64 && !r.freeVar && final && fa.building != nil {
					fa.building.fills |= 1 << r.param
				}
			}
		}
	}
	fa.apply(st, ids, effEscape, in.Pos(), "a store", final && !fa.c.carriesBuffers(in.Val.Type()))
}

func (fa *funcAnalysis) storesIntoOwnedField(in *ssa.Store) bool {
	f, ok := in.Addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	o, _ := fa.c.ownerOf(f.X.Type())
	if o == nil {
		return false
	}
	for _, i := range o.Fields {
		if i == f.Field {
			return true
		}
	}
	return false
}

// deferredReadAt handles a store of a buffer into a variable that a
// function literal deferred before the store (on every path to it) reads
// at exit (`var a *device.Buffer[T]; defer func() { if a != nil { a.Free()
// } }(); a, err = device.Upload(...)`): the literal frees, or takes, what
// the variable holds then, so the buffer stored is the literal's to release.
func (fa *funcAnalysis) deferredReadAt(in *ssa.Store, cell ssa.Value, st flowState, final bool) {
	ids := fa.alias[in.Val]
	if len(ids) == 0 {
		return
	}
	for _, ref := range *cell.Referrers() {
		mc, ok := ref.(*ssa.MakeClosure)
		if !ok {
			continue
		}
		for _, r2 := range *mc.Referrers() {
			d, ok := r2.(*ssa.Defer)
			if !ok || d.Call.Value != mc || !before(d, in) {
				continue
			}
			sum := fa.c.analyze(mc.Fn.(*ssa.Function)).sum
			for k, b := range mc.Bindings {
				if b != cell || sum == nil || k >= 32 {
					continue
				}
				e := effNone
				switch {
				case sum.fvFrees&(1<<k) != 0:
					e = effDeferFreeAll
				case sum.fvTakes&(1<<k) != 0:
					e = effDeferFree
				}
				fa.apply(st, ids, e, d.Pos(), "a function literal", final)
				for _, id := range ids {
					if st[id].bits&deferred != 0 {
						st[id].bits |= deferCell
					}
				}
			}
		}
	}
}

// clearDeferCell handles `b = nil` (or another buffer stored into b) on a
// variable that a deferred literal reads at exit: the literal will not
// release the buffer that b held, so the buffer is again the function's to
// free (or already freed).
func (fa *funcAnalysis) clearDeferCell(st flowState, ids []int) {
	for _, id := range ids {
		s := &st[id]
		if s.bits&deferCell == 0 {
			continue
		}
		hadDeferred := s.bits&deferred != 0
		s.bits &^= deferred | deferFreed | deferCell | freedTwice | deferUse
		if hadDeferred && s.bits&freed == 0 {
			s.bits |= live
		}
	}
}

// ret handles a return: results are handed to the caller; whatever else is
// still live leaks on this path.
func (fa *funcAnalysis) ret(in *ssa.Return, st flowState, final bool) {
	var returned []int
	for k, v := range in.Results {
		ids := fa.alias[v]
		if final && fa.building != nil {
			for _, id := range ids {
				r := fa.res[id]
				// Live, or taken by a deferred call that does not certainly
				// free it (a literal that frees it only on error).
				b := st[id].bits
				if r.param < 0 && k < 64 && (b&live != 0 || b&deferred != 0 && b&deferFreed == 0) {
					fa.building.returns |= 1 << k
				}
			}
		}
		fa.retResultFields(k, ids, st)
		if final && len(ids) == 1 && st[ids[0]].bits&deferFreed != 0 {
			r := fa.res[ids[0]]
			fa.reportAt(in.Pos(), fmt.Sprintf("%s is returned at line %d, but the deferred %s at line %d frees it after the return",
				r.label(), fa.line(in.Pos()), r.freeName(), fa.line(st[ids[0]].deferPos)), fa.deferredHere(r, &st[ids[0]]), fa.allocated(r))
		}
		returned = append(returned, ids...)
	}
	fa.apply(st, returned, effEscape, in.Pos(), "the return", final)
	if !final {
		return
	}
	for _, r := range fa.res {
		s := st[r.id]
		if s.bits&(deferUse|freed) == deferUse|freed && s.freePos.IsValid() && !r.coll {
			fa.reportAt(s.usePos, fmt.Sprintf("%s is used by %s deferred at line %d, which runs after %s",
				r.label(), s.useBy, fa.line(s.usePos), fa.freedAt(r, &s)), fa.freedHere(r, &s), fa.allocated(r))
		}
		if s.bits&freedTwice != 0 && !r.coll {
			by := r.freeName()
			if s.twiceBy != "" {
				by = s.twiceBy
			}
			fa.reportAt(s.twicePos, fmt.Sprintf("%s is freed twice: %s at line %d, and again by the deferred %s at line %d",
				r.label(), by, fa.line(s.twicePos), r.freeName(), fa.line(s.deferPos)), fa.deferredHere(r, &s), fa.allocated(r))
		}
		if r.param >= 0 {
			fa.summarizeParam(r, s.bits)
			fa.retFields(r, s)
			continue
		}
		if s.bits&live != 0 && !fa.releasedByFields(r, st) && !fa.elemsFreedHere(r, st) {
			if in.Pos().IsValid() {
				fa.reportAt(in.Pos(), fmt.Sprintf("%s %s not %s on the return at line %d",
					fa.origin(r), r.isAre(), r.freed(), fa.line(in.Pos())), fa.allocated(r))
			} else {
				end := fa.endPos()
				fa.reportAt(end, fmt.Sprintf("%s %s not %s before the function ends at line %d",
					fa.origin(r), r.isAre(), r.freed(), fa.line(end)), fa.allocated(r))
			}
		}
	}
}

func (fa *funcAnalysis) summarizeParam(r *resource, bits uint16) {
	sum := fa.building
	if sum == nil || r.param >= 32 {
		return
	}
	bit := uint64(1) << r.param
	released := bits&(freed|deferred) != 0
	only := bits&^(freed|deferred|isNil) == 0
	took := bits&(freed|escaped|deferred) != 0
	if r.freeVar {
		if released {
			sum.fvFrees |= bit
		}
		if !only || !released {
			sum.everyReturnFreesSeen |= bit << 32
		}
		if took {
			sum.fvTakes |= bit
		}
		return
	}
	if released {
		sum.frees |= bit
	}
	if !only || !released {
		sum.everyReturnFreesSeen |= bit
	}
	if took {
		sum.takes |= bit
	}
}

// endPos returns the position of the closing brace of the function.
func (fa *funcAnalysis) endPos() token.Pos {
	switch syn := fa.fn.Syntax().(type) {
	case *ast.FuncDecl:
		if syn.Body != nil {
			return syn.Body.Rbrace
		}
	case *ast.FuncLit:
		return syn.Body.Rbrace
	}
	return fa.fn.Pos()
}

// carriedAndFreed reports whether the previous instance of resource id,
// when its creation runs again in a loop, is kept in a loop-carried
// variable that the loop frees after the new allocation (`prev.Free()`
// where prev is a φ holding the last iteration's buffer, see staleIn):
// allocating again does not lose it.
func (fa *funcAnalysis) carriedAndFreed(id int) bool {
	for _, b := range fa.fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			common := call.Common()
			obj := calleeObj(common.StaticCallee())
			var sum *summary
			if !isMethodOf(obj, deviceapi.IsBuffer) {
				sum = fa.c.summaryOf(common)
				if sum == nil {
					continue
				}
			} else if deviceapi.Func(obj) != deviceapi.Free {
				continue
			}
			for j, a := range common.Args {
				phi, ok := a.(*ssa.Phi)
				if !ok || !contains(fa.alias[phi], id) || !fa.staleIn(phi, id, call) {
					continue
				}
				if sum == nil && j == 0 || sum != nil && j < 64 && sum.frees&(1<<j) != 0 {
					return true
				}
			}
		}
	}
	return false
}

// without returns the ids not in drop.
func without(ids, drop []int) []int {
	var out []int
	for _, id := range ids {
		if !contains(drop, id) {
			out = append(out, id)
		}
	}
	return out
}

func contains(ids []int, id int) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// refineSelect hands on the value of a select's send case on the edge
// where the select chose that case (the branch on `index == k` that the
// SSA builder emits for each case).
func (fa *funcAnalysis) refineSelect(cond ssa.Value, t flowState) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL {
		return
	}
	ex, ok := bin.X.(*ssa.Extract)
	k, isConst := bin.Y.(*ssa.Const)
	if !ok || !isConst || ex.Index != 0 || k.Value == nil {
		return
	}
	sel, ok := ex.Tuple.(*ssa.Select)
	if !ok {
		return
	}
	i := int(k.Int64())
	if i < 0 || i >= len(sel.States) || sel.States[i].Send == nil {
		return
	}
	fa.apply(t, fa.alias[sel.States[i].Send], effEscape, sel.States[i].Pos, "a channel send", false)
}

// releasedByFields reports whether r, a struct of an owning type created in
// the function, holds nothing on this path: it was filled field by field
// (s.in, err = device.Upload(...)), and each buffer stored in its owned
// fields is nil there (the error branch of its allocation) or was freed,
// through the field (s.in.Free()) or directly.
func (fa *funcAnalysis) releasedByFields(r *resource, st flowState) bool {
	if r.owner == nil || r.param >= 0 {
		return false
	}
	held := false
	for id := range st {
		s := st[id]
		switch {
		case s.heldBy == r.id+1:
			if s.bits&(live|escaped|deferred) != 0 {
				return false
			}
			held = true
		case s.heldBy == -1 && s.bits&escaped != 0:
			return false // held by some struct on some paths
		}
	}
	return held
}
