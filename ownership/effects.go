package ownership

import (
	"fmt"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/deviceapi"
)

// A callSite is one call (or defer, or go) being applied to the
// resources it receives.
type callSite struct {
	fa            *funcAnalysis
	common        *ssa.CallCommon
	st            flowState
	pos           token.Pos // the call, or the defer or go keyword
	final         bool
	isDefer, isGo bool
}

// call applies a call (or defer, or go) to the resources it receives: the
// kind of callee decides what it does to each argument (a closure or a
// function of this package by its summary, the device API by what it is,
// another function by its fact, an unknown function by keeping them).
func (fa *funcAnalysis) call(instr ssa.Instruction, common *ssa.CallCommon, st flowState, final, isDefer, isGo bool) {
	pos := common.Pos()
	if !pos.IsValid() || (isDefer || isGo) && instr.Pos().IsValid() {
		pos = instr.Pos() // the defer or go keyword
	}
	cs := &callSite{fa: fa, common: common, st: st, pos: pos, final: final, isDefer: isDefer, isGo: isGo}
	if mc, ok := common.Value.(*ssa.MakeClosure); ok {
		cs.closure(mc)
		return
	}
	if common.IsInvoke() {
		for _, a := range common.Args {
			cs.doArg(a, effEscape, "a method call")
		}
		cs.doArg(common.Value, effEscape, "a method call")
		return
	}
	callee := common.StaticCallee()
	obj := calleeObj(callee)
	switch b, _ := common.Value.(*ssa.Builtin); {
	case b != nil:
		cs.builtin(b)
	case obj == nil && callee != nil && fa.c.inPackage(callee):
		// A function literal that captures nothing, called or deferred
		// where it is written: `defer func(x *device.Buffer[T]) {
		// x.Free() }(b)`.
		sum := fa.c.analyze(callee).sum
		for j, a := range common.Args {
			cs.doArg(a, fa.paramEffect(sum, j), "a function literal")
		}
	case obj == nil:
		// A call of a function value: it may keep what it receives.
		for _, a := range common.Args {
			cs.doArg(a, effEscape, "a call of a function value")
		}
	case isMethodOf(obj, deviceapi.IsBuffer):
		cs.bufferMethod(obj)
	case isMethodOf(obj, deviceapi.IsDevice):
		cs.deviceMethod(obj)
	default:
		cs.function(callee, obj)
	}
}

// do applies effect e of the call to the resources ids, as a defer or a
// go statement changes it.
func (cs *callSite) do(ids []int, e effect, what string) {
	if cs.isGo && e == effFree {
		// Freed by the goroutine at some unknown time: handed on.
		e = effEscape
	}
	if cs.isDefer {
		switch e {
		case effFree:
			e = effDeferFreeAll
		case effEscape:
			e = effDeferFree
		case effUse:
			cs.deferUse(ids, what)
			return
		default:
			return
		}
	}
	cs.fa.apply(cs.st, ids, e, cs.pos, what, cs.final)
}

// doArg applies effect e of the call to the resources argument v carries.
// Where v is a loop-carried φ that may hold an earlier instance of a
// resource than the one the state tracks (argAliases leaves that one out),
// which buffer v is is not known: the effect applies to the others, but a
// use or Free of them is not reported (`in.Free(); in = out` in a
// ping-pong loop frees the previous iteration's out, or the first input).
func (cs *callSite) doArg(v ssa.Value, e effect, what string) {
	ids := cs.fa.argAliases(v)
	if len(ids) < len(cs.fa.alias[v]) && cs.final {
		cs.final = false
		defer func() { cs.final = true }()
	}
	cs.do(ids, e, what)
}

// deferUse records a deferred use, which happens at the end: after any
// Free before the return.
func (cs *callSite) deferUse(ids []int, what string) {
	for _, id := range ids {
		if s := &cs.st[id]; s.bits&(live|escaped|freed) != 0 && len(ids) == 1 {
			s.bits |= deferUse
			if !s.usePos.IsValid() {
				s.usePos, s.useBy = cs.pos, what
			}
		}
	}
}

// closure applies a call of a function literal that captures variables:
// what its summary says it does to each captured variable and argument.
func (cs *callSite) closure(mc *ssa.MakeClosure) {
	fa := cs.fa
	sum := fa.c.analyze(mc.Fn.(*ssa.Function)).sum
	for k, b := range mc.Bindings {
		ids := fa.contentsOrAlias(b)
		if len(ids) == 0 {
			continue
		}
		e := effUse
		switch {
		case sum == nil:
			e = effEscape
		case k < 32 && sum.fvFrees&(1<<k) != 0:
			e = effFree
		case k < 32 && sum.fvTakes&(1<<k) != 0:
			e = effEscape
		}
		cs.do(ids, e, "a function literal")
		if cs.isDefer && fa.cells[b] {
			for _, id := range ids {
				if cs.st[id].bits&(deferred|deferUse) != 0 {
					cs.st[id].bits |= deferCell
				}
			}
		}
	}
	for j, a := range cs.common.Args {
		cs.doArg(a, fa.paramEffect(sum, j), "a function literal")
	}
}

// builtin applies a call of a builtin function: append puts buffers into
// a collection (or lets them escape), copy lets them escape, the others
// use their arguments.
func (cs *callSite) builtin(b *ssa.Builtin) {
	fa, args := cs.fa, cs.common.Args
	if b.Name() == "append" && len(args) == 2 {
		// The appended buffers go into the slice: if it is a
		// collection of this function, it now holds them.
		elems := fa.argAliases(args[1])
		fa.reopenDeferred(cs.st, fa.alias[args[0]])
		fill(cs.st, fa.alias[args[0]], elems, fa)
		fa.holdAll(cs.st, fa.alias[args[0]], elems)
		if elem := collElemType(args[0].Type()); elem != nil && fa.c.carriesBuffers(elem) && cs.final {
			cs.final = false
			defer func() { cs.final = true }()
		}
		cs.do(elems, effEscape, "append")
		return
	}
	if b.Name() == "delete" && len(args) == 2 {
		fa.deleteEntry(cs.st, args[0], args[1], cs.pos, cs.final)
	}
	if b.Name() == "clear" && len(args) == 1 {
		fa.dropAll(cs.st, fa.contentsOrAlias(args[0]), cs.pos, "clear", cs.final)
	}
	e := effUse
	if b.Name() == "copy" {
		e = effEscape
	}
	for _, a := range args {
		cs.doArg(a, e, b.Name())
	}
}

// bufferMethod applies a method of *device.Buffer[T]: Free frees the
// buffer, the others use it.
func (cs *callSite) bufferMethod(obj *types.Func) {
	fa, recv := cs.fa, cs.common.Args[0]
	e := effUse
	if deviceapi.Func(obj) == deviceapi.Free {
		e = effFree
	}
	cs.doArg(recv, e, obj.Name())
	cs.do(fa.fieldUses(recv), effUse, obj.Name())
	if e == effFree && !cs.isDefer && !cs.isGo {
		fa.freeHeldField(cs.st, recv, cs.pos)
		if cs.final && len(fa.argAliases(recv)) == 0 {
			fa.elemFreeTwice(recv, cs.st, cs.pos)
			fa.elemReleasedAgain(recv, cs.st, cs.pos, obj.Name())
		} else if cs.final && fa.namedElem(recv) {
			fa.elemFreeTwice(recv, cs.st, cs.pos) // `ws[0]`, known to hold one buffer
		}
	}
	if e == effFree && !cs.isGo {
		fa.releaseElem(cs.st, recv, cs.isDefer, cs.pos)
	}
}

// deviceMethod applies a method of *device.Device (a launch, a sync): it
// uses every buffer it receives.
func (cs *callSite) deviceMethod(obj *types.Func) {
	fa, name := cs.fa, obj.Name()
	for _, a := range cs.common.Args {
		if elems, ok := varargElems(a); ok {
			// Launch's ...any: each argument is a use of its own, so a
			// freed buffer among several is reported.
			for _, e := range elems {
				cs.doArg(e, effUse, name)
				if mi, ok := e.(*ssa.MakeInterface); ok {
					e = mi.X
				}
				cs.do(fa.fieldUses(e), effUse, name)
			}
			continue
		}
		cs.doArg(a, effUse, name)
		cs.do(fa.fieldUses(a), effUse, name)
	}
}

// function applies a call of a declared function or method obj (callee
// its SSA function, nil for another package's): what its summary, or its
// fact, says it does to each argument. Without either it keeps what it
// receives.
func (cs *callSite) function(callee *ssa.Function, obj *types.Func) {
	fa := cs.fa
	var sum *summary
	known := false
	if callee != nil && fa.c.inPackage(callee) {
		sum = fa.c.analyze(callee).sum
		known = sum != nil
	} else {
		var f FuncFact
		if fa.c.pass.ImportObjectFact(obj, &f) {
			sum = f.summary()
		} else {
			sum = &summary{}
		}
		known = true
	}
	if !cs.isDefer && !cs.isGo {
		cs.filled(sum)
		cs.callFields(sum)
	}
	sig, name := obj.Signature(), obj.Name()
	nrecv := 0
	if sig.Recv() != nil {
		nrecv = 1
	}
	for j, a := range cs.common.Args {
		// An owned field passed to a call uses the struct that owns it.
		cs.do(fa.fieldUses(a), effUse, "a call to "+name)
		ids := fa.argAliases(a)
		if len(ids) == 0 {
			if j == 0 && nrecv == 1 && cs.final && !cs.isDefer && !cs.isGo && fa.releases(sig, name) {
				fa.elemReleasedAgain(a, cs.st, cs.pos, name)
			}
			continue
		}
		// A method of an owning type called on a value of it.
		if j == 0 && nrecv == 1 {
			if o, _ := fa.c.ownerOf(sig.Recv().Type()); o != nil && fa.allOwners(ids) {
				e := effUse
				if name == o.Method {
					e = effFree
				}
				cs.do(ids, e, name)
				continue
			}
		}
		// Only parameters of a tracked type are summarized; a buffer passed
		// as an interface or a type parameter may be kept by the callee.
		var pt types.Type
		if j < nrecv {
			pt = sig.Recv().Type()
		} else if j-nrecv < sig.Params().Len() {
			pt = sig.Params().At(j - nrecv).Type()
		}
		if !known || pt == nil || !fa.c.tracked(pt) {
			cs.do(ids, effEscape, "a call to "+name)
			continue
		}
		cs.do(ids, fa.paramEffect(sum, j), "a call to "+name)
	}
}

// filled marks live each struct of an owning type that the callee (with
// summary sum) fills with a buffer: it must now be closed.
func (cs *callSite) filled(sum *summary) {
	if sum == nil {
		return
	}
	for j, a := range cs.common.Args {
		if j >= 64 || sum.fills&(1<<j) == 0 {
			continue
		}
		for _, o := range cs.fa.argAliases(a) {
			if r := cs.fa.res[o]; r.owner != nil && r.param < 0 && cs.st[o].bits&(freed|escaped|deferred) == 0 {
				if cs.st[o].bits&live == 0 {
					cs.st[o].filledAt = cs.pos // holds nothing where this call fails
				}
				cs.st[o].bits = cs.st[o].bits&^(isNil|empty) | live
			}
		}
	}
}

func (fa *funcAnalysis) allOwners(ids []int) bool {
	for _, id := range ids {
		if fa.res[id].owner == nil {
			return false
		}
	}
	return true
}

// paramEffect returns what a callee with summary sum does to parameter j.
func (fa *funcAnalysis) paramEffect(sum *summary, j int) effect {
	switch {
	case sum == nil:
		return effEscape
	case j < 64 && sum.frees&(1<<j) != 0:
		return effFree
	case j < 64 && sum.takes&(1<<j) != 0:
		return effEscape
	}
	return effUse
}

// inPackage reports whether fn is a function of the package under analysis
// (an instantiation of one included) with a body to analyze.
func (c *checker) inPackage(fn *ssa.Function) bool {
	pkg := fn.Pkg
	if o := fn.Origin(); o != nil {
		pkg = o.Pkg
	}
	return pkg == c.ssa.Pkg && len(fn.Blocks) > 0
}

// summaryOf returns the summary of a statically called function: computed
// for the package's own functions, from facts for others.
func (c *checker) summaryOf(common *ssa.CallCommon) *summary {
	callee := common.StaticCallee()
	if callee == nil {
		return nil
	}
	if c.inPackage(callee) {
		return c.analyze(callee).sum
	}
	obj := calleeObj(callee)
	var f FuncFact
	if obj != nil && c.pass.ImportObjectFact(obj, &f) {
		return f.summary()
	}
	return nil
}

// apply applies effect e of an operation at pos to the resources ids.
func (fa *funcAnalysis) apply(st flowState, ids []int, e effect, pos token.Pos, what string, final bool) {
	if e == effNone || len(ids) == 0 {
		return
	}
	one := len(ids) == 1 && final
	if e == effFree && final && len(ids) > 1 {
		fa.freeOfDeferFreed(st, ids, pos, what)
	}
	for _, id := range ids {
		s := &st[id]
		r := fa.res[id]
		wasFreed := s.bits&(freed|freedLast) != 0
		if r.coll {
			one = false // uses of a slice after its elements were freed are not followed
		}
		switch e {
		case effUse, effEscape:
			if one && wasFreed && what != "the return" {
				fa.reportAt(pos, fmt.Sprintf("%s is used by %s at line %d after %s",
					r.label(), what, fa.line(pos), fa.freedAt(r, s)), fa.freedHere(r, s), fa.allocated(r))
			} else if one && wasFreed {
				fa.reportAt(pos, fmt.Sprintf("%s is returned at line %d after %s",
					r.label(), fa.line(pos), fa.freedAt(r, s)), fa.freedHere(r, s), fa.allocated(r))
			}
			if e == effEscape && s.bits&(live|empty) != 0 {
				s.bits = s.bits&^(live|empty) | escaped
			}
		case effFree:
			if one && wasFreed {
				fa.reportAt(pos, fmt.Sprintf("%s is freed twice: %s at line %d after %s",
					r.label(), what, fa.line(pos), fa.freedAt(r, s)), fa.freedHere(r, s), fa.allocated(r))
			}
			// A Free after a deferred Free is reported at the return, where
			// it is known whether the deferred call still sees the buffer
			// (a literal that reads a variable set to nil does not). The
			// mark flows while solving, not only in the final pass, so that
			// a return after a loop sees the Free in the loop's body.
			if len(ids) == 1 && s.bits&deferFreed != 0 && s.bits&freedTwice == 0 {
				s.bits |= freedTwice
				s.twicePos, s.twiceBy = pos, ""
				if what != r.freeName() {
					s.twiceBy = what
				}
			}
			if s.bits&(live|escaped|freed|empty|deferred|freedLast) != 0 {
				s.bits = s.bits&^(live|escaped|empty|freedLast) | freed
				if fa.inLastRegion(fa.cur) {
					s.bits |= freedInLast // on the loop's last iteration only
				}
				s.freePos, s.freeBy = pos, ""
				if what != r.freeName() {
					s.freeBy = what
				}
			}
			if r.owner != nil {
				s.heldFields = 0
			}
			if r.owner != nil && len(ids) == 1 {
				// Closing a struct frees the buffers its owned fields hold;
				// one that another struct held too, and whose Close freed
				// it already, is freed twice.
				for h := range st {
					hs := &st[h]
					if hs.heldBy != id+1 && hs.sharedBy != id+1 {
						continue
					}
					if hs.bits&escaped != 0 {
						hs.bits = hs.bits&^escaped | freed
						hs.freePos, hs.freeBy = pos, fmt.Sprintf("%s of %s", what, r.label())
					} else if final && hs.sharedBy > 0 && hs.bits&freed != 0 && hs.bits&live == 0 {
						fa.reportAt(pos, fmt.Sprintf("%s is freed twice: %s of %s at line %d after %s",
							fa.res[h].label(), what, r.label(), fa.line(pos), fa.freedAt(fa.res[h], hs)),
							fa.freedHere(fa.res[h], hs), fa.allocated(fa.res[h]))
					}
				}
			}
		case effDeferFree, effDeferFreeAll:
			if one && wasFreed {
				fa.reportAt(pos, fmt.Sprintf("%s is freed twice: the deferred %s at line %d runs after %s",
					r.label(), what, fa.line(pos), fa.freedAt(r, s)))
			}
			if s.bits&(live|escaped|empty) != 0 {
				s.bits = s.bits&^(live|escaped|empty) | deferred
				if e == effDeferFreeAll {
					s.bits |= deferFreed
				}
				s.deferPos = pos
			}
		}
	}
}

// freeOfDeferFreed reports a Free of a value that is one of several
// buffers (a ping-pong variable after `src, dst = dst, src`) when a
// deferred call certainly frees each of them at exit: whichever it is, it
// is freed twice. A deferred literal that reads a variable at exit (which
// may be nil by then) is not certain, and neither is a buffer that some
// path did not hand to the deferred call.
func (fa *funcAnalysis) freeOfDeferFreed(st flowState, ids []int, pos token.Pos, what string) {
	var labels, lines []string
	for _, id := range ids {
		s, r := st[id], fa.res[id]
		if r.coll || s.bits&(deferred|deferFreed) != deferred|deferFreed || s.bits&^(deferred|deferFreed|deferUse) != 0 {
			return
		}
		labels = append(labels, r.label())
		lines = append(lines, strconv.Itoa(fa.line(s.deferPos)))
	}
	r := fa.res[ids[0]]
	fa.reportAt(pos, fmt.Sprintf("%s is freed twice: %s at line %d frees one of them, and the deferred %ss at lines %s free each again",
		strings.Join(labels, " or "), what, fa.line(pos), r.freeName(), strings.Join(lines, " and ")))
}

// freedAt describes the Free that s remembers: "Free at line 18", or "a
// call to release freed it at line 18".
func (fa *funcAnalysis) freedAt(r *resource, s *resState) string {
	if s.freeBy != "" {
		return fmt.Sprintf("%s freed it at line %d", s.freeBy, fa.line(s.freePos))
	}
	return fmt.Sprintf("%s at line %d", r.freeName(), fa.line(s.freePos))
}

func (fa *funcAnalysis) line(pos token.Pos) int {
	return fa.c.pass.Fset.Position(pos).Line
}

// reportAt reports msg at pos, with the other positions it speaks of
// (rel: where the buffer was allocated or freed) as related information;
// a related position that is invalid or pos itself is left out.
func (fa *funcAnalysis) reportAt(pos token.Pos, msg string, rel ...analysis.RelatedInformation) {
	key := fmt.Sprint(pos, msg)
	if fa.seen[key] {
		return
	}
	fa.seen[key] = true
	d := analysis.Diagnostic{Pos: pos, Category: "ownership", Message: msg}
	for _, r := range rel {
		if r.Pos.IsValid() && r.Pos != pos {
			d.Related = append(d.Related, r)
		}
	}
	fa.diags = append(fa.diags, d)
}

// allocated is the related information of where r was created.
func (fa *funcAnalysis) allocated(r *resource) analysis.RelatedInformation {
	return analysis.RelatedInformation{Pos: r.pos, Message: "allocated here: " + fa.origin(r)}
}

// freedHere is the related information of the Free that s remembers.
func (fa *funcAnalysis) freedHere(r *resource, s *resState) analysis.RelatedInformation {
	return analysis.RelatedInformation{Pos: s.freePos, Message: "freed here: " + fa.freedAt(r, s)}
}

// deferredHere is the related information of the deferred Free that s
// remembers.
func (fa *funcAnalysis) deferredHere(r *resource, s *resState) analysis.RelatedInformation {
	return analysis.RelatedInformation{Pos: s.deferPos, Message: "the deferred " + r.freeName()}
}

// freeHeldField handles s.f.Free() on an owned field of a struct of an
// owning type created here: the buffer stored in that field is freed.
func (fa *funcAnalysis) freeHeldField(st flowState, v ssa.Value, pos token.Pos) {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return
	}
	f, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return
	}
	owners := fa.alias[f.X]
	if len(owners) != 1 {
		return
	}
	for id := range st {
		if s := &st[id]; s.heldBy == owners[0]+1 && s.heldField == f.Field && s.bits&escaped != 0 {
			s.bits = s.bits&^escaped | freed
			s.freePos, s.freeBy = pos, ""
		}
	}
}

// varargElems returns the values stored in the elements of a variadic
// argument slice the SSA builder made for a call (f(a, b, c) passes
// slice(new [3]T) after storing a, b and c into it), or false.
func varargElems(v ssa.Value) ([]ssa.Value, bool) {
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return nil, false
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	var out []ssa.Value
	for _, ref := range *arr.Referrers() {
		switch ref := ref.(type) {
		case *ssa.IndexAddr:
			for _, r2 := range *ref.Referrers() {
				st, ok := r2.(*ssa.Store)
				if !ok || st.Addr != ref {
					return nil, false
				}
				out = append(out, st.Val)
			}
		case *ssa.Slice:
			if ref != sl {
				return nil, false
			}
		case *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return out, true
}

// releases reports whether a method with signature sig named name is the
// release method of its receiver's owning type.
func (fa *funcAnalysis) releases(sig *types.Signature, name string) bool {
	o, _ := fa.c.ownerOf(sig.Recv().Type())
	return o != nil && o.Method == name
}
