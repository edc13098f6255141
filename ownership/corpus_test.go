package ownership_test

import (
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/internal/corpustest"
	"github.com/gpukvet/gpukvet/ownership"
)

// The verdict corpus lives in testdata/corpus/ownership at the repository
// root. Print its report with
//
//	go test ./ownership -run TestCorpus -v
//
// and rewrite testdata/corpus/ownership/REPORT.md with
//
//	go test ./ownership -run TestCorpus -update
const corpusDir = "../testdata/corpus/ownership"

// corpusGOPATH lays out a GOPATH tree holding the stub gpu and device
// packages and the corpus.
func corpusGOPATH(tb testing.TB) string {
	return analysistestdata.GOPATH(tb, corpusDir)
}

// quiet is an analysistest.Testing that ignores the missing "// want"
// comments: the corpus is scored by its verdicts instead.
type quiet struct{}

func (quiet) Errorf(string, ...any) {}

type program struct {
	name, file string
	line       int
	want       string   // leak, uaf, doublefree or clean
	known      string   // the doc's "known miss:" or "known false positive:" mark, if any
	got        []string // kinds reported inside it
	msgs       []string
}

// kind classifies a diagnostic.
func kind(msg string) string {
	switch {
	case strings.Contains(msg, "freed twice"):
		return "doublefree"
	case strings.Contains(msg, " after "):
		return "uaf"
	case strings.Contains(msg, "not freed"), strings.Contains(msg, "not closed"):
		return "leak"
	}
	return "other"
}

func TestCorpus(t *testing.T) {
	results := analysistest.Run(quiet{}, corpusGOPATH(t), ownership.Analyzer, "corpus")
	var progs []*program
	for _, res := range results {
		if res.Err != nil {
			t.Fatalf("corpus: %v", res.Err)
		}
		fset := res.Pass.Fset
		for _, f := range res.Pass.Files {
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Doc == nil {
					continue
				}
				_, verdict, ok := strings.Cut(fd.Doc.Text(), "verdict: ")
				if !ok {
					continue
				}
				pos := fset.Position(fd.Pos())
				p := &program{name: fd.Name.Name, file: filepath.Base(pos.Filename), line: pos.Line,
					want: strings.TrimSpace(strings.SplitN(verdict, "\n", 2)[0]), known: knownMark(fd.Doc.Text())}
				for _, d := range res.Diagnostics {
					if d.Pos >= fd.Pos() && d.Pos <= fd.End() {
						p.got = append(p.got, kind(d.Message))
						p.msgs = append(p.msgs, fmt.Sprintf("line %d: %s", fset.Position(d.Pos).Line, d.Message))
					}
				}
				progs = append(progs, p)
			}
		}
	}
	if len(progs) < 40 {
		t.Fatalf("corpus has %d programs, want at least 40", len(progs))
	}
	report, sc := score(progs)
	corpustest.Report(t, filepath.Join(corpusDir, "REPORT.md"), "", report)
	for _, p := range progs {
		checkMark(t, p)
	}
	sc.Check(t, ownershipFloor)
}

// ownershipFloor is the score the corpus had when it was last set (issue
// 20 after round 11: 303 programs, 159 buggy; TP 159, FP 0, FN 0). Round 9's
// h13MonteCarloPlans and round 10's collections of plain structs holding
// buffers are followed, so no program is marked: a new false alarm or miss
// falls below it. A miss or false alarm left by a later round is marked
// "known miss" or "known false positive" in its program's doc; raise the
// floor again when one is fixed.
var ownershipFloor = corpustest.Floor{Precision: 1, Recall: 1}

// knownMark returns the "known miss" or "known false positive" mark of a
// program's doc, or "".
func knownMark(doc string) string {
	for _, m := range []string{"known miss", "known false positive"} {
		if strings.Contains(doc, m+":") {
			return m
		}
	}
	return ""
}

// checkMark fails t when p's outcome differs from its verdict without a
// mark saying so, or carries a mark that no longer holds.
func checkMark(t *testing.T, p *program) {
	t.Helper()
	kinds := map[string]bool{}
	for _, k := range p.got {
		kinds[k] = true
	}
	missed := p.want != "clean" && !kinds[p.want]
	extra := false
	for k := range kinds {
		extra = extra || k != p.want
	}
	switch {
	case missed && p.known != "known miss":
		t.Errorf("%s (%s): the %s is not reported; diagnostics: %v", p.name, p.file, p.want, p.msgs)
	case extra && p.known != "known false positive":
		t.Errorf("%s (%s, %s): false positive: %v", p.name, p.file, p.want, p.msgs)
	case p.known == "known miss" && !missed, p.known == "known false positive" && !extra:
		t.Errorf("%s (%s) is marked %q but that no longer holds: remove the mark and raise ownershipFloor", p.name, p.file, p.known)
	}
}

// score counts, per program, a true positive when the expected bug is
// reported, a false negative when it is not, and a false positive for a
// report in a clean program or of another kind than the program's bug.
func score(progs []*program) (report string, sc corpustest.Score) {
	sort.Slice(progs, func(i, j int) bool {
		if progs[i].file != progs[j].file {
			return progs[i].file < progs[j].file
		}
		return progs[i].line < progs[j].line
	})
	var tp, fp, fn, tn, buggy, clean int
	var b strings.Builder
	b.WriteString("# ownership verdict corpus\n\n")
	b.WriteString("Generated by `go test ./ownership -run TestCorpus -update`;\n")
	b.WriteString("`go test ./ownership -run TestCorpus -v` prints the same report.\n\n")
	b.WriteString("Each program is one function of testdata/corpus/ownership/src/corpus, marked\n")
	b.WriteString("`// verdict: leak|uaf|doublefree|clean`; the buggy ones hold exactly that bug.\n")
	b.WriteString("A buggy program is a true positive when a diagnostic of its kind is reported\n")
	b.WriteString("inside it (else a false negative); every diagnostic kind reported in a clean\n")
	b.WriteString("program, or of another kind in a buggy one, is a false positive.\n\n")
	b.WriteString("| program | file | expected | reported | outcome |\n| --- | --- | --- | --- | --- |\n")
	for _, p := range progs {
		kinds := map[string]bool{}
		for _, k := range p.got {
			kinds[k] = true
		}
		outcome := ""
		if p.want == "clean" {
			clean++
			if len(kinds) == 0 {
				tn++
				outcome = "TN"
			} else {
				fp += len(kinds)
				outcome = "FP"
			}
		} else {
			buggy++
			if kinds[p.want] {
				tp++
				outcome = "TP"
			} else {
				fn++
				outcome = "FN"
			}
			for k := range kinds {
				if k != p.want {
					fp++
					outcome += "+FP"
				}
			}
		}
		got := strings.Join(sortedKeys(kinds), ",")
		if got == "" {
			got = "-"
		}
		fmt.Fprintf(&b, "| %s | %s:%d | %s | %s | %s |\n", p.name, p.file, p.line, p.want, got, outcome)
	}
	sc = corpustest.Score{TP: tp, FP: fp, FN: fn, TN: tn}
	precision, recall := sc.Precision(), sc.Recall()
	fmt.Fprintf(&b, "\n%d programs: %d buggy, %d clean. TP %d, FP %d, FN %d.\n", len(progs), buggy, clean, tp, fp, fn)
	fmt.Fprintf(&b, "Precision %.3f, recall %.3f.\n", precision, recall)
	b.WriteString("\n## Diagnostics\n\n")
	for _, p := range progs {
		for _, m := range p.msgs {
			fmt.Fprintf(&b, "- %s (%s): %s\n", p.name, p.want, m)
		}
	}
	return b.String(), sc
}

func sortedKeys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// BenchmarkCorpus measures the analysis of the corpus packages (discovery,
// SSA construction and the ownership check; loading and type checking are
// done once, outside the loop).
func BenchmarkCorpus(b *testing.B) {
	pkgs := loadCorpusPackages(b)
	// Time spent per analyzer, summed over the corpus packages.
	per := map[string]time.Duration{}
	b.ResetTimer()
	for b.Loop() {
		g, err := checker.Analyze([]*analysis.Analyzer{ownership.Analyzer}, pkgs, nil)
		if err != nil {
			b.Fatal(err)
		}
		for act := range g.All() {
			if p := act.Package.PkgPath; p == "corpus" || p == "corpus/lib" {
				per[act.Analyzer.Name] += act.Duration
			}
		}
	}
	const programs = 244 // the verdict programs of the corpus (REPORT.md)
	n := float64(b.N)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n/programs, "ns/program")
	b.ReportMetric(float64(per["kernelssa"].Nanoseconds())/n, "ssa-ns/op")
	b.ReportMetric(float64(per["ownership"].Nanoseconds())/n, "ownership-ns/op")
	b.ReportMetric(float64(per["ownership"].Nanoseconds())/n/programs, "ownership-ns/program")
}

// BenchmarkCorpusWorst measures the analysis of each function of the corpus
// on its own and reports the slowest: the least time each function took
// over the iterations (the machine's noise only adds), then the greatest of
// those over the functions.
func BenchmarkCorpusWorst(b *testing.B) {
	pkgs := loadCorpusPackages(b)
	least := map[string]time.Duration{}
	timed := &analysis.Analyzer{
		Name:       "ownershiptimed",
		Doc:        "ownership, timing each function",
		Requires:   ownership.Analyzer.Requires,
		FactTypes:  ownership.Analyzer.FactTypes,
		ResultType: ownership.Analyzer.ResultType,
		Run: func(pass *analysis.Pass) (any, error) {
			return ownership.TimeFuncs(pass, func(fn *ssa.Function, d time.Duration) {
				k := fn.String()
				if old, ok := least[k]; !ok || d < old {
					least[k] = d
				}
			})
		},
	}
	for b.Loop() {
		if _, err := checker.Analyze([]*analysis.Analyzer{timed}, pkgs, nil); err != nil {
			b.Fatal(err)
		}
	}
	var worst time.Duration
	var which string
	for k, d := range least {
		if d > worst {
			worst, which = d, k
		}
	}
	b.ReportMetric(float64(worst.Nanoseconds()), "worst-ns/func")
	b.ReportMetric(float64(len(least)), "funcs")
	b.Logf("slowest: %s (%v)", which, worst)
}

// loadCorpusPackages loads and type-checks the corpus packages once, for
// the benchmarks.
func loadCorpusPackages(b *testing.B) []*packages.Package {
	gopath := corpusGOPATH(b)
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  filepath.Join(gopath, "src"),
		Env:  append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOPROXY=off"),
	}
	pkgs, err := packages.Load(cfg, "corpus")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		b.Fatalf("load: %v", err)
	}
	return pkgs
}
