package memspace

import (
	_ "embed"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/gpukvet/gpukvet/internal/define"
	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
)

//go:embed doc.go
var doc string

// Analyzer reports kernel code that reaches host memory or host services,
// malformed kernels, and host code that launches kernels wrongly.
var Analyzer = define.Check(&analysis.Analyzer{
	Name:       "memspace",
	Doc:        define.Doc(doc, "memspace"),
	URL:        "https://github.com/gpukvet/gpukvet/tree/main/memspace",
	Run:        run,
	Requires:   []*analysis.Analyzer{kernels.Analyzer, kernelssa.Analyzer, budgetAnalyzer},
	FactTypes:  []analysis.Fact{new(BreaksFact)},
	ResultType: reflect.TypeFor[*Result](),
})

// BreaksFact marks an exported device function of another package that
// breaks a rule of kernel code itself or through the functions it calls, so
// that a kernel calling it is reported at the call.
type BreaksFact struct {
	What string // e.g. "uses a map"
	At   string // file:line of the violation
}

func (*BreaksFact) AFact() {}

func (f *BreaksFact) String() string { return "breaks kernel rules: " + f.What + " (" + f.At + ")" }

// Result lists, for other analyses and the codegen, the kernels and device
// functions of the package that break a rule of kernel code (directly or
// through the functions they call).
type Result struct {
	Broken map[*types.Func]bool
}

func run(pass *analysis.Pass) (any, error) {
	kres := pass.ResultOf[kernels.Analyzer].(*kernels.Result)
	if !kres.Relevant {
		return noResult, nil
	}
	for _, p := range kres.Problems {
		pass.Report(p)
	}
	for _, k := range kres.Kernels {
		checkKernelParams(pass, k)
	}
	broken := checkKernelCode(pass, kres)
	if kres.ImportsDevice {
		checkLaunches(pass, kres)
	}
	return &Result{Broken: broken}, nil
}

var noResult = &Result{}
