package ownership

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/analyzers/kernelssa"
)

// A checker holds what is known about the package under analysis.
type checker struct {
	pass   *analysis.Pass
	ssa    *kernelssa.SSA
	owners map[*types.TypeName]*OwnerFact // owning struct types of this package
	funcs  map[*ssa.Function]*funcAnalysis
}

func newChecker(pass *analysis.Pass, s *kernelssa.SSA) *checker {
	return &checker{pass: pass, ssa: s, owners: map[*types.TypeName]*OwnerFact{}, funcs: map[*ssa.Function]*funcAnalysis{}}
}

// A resource is something the function must release: a buffer from an
// allocating call, a struct of an owning type built here, or (for the
// function's summary only) a parameter or captured variable.
type resource struct {
	id    int
	owner *OwnerFact // non-nil for a struct of an owning type
	tname string     // the owning type's name
	pos   token.Pos  // where it is created
	from  string     // what creates it: "device.Alloc", "newBuffers", …
	name  string     // the variable it is assigned to, if known
	call  *ssa.Call  // the creating call, if any
	alloc *ssa.Alloc // the struct literal or variable, for owners
	// param is the index of the parameter (or, with freeVar, of the
	// captured variable) this pseudo-resource stands for; -1 otherwise.
	param   int
	freeVar bool
}

func (r *resource) what() string {
	if r.owner != nil {
		return r.tname + " value"
	}
	return "buffer"
}

func (r *resource) freed() string {
	if r.owner != nil {
		return "closed by " + r.owner.Method
	}
	return "freed"
}

func (r *resource) freeName() string {
	if r.owner != nil {
		return r.owner.Method
	}
	return "Free"
}

// origin describes the resource and where it comes from, for a leak.
func (fa *funcAnalysis) origin(r *resource) string {
	if r.from == "" && r.alloc != nil {
		return fmt.Sprintf("%s variable %s declared at line %d", r.tname, r.alloc.Comment, fa.line(r.pos))
	}
	return fmt.Sprintf("%s from %s at line %d", r.what(), r.from, fa.line(r.pos))
}

// allocOrigin names how a struct of an owning type was made: a literal,
// new(T), or "" for a declared variable.
func allocOrigin(a *ssa.Alloc, name string) string {
	switch a.Comment {
	case "complit":
		return name + " literal"
	case "new":
		return "new(" + name + ")"
	}
	return ""
}

func (r *resource) label() string {
	if r.name != "" {
		return fmt.Sprintf("%s %s", r.what(), r.name)
	}
	return fmt.Sprintf("the %s from %s", r.what(), r.from)
}

// State bits of a resource on the paths reaching a program point; a set of
// bits is the union over those paths. No bit: not created on the path.
const (
	live     uint8 = 1 << iota // created, still the function's to release
	freed                      // released
	escaped                    // handed on
	isNil                      // nil on this path (error branch)
	deferred                   // a deferred call will release it
	empty                      // a struct of an owning type that holds nothing yet
)

type resState struct {
	bits     uint8
	freePos  token.Pos // a Free on some path, for messages
	freeBy   string    // what freed it there: "" for the Free (or Close) method, else "a call to f"
	deferPos token.Pos
}

type flowState []resState

func (s flowState) clone() flowState { return append(flowState(nil), s...) }

// join merges t into s and reports whether s changed.
func (s flowState) join(t flowState) bool {
	changed := false
	for i := range s {
		if nb := s[i].bits | t[i].bits; nb != s[i].bits {
			s[i].bits = nb
			changed = true
		}
		if s[i].freePos == token.NoPos {
			s[i].freePos, s[i].freeBy = t[i].freePos, t[i].freeBy
		}
		if s[i].deferPos == token.NoPos {
			s[i].deferPos = t[i].deferPos
		}
	}
	return changed
}

// summary is what a function does with its parameters and results.
type summary struct {
	frees, takes         uint64 // parameters
	fvFrees, fvTakes     uint64 // captured variables (function literals)
	returns              uint64 // results that are new resources
	fills                uint64 // parameters of an owning type that receive a buffer in an owned field
	everyReturnFreesSeen uint64 // internal: params with a non-releasing return
}

// funcAnalysis is the analysis of one function.
type funcAnalysis struct {
	c     *checker
	fn    *ssa.Function
	res   []*resource
	alias map[ssa.Value][]int
	// cells are local variables (allocs) that only hold values: loads from
	// them see what was stored. contents is the union of what is stored.
	cells    map[ssa.Value]bool
	contents map[ssa.Value][]int
	created  map[ssa.Instruction][]int // resources created by an instruction
	in       map[*ssa.BasicBlock]flowState
	// fields maps a buffer read from an owned field of a struct of an
	// owning type to that struct: using it uses the struct.
	fields   map[ssa.Value][]int
	guards   [][]guard // per resource: conditions its creation requires
	inLoop   map[*ssa.BasicBlock]bool
	sum      *summary // set when the analysis is complete
	building *summary // the summary being computed by finalPass
	done     bool
	diags    []analysis.Diagnostic
	seen     map[string]bool
}

// analyze returns the analysis of fn, computing it (and the summaries of the
// package's functions it calls) the first time.
func (c *checker) analyze(fn *ssa.Function) *funcAnalysis {
	if fa := c.funcs[fn]; fa != nil {
		return fa // done, or in progress on a recursive call: sum is nil
	}
	fa := &funcAnalysis{c: c, fn: fn, alias: map[ssa.Value][]int{}, cells: map[ssa.Value]bool{},
		contents: map[ssa.Value][]int{}, created: map[ssa.Instruction][]int{}, in: map[*ssa.BasicBlock]flowState{},
		fields: map[ssa.Value][]int{},
		seen:   map[string]bool{}}
	c.funcs[fn] = fa
	if len(fn.Blocks) == 0 {
		fa.sum = &summary{}
		return fa
	}
	fa.findResources()
	fa.findGuards()
	fa.computeAliases()
	fa.solve()
	fa.sum = fa.finalPass()
	return fa
}

func (c *checker) report(fa *funcAnalysis) {
	for _, d := range fa.diags {
		c.pass.Report(d)
	}
}

// --- resources and aliases -------------------------------------------------

func (fa *funcAnalysis) newResource(r *resource) *resource {
	r.id = len(fa.res)
	fa.res = append(fa.res, r)
	return r
}

// ownerOf returns the OwnerFact of t's named struct type (t or *t), or nil.
func (c *checker) ownerOf(t types.Type) (*OwnerFact, string) {
	n := namedOf(t)
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
	if isBuffer(t) {
		return true
	}
	o, _ := c.ownerOf(t)
	return o != nil
}

func (fa *funcAnalysis) findResources() {
	fn := fa.fn
	for i, p := range fn.Params {
		if fa.c.tracked(p.Type()) {
			r := fa.newResource(&resource{param: i, name: p.Name(), pos: p.Pos()})
			r.owner, r.tname = fa.c.ownerOf(p.Type())
			fa.alias[p] = []int{r.id}
		}
	}
	for i, fv := range fn.FreeVars {
		t := fv.Type()
		if fa.c.tracked(t) {
			// Captured by value, as the receiver of a method value.
			r := fa.newResource(&resource{param: i, freeVar: true, name: fv.Name(), pos: fv.Pos()})
			r.owner, r.tname = fa.c.ownerOf(t)
			fa.alias[fv] = []int{r.id}
		} else if p, ok := types.Unalias(t).(*types.Pointer); ok && fa.c.tracked(p.Elem()) {
			r := fa.newResource(&resource{param: i, freeVar: true, name: fv.Name(), pos: fv.Pos()})
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
				} else if fa.isCell(instr) {
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
	return namedOf(recv.Type()) != nil && namedOf(a.Type()) != nil &&
		namedOf(recv.Type()).Origin() == namedOf(a.Type()).Origin()
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
	case isDeviceFunc(obj, "Alloc") || isDeviceFunc(obj, "Upload"):
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
			if n := namedOf(recv.Type()); n != nil {
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
		r := fa.newResource(&resource{param: -1, pos: call.Pos(), from: from, call: call})
		if v != nil {
			r.name = fa.varName(v)
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
					if cell := fa.cellOf(v.Addr); cell != nil {
						if u, c := union(fa.contents[cell], fa.alias[v.Val]); c {
							fa.contents[cell] = u
							changed = true
						}
					}
				case *ssa.UnOp:
					if v.Op != token.MUL {
						continue
					}
					if cell := fa.cellOf(v.X); cell != nil {
						if st := fa.reachingStore(v, v.X); st != nil {
							add(v, fa.alias[st.Val])
						} else {
							add(v, fa.ofKind(v.Type(), fa.contents[cell]))
						}
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
				case *ssa.Slice:
					if fa.cells[v.X] {
						add(v, fa.contents[v.X])
					}
				}
			}
		}
	}
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
	buf := isBuffer(t)
	var out []int
	for _, id := range ids {
		if (fa.res[id].owner == nil) == buf {
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
	b := load.Block()
	instrs := b.Instrs
	for i := range instrs {
		if instrs[i] == load {
			instrs = instrs[:i]
			break
		}
	}
	for steps := 0; steps < 64; steps++ {
		for i := len(instrs) - 1; i >= 0; i-- {
			switch in := instrs[i].(type) {
			case *ssa.Store:
				if in.Addr == addr {
					return in
				}
			case ssa.CallInstruction:
				// A call of a function literal may store into the cell.
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
	return fa.alias[v]
}

// --- the dataflow ----------------------------------------------------------

func (fa *funcAnalysis) entryState() flowState {
	st := make(flowState, len(fa.res))
	for _, r := range fa.res {
		if r.param >= 0 {
			st[r.id].bits = live
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
			if old, ok := fa.in[e.to]; !ok {
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
	fa.done = true
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
		return []edge{{b.Succs[0], t}, {b.Succs[1], f}}
	case *ssa.Jump:
		return []edge{{b.Succs[0], st}}
	}
	return nil
}

// refine applies what a branch condition says about nil-ness: on the edge
// where the error result of an allocating call is non-nil, or where a
// buffer is nil, the buffer needs no release.
func (fa *funcAnalysis) refine(cond ssa.Value, t, f flowState) {
	fa.refineGuards(cond, t, f)
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
	toNil := func(s flowState, ids []int) {
		for _, id := range ids {
			if s[id].bits&live != 0 {
				s[id].bits = s[id].bits&^live | isNil
			}
		}
	}
	if ids := fa.errorOf(x, 0); len(ids) > 0 {
		toNil(errEdge, ids)
		return
	}
	if ids := fa.alias[x]; len(ids) == 1 {
		toNil(nilEdge, ids)
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
	effDeferFree
)

// transfer applies one instruction to st; it returns false when the path
// ends at the instruction without returning.
func (fa *funcAnalysis) transfer(instr ssa.Instruction, st flowState, final bool) bool {
	switch in := instr.(type) {
	case *ssa.Panic:
		return false
	case *ssa.Alloc:
		for _, id := range fa.created[in] {
			st[id] = resState{bits: empty} // a new struct value; it owns nothing yet
		}
	case *ssa.Call:
		obj := calleeObj(in.Call.StaticCallee())
		fa.call(in, in.Common(), st, final, false, false)
		if ids := fa.created[in]; len(ids) > 0 {
			for _, id := range ids {
				if st[id].bits&live != 0 && final {
					r := fa.res[id]
					fa.reportf(in.Pos(), "%s is not %s before it is allocated again at line %d",
						fa.origin(r), r.freed(), fa.line(in.Pos()))
				}
				st[id] = resState{bits: live}
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
		fa.store(in, st, final)
	case *ssa.Send:
		fa.apply(st, fa.alias[in.X], effEscape, in.Pos(), "a channel send", final)
	case *ssa.Select:
		for _, s := range in.States {
			if s.Send != nil {
				fa.apply(st, fa.alias[s.Send], effEscape, s.Pos, "a channel send", final)
			}
		}
	case *ssa.MapUpdate:
		fa.apply(st, fa.alias[in.Key], effEscape, in.Pos(), "a map update", final)
		fa.apply(st, fa.alias[in.Value], effEscape, in.Pos(), "a map update", final)
	case *ssa.MakeClosure:
		if !onlyCalled(in) {
			for _, b := range in.Bindings {
				fa.apply(st, fa.contentsOrAlias(b), effEscape, in.Pos(), "a function literal", final)
			}
		}
	case *ssa.Return:
		fa.ret(in, st, final)
	}
	return true
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
	if fa.cellOf(in.Addr) != nil {
		return
	}
	ids := fa.alias[in.Val]
	if fa.storesIntoOwnedField(in) {
		owners := fa.alias[in.Addr.(*ssa.FieldAddr).X]
		holds := len(ids) > 0
		if call, ok := in.Val.(*ssa.Call); ok && !holds {
			if _, isBuiltin := call.Call.Value.(*ssa.Builtin); isBuiltin {
				for _, a := range call.Call.Args {
					holds = holds || len(fa.argAliases(a)) > 0 || len(fa.contentsOrAlias(a)) > 0
				}
			}
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
	fa.apply(st, ids, effEscape, in.Pos(), "a store", final)
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

// ret handles a return: results are handed to the caller; whatever else is
// still live leaks on this path.
func (fa *funcAnalysis) ret(in *ssa.Return, st flowState, final bool) {
	var returned []int
	for k, v := range in.Results {
		ids := fa.alias[v]
		if final && fa.building != nil {
			for _, id := range ids {
				r := fa.res[id]
				if r.param < 0 && st[id].bits&live != 0 && k < 64 {
					fa.building.returns |= 1 << k
				}
			}
		}
		returned = append(returned, ids...)
	}
	fa.apply(st, returned, effEscape, in.Pos(), "the return", final)
	if !final {
		return
	}
	for _, r := range fa.res {
		s := st[r.id]
		if r.param >= 0 {
			fa.summarizeParam(r, s.bits)
			continue
		}
		if s.bits&live != 0 {
			if in.Pos().IsValid() {
				fa.reportAt(in.Pos(), fmt.Sprintf("%s is not %s on the return at line %d",
					fa.origin(r), r.freed(), fa.line(in.Pos())))
			} else {
				end := fa.endPos()
				fa.reportAt(end, fmt.Sprintf("%s is not %s before the function ends at line %d",
					fa.origin(r), r.freed(), fa.line(end)))
			}
		}
	}
}

func (fa *funcAnalysis) summarizeParam(r *resource, bits uint8) {
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

// call applies a call (or defer, or go) to the resources it receives.
func (fa *funcAnalysis) call(instr ssa.Instruction, common *ssa.CallCommon, st flowState, final, isDefer, isGo bool) {
	pos := common.Pos()
	if !pos.IsValid() {
		pos = instr.Pos()
	}
	do := func(ids []int, e effect, what string) {
		if isGo && e != effNone {
			e = effEscape
		}
		if isDefer {
			switch e {
			case effFree, effEscape:
				e = effDeferFree
			default:
				return // a deferred use happens at the end
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
		e := effUse
		if b.Name() == "append" || b.Name() == "copy" {
			e = effEscape
		}
		for _, a := range common.Args {
			do(fa.argAliases(a), e, b.Name())
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
	case isMethodOf(obj, "Buffer"):
		e := effUse
		if name == "Free" {
			e = effFree
		}
		do(fa.argAliases(common.Args[0]), e, name)
		do(fa.fieldUses(common.Args[0]), effUse, name)
		return
	case isMethodOf(obj, "Device"):
		for _, a := range common.Args {
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
		wasFreed := s.bits&freed != 0
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
			} else if one && s.bits&deferred != 0 {
				fa.reportAt(pos, fmt.Sprintf("%s is freed twice: %s at line %d, and again by the deferred %s at line %d",
					r.label(), what, fa.line(pos), r.freeName(), fa.line(s.deferPos)))
			}
			if s.bits&(live|escaped|freed|empty) != 0 {
				s.bits = s.bits&^(live|escaped|empty) | freed
				s.freePos, s.freeBy = pos, ""
				if what != r.freeName() {
					s.freeBy = what
				}
			}
		case effDeferFree:
			if one && wasFreed {
				fa.reportAt(pos, fmt.Sprintf("%s is freed twice: the deferred %s at line %d runs after %s",
					r.label(), what, fa.line(pos), fa.freedAt(r, s)))
			}
			if s.bits&(live|escaped|empty) != 0 {
				s.bits = s.bits&^(live|escaped|empty) | deferred
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
