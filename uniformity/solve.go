package uniformity

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// maxRounds bounds the fixed-point iteration; every round only grows the
// dependences, so it ends long before this on any real function.
const maxRounds = 64

// solve computes the dependences of every value of f.Fn to a fixed point:
// values from their operands, branches from their conditions, then the
// regions and join points of divergent branches, which make more values
// divergent, and so on.
func (f *Func) solve(a *analyser) {
	fn := f.Fn
	f.g = newCFG(fn)
	f.val = map[ssa.Value]Dep{}
	f.branches = map[*ssa.BasicBlock]*Branch{}
	f.regions = map[*ssa.BasicBlock][]bool{}
	f.ctrl = make([]Dep, f.g.n)
	joinDep := make([]Dep, f.g.n)
	f.tempoDep = map[*loop]Dep{}
	for i, p := range fn.Params {
		if f.Kernel != nil || gpuapi.IsThread(p.Type()) || i >= 64 {
			continue // kernel parameters and the Thread handle are uniform
		}
		f.val[p] = Dep{Params: 1 << i}
	}
	// Callees first, so that their summaries are known.
	f.callees = map[*ssa.Call]*Summary{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if callee := call.Call.StaticCallee(); callee != nil && gpuapi.Callee(callee) == gpuapi.None {
				if s := a.summaryOf(callee); s != nil {
					f.callees[call] = s
				}
			}
		}
	}
	f.mem = newMemory(f)

	for round := 0; round < maxRounds; round++ {
		changed := false
		for _, b := range f.g.rpo {
			for _, instr := range b.Instrs {
				v, ok := instr.(ssa.Value)
				if !ok {
					continue
				}
				if _, ok := v.(*ssa.Phi); ok {
					d := f.transfer(v).join(joinDep[b.Index])
					if allSame(v.(*ssa.Phi)) {
						d = f.transfer(v)
					}
					changed = f.set(v, d) || changed
					continue
				}
				changed = f.set(v, f.transfer(v)) || changed
			}
		}
		changed = f.mem.update() || changed
		for _, b := range f.g.rpo {
			ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok || b.Succs[0] == b.Succs[1] {
				continue
			}
			d := f.operand(ifi, ifi.Cond)
			if !d.Divergent() {
				continue
			}
			br := f.branches[b]
			if br != nil && br.Dep.covers(d) {
				continue
			}
			changed = true
			if br == nil {
				br = &Branch{Block: b, Cond: ifi.Cond, ExitsFunction: f.g.ipdom[b.Index] == f.g.n}
				f.branches[b] = br
				f.regions[b] = f.g.region(b)
				for _, l := range f.g.loops {
					if l.contains(b) && (!l.contains(b.Succs[0]) || !l.contains(b.Succs[1])) {
						if br.Loop == nil || f.g.loopOf(br.Loop).contains(l.header) {
							br.Loop = l.header // innermost
						}
					}
				}
			}
			br.Dep = br.Dep.join(d)
		}
		if !changed {
			break
		}
		// Recompute control dependence, join points and temporal divergence
		// from the divergent branches found so far.
		for i := range f.ctrl {
			f.ctrl[i] = Dep{}
			joinDep[i] = Dep{}
		}
		f.tempo = f.tempo[:0]
		clear(f.tempoDep)
		for _, b := range f.g.rpo { // in a fixed order, so that reasons are deterministic
			br := f.branches[b]
			if br == nil {
				continue
			}
			region := f.regions[b]
			for i, in := range region {
				if in {
					f.ctrl[i] = f.ctrl[i].join(br.Dep)
				}
			}
			for i, j := range f.g.joins(b, region) {
				if j {
					joinDep[i] = joinDep[i].join(br.Dep)
				}
			}
			for _, l := range f.g.loops {
				if l.contains(b) && (!l.contains(b.Succs[0]) || !l.contains(b.Succs[1])) {
					if _, ok := f.tempoDep[l]; !ok {
						f.tempo = append(f.tempo, l)
					}
					d := br.Dep
					if d.Src != nil {
						d.Src = &Reason{What: "a value carried out of a loop that threads leave at different iterations", Pos: br.Cond.Pos(), Param: -1, Because: d.Src}
					}
					f.tempoDep[l] = f.tempoDep[l].join(d)
				}
			}
		}
	}
	f.findBarriers()
	f.summarise()
}

func allSame(phi *ssa.Phi) bool {
	for _, e := range phi.Edges[1:] {
		if e != phi.Edges[0] {
			if c0, ok := phi.Edges[0].(*ssa.Const); ok {
				if c, ok := e.(*ssa.Const); ok && c0.Value != nil && c.Value != nil && c0.Value.ExactString() == c.Value.ExactString() {
					continue
				}
			}
			return false
		}
	}
	return true
}

func (g *cfg) loopOf(header *ssa.BasicBlock) *loop {
	for _, l := range g.loops {
		if l.header == header {
			return l
		}
	}
	return nil
}

// set grows the dependence of v by d and reports whether it changed.
func (f *Func) set(v ssa.Value, d Dep) bool {
	old := f.val[v]
	n := old.join(d)
	if old.covers(n) {
		return false
	}
	f.val[v] = n
	return true
}

// operand returns the dependence of v as used by user: its own, plus the
// divergent exits of loops that define v and that user sits outside of
// (temporal divergence: threads left the loop at different iterations).
func (f *Func) operand(user ssa.Instruction, v ssa.Value) Dep {
	d := f.Dep(v)
	if def, ok := v.(ssa.Instruction); ok && len(f.tempo) > 0 && def.Block() != nil {
		for _, l := range f.tempo {
			if l.contains(def.Block()) && !l.contains(user.Block()) {
				d = d.join(f.tempoDep[l])
			}
		}
	}
	return d
}

func (f *Func) operands(instr ssa.Instruction) Dep {
	var d Dep
	for _, op := range instr.Operands(nil) {
		if op == nil || *op == nil {
			continue
		}
		d = d.join(f.operand(instr, *op))
	}
	return d
}

// transfer computes the dependence of one value from its operands.
func (f *Func) transfer(v ssa.Value) Dep {
	instr := v.(ssa.Instruction)
	switch v := v.(type) {
	case *ssa.Parameter:
		return f.val[v]
	case *ssa.Alloc:
		return Dep{} // each thread's own variable
	case *ssa.Phi:
		return f.operands(v)
	case *ssa.Call:
		return f.callDep(v, -1)
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok {
			return f.callDep(call, v.Index)
		}
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return f.operand(v, v.X).join(f.mem.loadDep(v, v.X)).join(f.paramMem(v.X))
		}
	case *ssa.Field:
		if call, ok := v.X.(*ssa.Call); ok {
			if k := gpuapi.Call(&call.Call); k.PerThread() {
				return f.componentDep(call, k.String(), v.Field)
			}
		}
	}
	return f.operands(instr)
}

// componentDep is the dependence of component k of ThreadIdx() or
// GlobalIdx(): uniform in a dimension the kernel does not use or whose block
// extent its block= option fixes to 1.
func (f *Func) componentDep(call *ssa.Call, name string, k int) Dep {
	if kern := f.Kernel; kern != nil {
		if k >= kern.Dims || kern.Block[k] == 1 {
			return Dep{}
		}
	}
	what := name
	if k > 0 {
		what += "()." + string("XYZ"[k])
	}
	return Dep{Src: &Reason{What: what, Pos: call.Pos(), Param: -1}}
}

// callDep is the dependence of a call's result (of result idx of a tuple, or
// of the whole result if idx < 0).
func (f *Func) callDep(call *ssa.Call, idx int) Dep {
	common := call.Common()
	if _, ok := common.Value.(*ssa.Builtin); ok {
		var d Dep
		for _, arg := range common.Args {
			d = d.join(f.operand(call, arg))
		}
		return d
	}
	switch k := gpuapi.Call(common); {
	case k.PerThread():
		return Dep{Src: &Reason{What: k.String(), Pos: call.Pos(), Param: -1}}
	case k.IsThreadIndex(), k == gpuapi.Shared, k.IsBarrier():
		return Dep{}
	case k.IsAtomic():
		return Dep{Src: &Reason{What: "the result of " + k.String(), Pos: call.Pos(), Param: -1}}
	}
	if s := f.callees[call]; s != nil {
		var d Dep
		for i, r := range s.Results {
			if idx < 0 || i == idx {
				d = d.join(f.resolve(call, r))
			}
		}
		return d
	}
	// A function without a body or summary (math, a conversion helper) is
	// taken to be pure: its result depends on its arguments.
	d := f.operands(call)
	return d
}

// resolve turns a callee's dependence into the caller's: the callee's own
// source, and the arguments for its parameters (with the memory they point
// to).
func (f *Func) resolve(call *ssa.Call, d Dep) Dep {
	var out Dep
	if d.Src != nil {
		out.Src = d.Src
		if callee := call.Call.StaticCallee(); callee != nil && !d.Src.Pos.IsValid() {
			// A summary from a fact: name the callee, point at the call.
			out.Src = &Reason{What: d.Src.What + " in " + calleeName(callee), Pos: call.Pos(), Param: -1}
		}
	}
	for j, arg := range call.Call.Args {
		if j < 64 && d.Params&(1<<j) != 0 {
			out = out.join(f.operand(call, arg))
		}
		if j < 64 && d.Mem&(1<<j) != 0 {
			out = out.join(f.mem.loadDep(call, arg)).join(f.paramMem(arg))
		}
	}
	return out
}

// paramMem is, in a device function, the memory-parameter dependence of a
// load through addr: the callers' memory it points into.
func (f *Func) paramMem(addr ssa.Value) Dep {
	if f.Kernel != nil {
		return Dep{}
	}
	if p, ok := root(addr).(*ssa.Parameter); ok {
		for i, q := range f.Fn.Params {
			if p == q && i < 64 {
				return Dep{Mem: 1 << i}
			}
		}
	}
	return Dep{}
}

func calleeName(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if fn.Signature.Recv() == nil && fn.Pkg != nil {
		return fn.Pkg.Pkg.Name() + "." + fn.Name()
	}
	return fn.Name()
}

// argDep is the dependence of an argument as the callee sees it: its value
// and, for a pointer or slice, the memory it points to at the call.
func (f *Func) argDep(call *ssa.Call, arg ssa.Value) Dep {
	d := f.operand(call, arg)
	switch arg.Type().Underlying().(type) {
	case *types.Pointer, *types.Slice:
		d = d.join(f.mem.loadDep(call, arg)).join(f.paramMem(arg))
	}
	return d
}

// findBarriers lists the calls that wait at a barrier and what decides
// whether every thread reaches them.
func (f *Func) findBarriers() {
	live := liveBlocks(f.g.fn)
	for _, b := range f.g.rpo {
		if !live[b.Index] {
			continue
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			site := &BarrierSite{Call: call, Arg: -1}
			s := f.callees[call]
			switch {
			case gpuapi.Call(&call.Call).IsBarrier():
			case s != nil && s.Barrier:
				site.Callee, _ = call.Call.StaticCallee().Object().(*types.Func)
				for j, arg := range call.Call.Args {
					if j >= 64 || (s.BarrierParams|s.BarrierMem)&(1<<j) == 0 {
						continue
					}
					ad := f.argDep(call, arg)
					if ad.Src != nil && site.Arg < 0 {
						site.Arg, site.ArgDep = j, ad
					}
					site.Params |= ad.Params
					site.Mem |= ad.Mem
				}
			default:
				continue
			}
			ctl := f.ctrl[b.Index]
			site.Params |= ctl.Params
			site.Mem |= ctl.Mem
			if ctl.Src != nil {
				for _, br := range f.Controlling(b) {
					if br.Dep.Src != nil {
						site.Under = br
						break
					}
				}
			}
			f.Barriers = append(f.Barriers, site)
		}
	}
}

// summarise computes what callers need to know.
func (f *Func) summarise() {
	s := &Summary{}
	nres := f.Fn.Signature.Results().Len()
	s.Results = make([]Dep, nres)
	for _, b := range f.g.rpo {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for i, r := range ret.Results {
			if i < nres {
				s.Results[i] = s.Results[i].join(f.operand(ret, r)).join(f.ctrl[b.Index])
			}
		}
	}
	s.Writes = make([]Dep, len(f.Fn.Params))
	for _, e := range f.mem.stores {
		if p, ok := e.root.(*ssa.Parameter); ok {
			for i, q := range f.Fn.Params {
				if p == q {
					s.Writes[i] = s.Writes[i].join(e.d)
				}
			}
		}
	}
	for _, site := range f.Barriers {
		s.Barrier = true
		s.BarrierParams |= site.Params
		s.BarrierMem |= site.Mem
		if site.Divergent() {
			s.BarrierDivergent = true
		}
	}
	f.Summary = s
}

// portable returns a copy of s fit to travel as a fact to another package,
// whose file set gives positions here no meaning: it keeps the description
// of each source (with its line) and drops the position.
func (s *Summary) portable(fn *ssa.Function) *Summary {
	c := *s
	c.Results = make([]Dep, len(s.Results))
	for i, d := range s.Results {
		c.Results[i] = portable(d, fn)
	}
	c.Writes = make([]Dep, len(s.Writes))
	for i, d := range s.Writes {
		c.Writes[i] = portable(d, fn)
	}
	return &c
}

func portable(d Dep, fn *ssa.Function) Dep {
	if d.Src != nil && d.Src.Pos.IsValid() {
		line := fn.Prog.Fset.Position(d.Src.Pos).Line
		what := d.Src.What + " (line " + itoa(line) + ")"
		if d.Src.Because != nil {
			what += ", which depends on " + d.Src.Because.Describe(fn.Prog.Fset)
		}
		d.Src = &Reason{What: what, Param: -1}
	}
	return d
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// liveBlocks reports the blocks that some execution reaches: an If on a
// constant condition (if debug && tid == 0 with const debug = false) takes
// only its constant edge, so a barrier under it is dead code, not a
// divergent barrier.
func liveBlocks(fn *ssa.Function) []bool {
	live := make([]bool, len(fn.Blocks))
	if len(fn.Blocks) == 0 {
		return live
	}
	stack := []*ssa.BasicBlock{fn.Blocks[0]}
	live[0] = true
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		succs := b.Succs
		if n := len(b.Instrs); n > 0 && len(succs) == 2 {
			if i, ok := b.Instrs[n-1].(*ssa.If); ok {
				if c, ok := i.Cond.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool {
					if constant.BoolVal(c.Value) {
						succs = succs[:1]
					} else {
						succs = succs[1:]
					}
				}
			}
		}
		for _, s := range succs {
			if !live[s.Index] {
				live[s.Index] = true
				stack = append(stack, s)
			}
		}
	}
	return live
}
