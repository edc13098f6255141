package uniformity_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
	"github.com/gpukvet/gpukvet/uniformity"
)

// BenchmarkCorpusWorst analyses each kernel of the divergence corpus
// (testdata/corpus/divergence) on its own and reports the slowest: the
// least time each kernel took over the iterations (the machine's noise
// only adds), then the greatest of those over the kernels.
func BenchmarkCorpusWorst(b *testing.B) {
	root := analysistestdata.GOPATH(b)
	dst := filepath.Join(root, "src", "divcorpus")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		b.Fatal(err)
	}
	names, _ := filepath.Glob("../testdata/corpus/divergence/*.go")
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(name)), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  dst,
		Env:  append(os.Environ(), "GOPATH="+root, "GO111MODULE=off", "GOPROXY=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, "divcorpus")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		b.Fatalf("load: %v", err)
	}
	least := map[string]time.Duration{}
	timed := &analysis.Analyzer{
		Name:      "uniformitytimed",
		Doc:       "uniformity, timing each kernel",
		Requires:  []*analysis.Analyzer{kernels.Analyzer, kernelssa.Analyzer},
		FactTypes: uniformity.Analyzer.FactTypes,
		Run: func(pass *analysis.Pass) (any, error) {
			uniformity.TimeKernels(pass, func(fn *ssa.Function, d time.Duration) {
				k := fn.String()
				if old, ok := least[k]; !ok || d < old {
					least[k] = d
				}
			})
			return nil, nil
		},
	}
	for b.Loop() {
		if _, err := checker.Analyze([]*analysis.Analyzer{timed}, pkgs, nil); err != nil {
			b.Fatal(err)
		}
	}
	var worst, total time.Duration
	var which string
	for k, d := range least {
		total += d
		if d > worst {
			worst, which = d, k
		}
	}
	b.ReportMetric(float64(worst.Nanoseconds()), "worst-ns/kernel")
	b.ReportMetric(float64(total.Nanoseconds())/float64(len(least)), "mean-ns/kernel")
	b.ReportMetric(float64(len(least)), "kernels")
	b.Logf("slowest: %s (%v)", which, worst)
}
