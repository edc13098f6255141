package ownership

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/kernelssa"
)

// A checker holds what is known about the package under analysis.
type checker struct {
	pass   *analysis.Pass
	ssa    *kernelssa.SSA
	owners map[*types.TypeName]*OwnerFact // owning struct types of this package
	funcs  map[*ssa.Function]*funcAnalysis
	// freedFields are the buffer fields the package frees through
	// (grow.go); nil until first asked.
	freedFields map[*types.Var]bool
	// paramFrees caches paramFieldFrees.
	paramFrees map[*ssa.Function]map[int][]string
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
	alloc *ssa.Alloc // the struct literal or variable, for owners
	// param is the index of the parameter (or, with freeVar, of the
	// captured variable) this pseudo-resource stands for; -1 otherwise.
	param   int
	freeVar bool
	coll    bool // a slice of buffers
	// elemFields are, for a collection of plain structs, the buffer
	// fields of its element type (bufferPaths).
	elemFields []string
	result     int // for a resource a call creates: which of its results
}

func (r *resource) what() string {
	if r.coll {
		return "buffers"
	}
	if r.owner != nil {
		return r.tname + " value"
	}
	return "buffer"
}

func (r *resource) isAre() string {
	if r.coll {
		return "are"
	}
	return "is"
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
	if r.coll {
		name := r.name
		if name == "" {
			name = "a slice"
		}
		return fmt.Sprintf("the buffers held in %s from line %d", name, fa.line(r.pos))
	}
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
	live        uint16 = 1 << iota // created, still the function's to release
	freed                          // released
	escaped                        // handed on
	isNil                          // nil on this path (error branch)
	deferred                       // a deferred call will release it
	empty                          // a struct of an owning type that holds nothing yet
	deferFreed                     // with deferred: the deferred call certainly frees it
	deferCell                      // with deferred: a deferred literal reads the variable that holds it at exit
	freedTwice                     // freed while a deferred call will free it too
	deferUse                       // a deferred call uses it at exit
	freedInLast                    // freed in a loop's last-iteration region (lastiter.go)
	freedLast                      // freed if this iteration is the loop's last (lastiter.go)
)

type resState struct {
	bits     uint16
	freePos  token.Pos // a Free on some path, for messages
	freeBy   string    // what freed it there: "" for the Free (or Close) method, else "a call to f"
	deferPos token.Pos
	twicePos token.Pos // the Free that a deferred Free repeats
	twiceBy  string
	usePos   token.Pos // a deferred use, for messages
	useBy    string
	// heldBy is 1 + the id of the struct of an owning type whose owned
	// field holds this buffer (stored there on every path), -1 where
	// paths disagree, 0 for none: closing that struct frees the buffer.
	heldBy    int
	heldField int // the owned field that holds it
	// sharedBy is 1 + the id of a second struct of an owning type whose
	// owned field holds it too (closing both frees it twice); -1 where
	// paths disagree, 0 for none.
	sharedBy int
	// heldFields has bit f set where owned field f of this struct (of an
	// owning type) may hold a buffer it must release (fields.go);
	// fieldPos is where one was stored, for messages.
	heldFields uint64
	fieldPos   token.Pos
	// heldElems has bit k set where element k of a collection that is a
	// local array of buffers, or a slice of them indexed as made, may hold
	// a buffer it must release, and
	// namedElems where the buffer was stored under the constant index k
	// (arrays.go).
	heldElems, namedElems uint64
	// filledAt is the call that made a struct of an owning type that held
	// nothing hold buffers (filled), for the branch where it failed.
	filledAt token.Pos
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
		if s[i].usePos == token.NoPos {
			s[i].usePos, s[i].useBy = t[i].usePos, t[i].useBy
		}
		if s[i].twicePos == token.NoPos {
			s[i].twicePos, s[i].twiceBy = t[i].twicePos, t[i].twiceBy
		}
		if nf := s[i].heldFields | t[i].heldFields; nf != s[i].heldFields {
			s[i].heldFields = nf
			changed = true
		}
		if ne, nn := s[i].heldElems|t[i].heldElems, s[i].namedElems|t[i].namedElems; ne != s[i].heldElems || nn != s[i].namedElems {
			s[i].heldElems, s[i].namedElems = ne, nn
			changed = true
		}
		if s[i].fieldPos == token.NoPos {
			s[i].fieldPos = t[i].fieldPos
		}
		if s[i].filledAt == token.NoPos {
			s[i].filledAt = t[i].filledAt
		}
		if s[i].sharedBy != t[i].sharedBy && s[i].sharedBy != -1 {
			s[i].sharedBy = -1
			changed = true
		}
		if (s[i].heldBy != t[i].heldBy || s[i].heldField != t[i].heldField) && s[i].heldBy != -1 {
			s[i].heldBy = -1
			changed = true
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
	// fields: what the function does to the owned fields of its
	// parameters of owning types, by parameter (fields.go).
	fields map[int]*fieldSum
	// resultFields: for each result that is a new struct of an owning
	// type, the owned fields that may hold a buffer at a return.
	resultFields map[int]uint64
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
	// cellFields and structFields follow the fields of local struct
	// variables and of struct values one by one.
	cellFields     map[ssa.Value]map[int][]int
	structFields   map[ssa.Value]map[int][]int
	created        map[ssa.Instruction][]int // resources created by an instruction
	in             map[*ssa.BasicBlock]flowState
	elemFreed      map[int]bool              // collections whose elements the function frees
	collElems      map[int][]int             // buffers appended or stored into each collection
	elemFreeBlocks map[int][]*ssa.BasicBlock // where it frees them
	loopExit       map[*ssa.BasicBlock]int   // loop header -> index of its exit successor, or -1
	// fields maps a buffer read from an owned field of a struct of an
	// owning type to that struct: using it uses the struct.
	fields map[ssa.Value][]int
	guards [][]guard // per resource: conditions its creation requires
	inLoop map[*ssa.BasicBlock]bool
	// lastByRegion and lastByHeader index the counted loops with a
	// last-iteration test (lastiter.go) by that test's region and by
	// their header.
	lastByRegion, lastByHeader map[*ssa.BasicBlock]*lastLoop
	sum                        *summary // set when the analysis is complete
	building                   *summary // the summary being computed by finalPass
	diags                      []analysis.Diagnostic
	seen                       map[string]bool
	// cur is the instruction transfer is applying; createdBy maps a
	// resource to the instruction that creates it (see staleIn).
	cur       ssa.Instruction
	createdBy map[int]ssa.Instruction
	// keys numbers the constant map keys of the function (maps.go).
	keys map[string]int
}

// analyze returns the analysis of fn, computing it (and the summaries of the
// package's functions it calls) the first time.
func (c *checker) analyze(fn *ssa.Function) *funcAnalysis {
	if fa := c.funcs[fn]; fa != nil {
		return fa // done, or in progress on a recursive call: sum is nil
	}
	fa := &funcAnalysis{c: c, fn: fn, alias: map[ssa.Value][]int{}, cells: map[ssa.Value]bool{},
		contents: map[ssa.Value][]int{}, created: map[ssa.Instruction][]int{}, in: map[*ssa.BasicBlock]flowState{},
		fields: map[ssa.Value][]int{}, cellFields: map[ssa.Value]map[int][]int{}, structFields: map[ssa.Value]map[int][]int{},
		seen: map[string]bool{}}
	c.funcs[fn] = fa
	if len(fn.Blocks) == 0 {
		fa.sum = &summary{}
		return fa
	}
	fa.findResources()
	fa.findCollections()
	fa.findGuards()
	fa.findLastLoops()
	fa.computeAliases()
	fa.finishCollections()
	fa.solve()
	fa.sum = fa.finalPass()
	fa.checkGrownFields()
	return fa
}

func (c *checker) report(fa *funcAnalysis) {
	for _, d := range fa.diags {
		c.pass.Report(d)
	}
}
