package races_test

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/corpustest"
	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
	"github.com/gpukvet/gpukvet/internal/twothread"
	"github.com/gpukvet/gpukvet/races"
	"github.com/gpukvet/gpukvet/uniformity"
)

const corpusPkg = "github.com/gpukvet/gpukvet/testdata/corpus/races"

// corpusKernel is one kernel of the verdict corpus.
type corpusKernel struct {
	name string
	racy bool // the expected verdict
	// knownFP: a clean kernel the analysis is known to flag, with the
	// reason in its doc ("known false positive: …"); counted in the score,
	// not failed.
	knownFP bool
	fn      *ssa.Function
	shape   twothread.Shape
	params  []string // parameter names after the gpu.Thread
}

var (
	corpusOnce sync.Once
	corpusErr  error
	corpus     []*corpusKernel
	corpusSSA  *kernelssa.SSA
	corpusUni  *uniformity.Result
)

// loadCorpus loads the corpus package and builds its SSA once per test
// binary, through the same analyzers the races analyzer requires.
func loadCorpus(tb testing.TB) []*corpusKernel {
	tb.Helper()
	corpusOnce.Do(func() {
		cfg := &packages.Config{Mode: packages.LoadSyntax}
		pkgs, err := packages.Load(cfg, corpusPkg)
		if err != nil {
			corpusErr = err
			return
		}
		if packages.PrintErrors(pkgs) > 0 {
			corpusErr = fmt.Errorf("corpus package has errors")
			return
		}
		g, err := checker.Analyze([]*analysis.Analyzer{kernels.Analyzer, kernelssa.Analyzer, uniformity.Analyzer}, pkgs, nil)
		if err != nil {
			corpusErr = err
			return
		}
		var kres *kernels.Result
		for _, act := range g.Roots {
			if act.Err != nil {
				corpusErr = act.Err
				return
			}
			switch r := act.Result.(type) {
			case *kernels.Result:
				kres = r
			case *kernelssa.SSA:
				corpusSSA = r
			case *uniformity.Result:
				corpusUni = r
			}
		}
		if kres == nil || corpusSSA == nil {
			corpusErr = fmt.Errorf("no analysis results for %s", corpusPkg)
			return
		}
		for _, k := range kres.Kernels {
			doc := k.Decl.Doc.Text()
			ck := &corpusKernel{name: k.Func.Name(), fn: corpusSSA.Func(k.Func), shape: twothread.ShapeOf(k)}
			switch {
			case strings.Contains(doc, "verdict: race"):
				ck.racy = true
			case strings.Contains(doc, "verdict: clean"):
			default:
				corpusErr = fmt.Errorf("kernel %s has no verdict: line", k.Func.Name())
				return
			}
			ck.knownFP = !ck.racy && strings.Contains(doc, "known false positive:")
			for _, f := range k.Decl.Type.Params.List[1:] {
				for _, n := range f.Names {
					ck.params = append(ck.params, n.Name)
				}
			}
			corpus = append(corpus, ck)
		}
	})
	if corpusErr != nil {
		tb.Fatalf("loading the corpus: %v", corpusErr)
	}
	return corpus
}

func runStatic(k *corpusKernel) []races.Race {
	return races.Check(corpusSSA.Pkg.Prog.Fset, k.fn, k.shape, corpusUni)
}

// TestCorpus measures the analysis against the corpus verdicts. It fails
// on a mismatch that is not marked "known false positive", on such a mark
// that no longer holds, and below racesFloor; with -v it prints the report, with
// -update it rewrites the "Static verdicts" section of REPORT.md:
//
//	go test ./races -run TestCorpus -v
func TestCorpus(t *testing.T) {
	ks := loadCorpus(t)
	var tp, fp, fn, tn int
	var lines []string
	for _, k := range ks {
		rs := runStatic(k)
		got := len(rs) > 0
		status := ""
		switch {
		case got && k.racy:
			tp++
		case got && !k.racy:
			fp++
			status = "FALSE POSITIVE"
		case !got && k.racy:
			fn++
			status = "MISSED"
		default:
			tn++
		}
		want := "clean"
		if k.racy {
			want = "race"
		}
		first := ""
		if len(rs) > 0 {
			first = rs[0].Message
		}
		lines = append(lines, fmt.Sprintf("| %s | %s | %d | %s | %s |", k.name, want, len(rs), status, strings.ReplaceAll(first, "|", "\\|")))
		switch {
		case status != "" && !(k.knownFP && status == "FALSE POSITIVE"):
			t.Errorf("%s: %s (expected %s); diagnostics: %v", k.name, status, want, rs)
		case k.knownFP && status == "":
			t.Errorf("%s is marked \"known false positive\" but gets no finding now: remove the mark from its doc and raise racesFloor", k.name)
		}
	}
	sort.Strings(lines)
	score := corpustest.Score{TP: tp, FP: fp, FN: fn, TN: tn}
	precision, recall := score.Precision(), score.Recall()
	report := fmt.Sprintf("kernels: %d (%d racy, %d clean)\ntrue positives %d, false positives %d, false negatives %d, true negatives %d\nprecision %.1f%%, recall %.1f%%\n\n| kernel | verdict | diagnostics | mismatch | first diagnostic |\n|---|---|---|---|---|\n%s\n",
		len(ks), tp+fn, fp+tn, tp, fp, fn, tn, 100*precision, 100*recall, strings.Join(lines, "\n"))
	corpustest.Report(t, "../testdata/corpus/races/REPORT.md", "## Static verdicts", report)
	score.Check(t, racesFloor)
}

// racesFloor is the score the corpus had when it was last set (issue 20
// after round 9, the loop instances of flags set in loops and block
// counts claimed by a global add: 365 kernels; TP 192, FP 6, FN 0). Every
// false positive it counts is marked "known false positive" in its
// kernel's doc; raise the floor when one is fixed.
var racesFloor = corpustest.Floor{Precision: 0.974, Recall: 1}
