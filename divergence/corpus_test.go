package divergence_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/gpukvet/gpukvet/divergence"
	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/internal/corpustest"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
)

const corpusDir = "../testdata/corpus/divergence"

// corpusKernel is one kernel of the verdict corpus with what its doc
// comment says about it.
type corpusKernel struct {
	Name      string
	Divergent bool              // verdict: divergent
	Launch    map[string]string // the launch: line
	Params    []string          // parameter names after the gpu.Thread
	Line      int
}

// readCorpus parses the corpus sources for the kernels' verdicts and launch
// lines.
func readCorpus(t testing.TB) []*corpusKernel {
	t.Helper()
	fset := token.NewFileSet()
	names, _ := filepath.Glob(filepath.Join(corpusDir, "*.go"))
	var out []*corpusKernel
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil || !strings.Contains(fd.Doc.Text(), "gpu:kernel") && !hasKernelDirective(fd.Doc) {
				continue
			}
			k := &corpusKernel{Name: fd.Name.Name, Launch: map[string]string{}, Line: fset.Position(fd.Pos()).Line}
			verdict := ""
			for _, c := range fd.Doc.List {
				text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
				if v, ok := strings.CutPrefix(text, "verdict:"); ok {
					verdict = strings.TrimSpace(v)
				}
				if v, ok := strings.CutPrefix(text, "launch:"); ok {
					for _, kv := range strings.Fields(v) {
						key, val, _ := strings.Cut(kv, "=")
						k.Launch[key] = val
					}
				}
			}
			switch verdict {
			case "divergent":
				k.Divergent = true
			case "clean":
			default:
				t.Fatalf("%s: kernel %s has no `verdict: divergent` or `verdict: clean` line", fset.Position(fd.Pos()), k.Name)
			}
			for _, field := range fd.Type.Params.List[1:] {
				for _, n := range field.Names {
					k.Params = append(k.Params, n.Name)
				}
			}
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func hasKernelDirective(doc *ast.CommentGroup) bool {
	for _, c := range doc.List {
		if strings.HasPrefix(c.Text, "//gpu:kernel") {
			return true
		}
	}
	return false
}

// loadCorpus loads the corpus as a GOPATH package "divcorpus" next to the
// stub gpu package, so that loading costs next to nothing.
func loadCorpus(t testing.TB) []*packages.Package {
	t.Helper()
	root := analysistestdata.GOPATH(t)
	dst := filepath.Join(root, "src", "divcorpus")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(corpusDir, "*.go"))
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(name)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax,
		Dir:   dst,
		Env:   append(os.Environ(), "GOPATH="+root, "GO111MODULE=off", "GOPROXY=off", "GOFLAGS="),
		Tests: false,
	}
	pkgs, err := packages.Load(cfg, "divcorpus")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the corpus does not load")
	}
	return pkgs
}

// flagged runs the analyzer and returns, per kernel, the diagnostics that
// concern it: those inside it, and those inside the device functions it
// calls (directly or not).
func flagged(t testing.TB, pkgs []*packages.Package) map[string][]string {
	t.Helper()
	g, err := checker.Analyze([]*analysis.Analyzer{divergence.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Fatal(act.Err)
		}
		pkg := act.Package
		// Enclosing top-level function of each position, and the calls
		// between top-level functions.
		var decls []*ast.FuncDecl
		calls := map[string][]string{}
		for _, f := range pkg.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				decls = append(decls, fd)
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						if fn, ok := pkg.TypesInfo.Uses[id].(*types.Func); ok && fn.Pkg() == pkg.Types {
							calls[fd.Name.Name] = append(calls[fd.Name.Name], fn.Name())
						}
					}
					return true
				})
			}
		}
		reaches := func(from, to string) bool {
			seen := map[string]bool{}
			var walk func(string) bool
			walk = func(f string) bool {
				if f == to {
					return true
				}
				if seen[f] {
					return false
				}
				seen[f] = true
				for _, c := range calls[f] {
					if walk(c) {
						return true
					}
				}
				return false
			}
			return walk(from)
		}
		for _, d := range act.Diagnostics {
			var in string
			for _, fd := range decls {
				if fd.Pos() <= d.Pos && d.Pos < fd.End() {
					in = fd.Name.Name
				}
			}
			p := act.Package.Fset.Position(d.Pos)
			msg := fmt.Sprintf("%s:%d: %s", filepath.Base(p.Filename), p.Line, d.Message)
			for _, fd := range decls {
				if hasKernelDirective(docOf(fd)) && reaches(fd.Name.Name, in) {
					out[fd.Name.Name] = append(out[fd.Name.Name], msg)
				}
			}
		}
	}
	return out
}

func docOf(fd *ast.FuncDecl) *ast.CommentGroup {
	if fd.Doc == nil {
		return &ast.CommentGroup{}
	}
	return fd.Doc
}

// TestCorpus measures the analyzer against the verdicts of the corpus and
// fails below divergenceFloor. With -v it prints the report;
// with -update it rewrites REPORT.md.
func TestCorpus(t *testing.T) {
	kernels := readCorpus(t)
	got := flagged(t, loadCorpus(t))
	run := runtimeOutcomes(t, kernels)
	var tp, fp, fn, tn int
	var rows []string
	for _, k := range kernels {
		hit := len(got[k.Name]) > 0
		var outcome string
		switch {
		case k.Divergent && hit:
			tp++
			outcome = "true positive"
		case k.Divergent:
			fn++
			outcome = "**missed**"
		case hit:
			fp++
			outcome = "**false alarm**"
		default:
			tn++
			outcome = "silent, as it should be"
		}
		verdict := "clean"
		if k.Divergent {
			verdict = "divergent"
		}
		first := ""
		if hit {
			first = strings.ReplaceAll(got[k.Name][0], "|", "\\|")
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s | %s |", k.Name, verdict, outcome, run[k.Name], first))
	}
	score := corpustest.Score{TP: tp, FP: fp, FN: fn, TN: tn}
	precision, recall := score.Precision(), score.Recall()
	var b strings.Builder
	fmt.Fprintf(&b, "# divergence: verdict corpus report\n\n")
	fmt.Fprintf(&b, "Corpus: `testdata/corpus/divergence` (%d kernels: %d divergent, %d clean).\n", len(kernels), tp+fn, fp+tn)
	fmt.Fprintf(&b, "Regenerate: `go test ./divergence -run Corpus -v -update`.\n\n")
	fmt.Fprintf(&b, "| | flagged | silent |\n| --- | --- | --- |\n| divergent | %d | %d |\n| clean | %d | %d |\n\n", tp, fn, fp, tn)
	fmt.Fprintf(&b, "Precision %.1f%%, recall %.1f%%.\n\n", 100*precision, 100*recall)
	fmt.Fprintf(&b, "The cpu backend column is the run-time cross-check (TestCorpusRuntime): each kernel launched as its\n")
	fmt.Fprintf(&b, "`launch:` line says; a divergent kernel must stop with the backend's barrier error (or its trap), a clean one run.\n\n")
	fmt.Fprintf(&b, "| kernel | verdict | analyzer | cpu backend | first diagnostic |\n| --- | --- | --- | --- | --- |\n")
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
	corpustest.Report(t, filepath.Join(corpusDir, "REPORT.md"), "", b.String())
	if len(kernels) < 40 || tp+fn < 20 || fp+tn < 20 {
		t.Errorf("the corpus has %d kernels (%d divergent, %d clean); it needs at least 40, half of each", len(kernels), tp+fn, fp+tn)
	}
	score.Check(t, divergenceFloor)
}

// divergenceFloor is the score the corpus had when it was last raised
// (issue 20: 118 kernels, 56 divergent; TP 56, FP 0, FN 0): a new false
// alarm or miss falls below it.
var divergenceFloor = corpustest.Floor{Precision: 1, Recall: 1}

// BenchmarkCorpus measures the analysis of the whole corpus, loaded once,
// and reports the time per kernel: "ssa" runs kernel discovery and the SSA
// build alone, "divergence" adds the uniformity analysis and the check, so
// the difference is what they cost.
func BenchmarkCorpus(b *testing.B) {
	pkgs := loadCorpus(b)
	n := len(readCorpus(b))
	for _, bc := range []struct {
		name string
		a    *analysis.Analyzer
	}{{"ssa", kernelssa.Analyzer}, {"divergence", divergence.Analyzer}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := checker.Analyze([]*analysis.Analyzer{bc.a}, pkgs, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n)/1e3, "µs/kernel")
			b.ReportMetric(float64(n), "kernels")
		})
	}
}
