package ownership

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/deviceapi"
)

// call applies a call (or defer, or go) to the resources it receives.
func (fa *funcAnalysis) call(instr ssa.Instruction, common *ssa.CallCommon, st flowState, final, isDefer, isGo bool) {
	pos := common.Pos()
	if !pos.IsValid() || (isDefer || isGo) && instr.Pos().IsValid() {
		pos = instr.Pos() // the defer or go keyword
	}
	do := func(ids []int, e effect, what string) {
		if isGo && e == effFree {
			// Freed by the goroutine at some unknown time: handed on.
			e = effEscape
		}
		if isDefer {
			switch e {
			case effFree:
				e = effDeferFreeAll
			case effEscape:
				e = effDeferFree
			case effUse:
				// A deferred use happens at the end: after any Free
				// before the return.
				for _, id := range ids {
					if s := &st[id]; s.bits&(live|escaped|freed) != 0 && len(ids) == 1 {
						s.bits |= deferUse
						if !s.usePos.IsValid() {
							s.usePos, s.useBy = pos, what
						}
					}
				}
				return
			default:
				return
			}
		}
		fa.apply(st, ids, e, pos, what, final)
	}
	if mc, ok := common.Value.(*ssa.MakeClosure); ok {
		callee := fa.c.analyze(mc.Fn.(*ssa.Function))
		sum := callee.sum
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
			do(ids, e, "a function literal")
			if isDefer && fa.cells[b] {
				for _, id := range ids {
					if st[id].bits&(deferred|deferUse) != 0 {
						st[id].bits |= deferCell
					}
				}
			}
		}
		for j, a := range common.Args {
			do(fa.argAliases(a), fa.paramEffect(sum, j), "a function literal")
		}
		return
	}
	if common.IsInvoke() {
		for _, a := range common.Args {
			do(fa.argAliases(a), effEscape, "a method call")
		}
		do(fa.argAliases(common.Value), effEscape, "a method call")
		return
	}
	callee := common.StaticCallee()
	obj := calleeObj(callee)
	if b, ok := common.Value.(*ssa.Builtin); ok {
		if b.Name() == "append" && len(common.Args) == 2 {
			// The appended buffers go into the slice: if it is a
			// collection of this function, it now holds them.
			elems := fa.argAliases(common.Args[1])
			if len(elems) > 0 {
				fill(st, fa.alias[common.Args[0]], fa)
			}
			do(elems, effEscape, "append")
			return
		}
		e := effUse
		if b.Name() == "copy" {
			e = effEscape
		}
		for _, a := range common.Args {
			do(fa.argAliases(a), e, b.Name())
		}
		return
	}
	if obj == nil && callee != nil && fa.c.inPackage(callee) {
		// A function literal that captures nothing, called or deferred
		// where it is written: `defer func(x *device.Buffer[T]) {
		// x.Free() }(b)`.
		sum := fa.c.analyze(callee).sum
		for j, a := range common.Args {
			do(fa.argAliases(a), fa.paramEffect(sum, j), "a function literal")
		}
		return
	}
	if obj == nil {
		// A call of a function value: it may keep what it receives.
		for _, a := range common.Args {
			do(fa.argAliases(a), effEscape, "a call of a function value")
		}
		return
	}
	name := obj.Name()
	switch {
	case isMethodOf(obj, deviceapi.IsBuffer):
		e := effUse
		if deviceapi.Func(obj) == deviceapi.Free {
			e = effFree
		}
		do(fa.argAliases(common.Args[0]), e, name)
		do(fa.fieldUses(common.Args[0]), effUse, name)
		if e == effFree && !isDefer && !isGo {
			fa.freeHeldField(st, common.Args[0], pos)
			if final && len(fa.argAliases(common.Args[0])) == 0 {
				fa.elemFreeTwice(common.Args[0], st, pos)
			}
		}
		return
	case isMethodOf(obj, deviceapi.IsDevice):
		for _, a := range common.Args {
			if elems, ok := varargElems(a); ok {
				// Launch's ...any: each argument is a use of its own, so a
				// freed buffer among several is reported.
				for _, e := range elems {
					do(fa.argAliases(e), effUse, name)
					if mi, ok := e.(*ssa.MakeInterface); ok {
						e = mi.X
					}
					do(fa.fieldUses(e), effUse, name)
				}
				continue
			}
			do(fa.argAliases(a), effUse, name)
			do(fa.fieldUses(a), effUse, name)
		}
		return
	}
	sig := obj.Signature()
	var sum *summary
	known := false
	if callee != nil && fa.c.inPackage(callee) {
		sum = fa.c.analyze(callee).sum
		known = sum != nil
	} else {
		var f FuncFact
		if fa.c.pass.ImportObjectFact(obj, &f) {
			sum = &summary{frees: mask(f.Frees), takes: mask(f.Takes), returns: mask(f.Returns), fills: mask(f.Fills)}
		} else {
			sum = &summary{}
		}
		known = true
	}
	nrecv := 0
	if sig.Recv() != nil {
		nrecv = 1
	}
	// A struct of an owning type that the callee fills with a buffer must
	// now be closed.
	for j, a := range common.Args {
		if sum == nil || j >= 64 || sum.fills&(1<<j) == 0 || isDefer || isGo {
			continue
		}
		for _, o := range fa.argAliases(a) {
			if r := fa.res[o]; r.owner != nil && r.param < 0 && st[o].bits&(freed|escaped|deferred) == 0 {
				st[o].bits = st[o].bits&^(isNil|empty) | live
			}
		}
	}
	for j, a := range common.Args {
		// An owned field passed to a call uses the struct that owns it.
		do(fa.fieldUses(a), effUse, "a call to "+name)
		ids := fa.argAliases(a)
		if len(ids) == 0 {
			continue
		}
		// A method of an owning type called on a value of it.
		if j == 0 && nrecv == 1 {
			if o, _ := fa.c.ownerOf(sig.Recv().Type()); o != nil && fa.allOwners(ids) {
				e := effUse
				if name == o.Method {
					e = effFree
				}
				do(ids, e, name)
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
			do(ids, effEscape, "a call to "+name)
			continue
		}
		do(ids, fa.paramEffect(sum, j), "a call to "+name)
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
		return &summary{frees: mask(f.Frees), takes: mask(f.Takes), returns: mask(f.Returns), fills: mask(f.Fills)}
	}
	return nil
}

// apply applies effect e of an operation at pos to the resources ids.
func (fa *funcAnalysis) apply(st flowState, ids []int, e effect, pos token.Pos, what string, final bool) {
	if e == effNone || len(ids) == 0 {
		return
	}
	one := len(ids) == 1 && final
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
					r.label(), what, fa.line(pos), fa.freedAt(r, s)))
			} else if one && wasFreed {
				fa.reportAt(pos, fmt.Sprintf("%s is returned at line %d after %s",
					r.label(), fa.line(pos), fa.freedAt(r, s)))
			}
			if e == effEscape && s.bits&(live|empty) != 0 {
				s.bits = s.bits&^(live|empty) | escaped
			}
		case effFree:
			if one && wasFreed {
				fa.reportAt(pos, fmt.Sprintf("%s is freed twice: %s at line %d after %s",
					r.label(), what, fa.line(pos), fa.freedAt(r, s)))
			}
			// A Free after a deferred Free is reported at the return, where
			// it is known whether the deferred call still sees the buffer
			// (a literal that reads a variable set to nil does not).
			if one && s.bits&deferFreed != 0 && s.bits&freedTwice == 0 {
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
			if r.owner != nil && len(ids) == 1 {
				// Closing a struct frees the buffers its owned fields hold.
				for h := range st {
					if hs := &st[h]; hs.heldBy == id+1 && hs.bits&escaped != 0 {
						hs.bits = hs.bits&^escaped | freed
						hs.freePos, hs.freeBy = pos, fmt.Sprintf("%s of %s", what, r.label())
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

func (fa *funcAnalysis) reportf(pos token.Pos, format string, args ...any) {
	fa.reportAt(pos, fmt.Sprintf(format, args...))
}

func (fa *funcAnalysis) reportAt(pos token.Pos, msg string) {
	key := fmt.Sprint(pos, msg)
	if fa.seen[key] {
		return
	}
	fa.seen[key] = true
	fa.diags = append(fa.diags, analysis.Diagnostic{Pos: pos, Category: "ownership", Message: msg})
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
