package races_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/internal/kernelssa"
	"github.com/gpukvet/gpukvet/internal/twothread"
	"github.com/gpukvet/gpukvet/races"
	"github.com/gpukvet/gpukvet/uniformity"
)

// scaleKernel writes the source of a kernel with n shared-memory accesses
// in one barrier interval, as code generators and unrolled loops write it:
// n/2 straight-line writes s[tid+256*j] followed by n/2 reads of other
// slots of the thread's own column (shape "strided"), or of its own row
// s[tid*w+j] (shape "rows"). racy shifts the last read to the next
// thread's slot.
func scaleKernel(name, shape string, n int, racy bool) string {
	w := n / 2
	var b strings.Builder
	fmt.Fprintf(&b, "// %s has %d shared-memory accesses in one barrier interval.\n//\n//gpu:kernel block=256 grid=1\n", name, 2*w)
	fmt.Fprintf(&b, "func %s(t gpu.Thread, in, out []float32) {\n\ts := gpu.Shared[[%d]float32](t)\n\ttid := t.ThreadIdx().X\n\tv := in[tid]\n", name, 256*w+1)
	idx := func(j int) string {
		switch shape {
		case "rows":
			return fmt.Sprintf("tid*%d+%d", w, j)
		case "modulo":
			// Not affine: every pair goes to the solver.
			return fmt.Sprintf("(tid+%d)%%256+%d", j, 256*j)
		}
		return fmt.Sprintf("tid+%d", 256*j)
	}
	for j := 0; j < w; j++ {
		fmt.Fprintf(&b, "\ts[%s] = v + %d\n", idx(j), j)
	}
	b.WriteString("\tvar acc float32\n")
	for j := 0; j < w; j++ {
		r := idx((j + 1) % w)
		if racy && j == w-1 {
			r += "+1" // the next thread's slot
			if shape == "rows" {
				r += fmt.Sprintf("+%d", w-1)
			}
		}
		fmt.Fprintf(&b, "\tacc += s[%s]\n", r)
	}
	b.WriteString("\tt.Barrier()\n\tout[tid] = acc\n}\n\n")
	return b.String()
}

type scaleCase struct {
	name  string
	shape string
	n     int
	racy  bool
}

// loadScale writes the kernels into a temporary package of this module
// and returns each kernel's races check as a function.
func loadScale(tb testing.TB, cases []scaleCase) map[string]func() []races.Race {
	tb.Helper()
	dir, err := os.MkdirTemp("testdata", "scale")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	var src strings.Builder
	src.WriteString("package scale\n\nimport \"github.com/gpukvet/gpukvet/gpu\"\n\n")
	for _, c := range cases {
		src.WriteString(scaleKernel(c.name, c.shape, c.n, c.racy))
	}
	if err := os.WriteFile(filepath.Join(dir, "scale.go"), []byte(src.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadSyntax}, "./"+dir)
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		tb.Fatalf("loading the generated kernels: %v", err)
	}
	g, err := checker.Analyze([]*analysis.Analyzer{kernels.Analyzer, kernelssa.Analyzer, uniformity.Analyzer}, pkgs, nil)
	if err != nil {
		tb.Fatal(err)
	}
	var kres *kernels.Result
	var s *kernelssa.SSA
	var uni *uniformity.Result
	for _, act := range g.Roots {
		switch r := act.Result.(type) {
		case *kernels.Result:
			kres = r
		case *kernelssa.SSA:
			s = r
		case *uniformity.Result:
			uni = r
		}
	}
	out := map[string]func() []races.Race{}
	for _, k := range kres.Kernels {
		fn, shape := s.Func(k.Func), twothread.ShapeOf(k)
		out[k.Func.Name()] = func() []races.Race { return races.Check(s.Pkg.Prog.Fset, fn, shape, uni) }
	}
	return out
}

// TestScale checks the verdicts on kernels with 1000 shared-memory
// accesses in one barrier interval (BenchmarkScale times them).
func TestScale(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	cases := []scaleCase{
		{"Strided1000", "strided", 1000, false},
		{"Strided1000Racy", "strided", 1000, true},
		{"Rows1000", "rows", 1000, false},
		{"Rows1000Racy", "rows", 1000, true},
	}
	undecided := scaleCase{"Modulo400", "modulo", 400, false}
	ks := loadScale(t, append(cases, undecided))
	for _, c := range cases {
		rs := ks[c.name]()
		if got := len(rs) > 0; got != c.racy {
			t.Errorf("%s: got %v, want racy=%v", c.name, rs, c.racy)
		}
	}
	// Past the pair budget the kernel is reported as undecided, not passed.
	rs := ks[undecided.name]()
	if len(rs) != 1 || !strings.Contains(rs[0].Message, "could not decide whether kernel Modulo400 is free of data races") {
		t.Errorf("%s: got %v, want one 'could not decide' diagnostic", undecided.name, rs)
	}
}

// BenchmarkScale times the races check against the number of
// shared-memory accesses in one barrier interval (bench/races.txt):
//
//	go test ./races -run '^$' -bench Scale -benchtime 1x
func BenchmarkScale(b *testing.B) {
	var cases []scaleCase
	for _, shape := range []string{"strided", "rows"} {
		for _, n := range []int{125, 250, 500, 1000, 2000} {
			cases = append(cases, scaleCase{fmt.Sprintf("S%s%d", shape, n), shape, n, false})
		}
	}
	ks := loadScale(b, cases)
	for _, c := range cases {
		b.Run(fmt.Sprintf("%s/accesses=%d", c.shape, c.n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				ks[c.name]()
			}
		})
	}
}
