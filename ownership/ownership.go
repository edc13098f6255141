package ownership

import (
	_ "embed"
	"fmt"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/gpukvet/gpukvet/internal/define"
	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
)

//go:embed doc.go
var doc string

// Analyzer reports device buffers that are leaked, used after Free, or freed
// twice.
var Analyzer = define.Check(&analysis.Analyzer{
	Name:       "ownership",
	Doc:        define.Doc(doc, "ownership"),
	URL:        "https://github.com/gpukvet/gpukvet/tree/main/ownership",
	Run:        run,
	Requires:   []*analysis.Analyzer{kernels.Analyzer, kernelssa.Analyzer},
	FactTypes:  []analysis.Fact{new(FuncFact), new(OwnerFact), new(APIFact)},
	ResultType: reflect.TypeFor[*Result](),
})

// FuncFact summarizes what a function does with the buffers it receives and
// returns. Parameter indexes count the receiver of a method as 0.
type FuncFact struct {
	// Returns lists the results that are new buffers (or new values of an
	// owning struct type) that the caller must free.
	Returns []int
	// Frees lists the parameters that are freed on every path that returns.
	Frees []int
	// Takes lists the parameters that the function takes ownership of on
	// some path: it frees, stores or returns them, or passes them on to a
	// function that takes them.
	Takes []int
	// Fills lists the parameters of an owning struct type into whose owned
	// fields the function stores a buffer: the caller's struct must then
	// be closed.
	Fills []int
	// Fields lists, for parameters of an owning struct type, the owned
	// fields the function stores a buffer into, and those it overwrites
	// (stores into while they may hold a buffer it did not release).
	Fields []FieldEffect
	// ResultFields lists, for results that are new structs of an owning
	// type, the owned fields that may hold a buffer.
	ResultFields []FieldEffect
}

// FieldEffect is what a function does to the owned fields of one parameter
// (or result), as bit sets of field indexes.
type FieldEffect struct {
	Index       int // the parameter, or the result
	Stored      uint64
	Overwritten uint64
}

func (*FuncFact) AFact() {}

func (f *FuncFact) String() string {
	var parts []string
	if len(f.Returns) > 0 {
		parts = append(parts, fmt.Sprintf("returns new %v", f.Returns))
	}
	if len(f.Frees) > 0 {
		parts = append(parts, fmt.Sprintf("frees %v", f.Frees))
	}
	if len(f.Takes) > 0 {
		parts = append(parts, fmt.Sprintf("takes %v", f.Takes))
	}
	if len(f.Fills) > 0 {
		parts = append(parts, fmt.Sprintf("fills %v", f.Fills))
	}
	for _, fe := range f.Fields {
		if fe.Overwritten != 0 {
			parts = append(parts, fmt.Sprintf("overwrites fields %v of %d", bits(fe.Overwritten), fe.Index))
		}
	}
	return "ownership: " + strings.Join(parts, ", ")
}

// OwnerFact marks a struct type whose Method (Close, Free or Release) frees
// the buffers held in the listed fields.
type OwnerFact struct {
	Method string
	Fields []int
}

func (*OwnerFact) AFact() {}

func (f *OwnerFact) String() string {
	return fmt.Sprintf("ownership: owns fields %v, released by %s", f.Fields, f.Method)
}

// APIFact marks a package whose API hands out or takes device buffers (it
// exports a FuncFact or an OwnerFact): a package that imports it is checked
// even if it does not import device itself.
type APIFact struct{}

func (*APIFact) AFact()         {}
func (*APIFact) String() string { return "ownership: buffer API" }

// Result is the per-function summary of the package, for analyses that want
// to reuse it (nil for a package that does not import device).
type Result struct {
	Funcs map[*types.Func]*FuncFact
}

// closeMethods are the method names that release a struct's buffers.
var closeMethods = []string{"Close", "Free", "Release"}

func run(pass *analysis.Pass) (any, error) {
	c := checkerFor(pass)
	if c == nil {
		return (*Result)(nil), nil
	}
	for _, fn := range c.ssa.SrcFuncs {
		c.report(c.analyze(fn))
	}
	return c.exportFacts(), nil
}

// checkerFor returns the checker of pass's package with its owners found,
// or nil for a package that uses no device buffers.
func checkerFor(pass *analysis.Pass) *checker {
	kres := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	if !kres.ImportsDevice && !importsBufferAPI(pass) {
		return nil
	}
	s, _ := pass.ResultOf[kernelssa.Analyzer].(*kernelssa.SSA)
	if s == nil {
		// The package uses buffers only through another package's API;
		// kernelssa skips it, so build its SSA here.
		s = kernelssa.Build(pass)
	}
	c := newChecker(pass, s)
	c.findOwners()
	return c
}

// exportFacts exports a FuncFact for every declared function with something
// to say, and returns them.
func (c *checker) exportFacts() *Result {
	res := &Result{Funcs: map[*types.Func]*FuncFact{}}
	objs := make([]*types.Func, 0, len(c.ssa.Funcs))
	for obj := range c.ssa.Funcs {
		objs = append(objs, obj)
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].Pos() < objs[j].Pos() })
	for _, obj := range objs {
		fa := c.funcs[c.ssa.Funcs[obj]]
		if fa == nil || fa.sum == nil {
			continue
		}
		f := fa.sum.fact()
		if f == nil {
			continue
		}
		res.Funcs[obj] = f
		c.pass.ExportObjectFact(obj, f)
	}
	if len(res.Funcs) > 0 || len(c.owners) > 0 {
		c.pass.ExportPackageFact(new(APIFact))
	}
	return res
}

// importsBufferAPI reports whether the package imports one with an APIFact.
func importsBufferAPI(pass *analysis.Pass) bool {
	for _, imp := range pass.Pkg.Imports() {
		if pass.ImportPackageFact(imp, new(APIFact)) {
			return true
		}
	}
	return false
}

// fact converts a summary to a FuncFact, or nil if it says nothing. Of
// what a function does to fields, a fact keeps the stores and overwrites:
// another package's function is taken to keep the fields it does not
// store into.
func (s *summary) fact() *FuncFact {
	f := &FuncFact{Returns: bits(s.returns), Frees: bits(s.frees), Takes: bits(s.takes), Fills: bits(s.fills)}
	for _, j := range sortedKeys(s.fields) {
		if fs := s.fields[j]; fs.stored|fs.overwritten != 0 {
			f.Fields = append(f.Fields, FieldEffect{Index: j, Stored: fs.stored, Overwritten: fs.overwritten})
		}
	}
	for _, k := range sortedKeys(s.resultFields) {
		if m := s.resultFields[k]; m != 0 {
			f.ResultFields = append(f.ResultFields, FieldEffect{Index: k, Stored: m})
		}
	}
	if f.Returns == nil && f.Frees == nil && f.Takes == nil && f.Fills == nil && f.Fields == nil && f.ResultFields == nil {
		return nil
	}
	return f
}

// summary converts an imported FuncFact back to a summary.
func (f *FuncFact) summary() *summary {
	s := &summary{frees: mask(f.Frees), takes: mask(f.Takes), returns: mask(f.Returns), fills: mask(f.Fills)}
	for _, fe := range f.Fields {
		s.field(fe.Index).stored = fe.Stored
		s.field(fe.Index).overwritten = fe.Overwritten
		s.field(fe.Index).kept = ^uint64(0)
	}
	for _, fe := range f.ResultFields {
		if s.resultFields == nil {
			s.resultFields = map[int]uint64{}
		}
		s.resultFields[fe.Index] = fe.Stored
	}
	return s
}

// sortedKeys returns the keys of m in increasing order.
func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}

func bits(m uint64) []int {
	var out []int
	for i := 0; i < 64; i++ {
		if m&(1<<i) != 0 {
			out = append(out, i)
		}
	}
	return out
}

func mask(is []int) uint64 {
	var m uint64
	for _, i := range is {
		if i < 64 {
			m |= 1 << i
		}
	}
	return m
}
