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
		case "loaded":
			// An index read from memory: no pair is apart by its indices.
			return fmt.Sprintf("int(in[%d])&255+%d", j, 256*j)
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

// storeKernel writes the source of a kernel whose threads each make n
// straight-line stores to global memory at affine indices, race-free:
// shape "flat" stores out[g*n+j] (g the global index), shape "tile" a
// tile of n/10 rows of 10 columns per thread of a 2-D grid, row-major in
// an array as wide as the grid's threads times 10. racy makes the last
// store go one element past the thread's own.
func storeKernel(name, shape string, n int, racy bool) string {
	last := n - 1
	if racy {
		last = n
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// %s makes %d global stores per thread.\n//\n//gpu:kernel\n", name, n)
	fmt.Fprintf(&b, "func %s(t gpu.Thread, out []float32) {\n", name)
	if shape == "flat" {
		b.WriteString("\tg := t.GlobalIdx().X\n")
		for j := 0; j < n-1; j++ {
			fmt.Fprintf(&b, "\tout[g*%d+%d] = %d\n", n, j, j)
		}
		fmt.Fprintf(&b, "\tout[g*%d+%d] = %d\n", n, last, n-1)
	} else {
		b.WriteString("\tx := t.GlobalIdx().X * 10\n\ty := t.GlobalIdx().Y * " + fmt.Sprint(n/10) + "\n\tw := t.GridDim().X * t.BlockDim().X * 10\n")
		for i := 0; i < n/10; i++ {
			for j := 0; j < 10; j++ {
				if 10*i+j == n-1 {
					j = last - 10*i // past the row's 10 columns when racy
				}
				fmt.Fprintf(&b, "\tout[(y+%d)*w+x+%d] = %d\n", i, j, 10*i+j)
			}
		}
	}
	b.WriteString("}\n\n")
	return b.String()
}

type scaleCase struct {
	name  string
	shape string // of scaleKernel, or of storeKernel with stores
	n     int
	racy  bool
	// stores makes it a storeKernel.
	stores bool
}

// loadScale writes the kernels into a temporary package of this module
// and returns each kernel's races check as a function (races.CheckCounted).
func loadScale(tb testing.TB, cases []scaleCase) map[string]func() ([]races.Race, int, int) {
	tb.Helper()
	dir, err := os.MkdirTemp("testdata", "scale")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	var src strings.Builder
	src.WriteString("package scale\n\nimport \"github.com/gpukvet/gpukvet/gpu\"\n\n")
	for _, c := range cases {
		if c.stores {
			src.WriteString(storeKernel(c.name, c.shape, c.n, c.racy))
		} else {
			src.WriteString(scaleKernel(c.name, c.shape, c.n, c.racy))
		}
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
	out := map[string]func() ([]races.Race, int, int){}
	for _, k := range kres.Kernels {
		fn, shape := s.Func(k.Func), twothread.ShapeOf(k)
		out[k.Func.Name()] = func() ([]races.Race, int, int) { return races.CheckCounted(s.Pkg.Prog.Fset, fn, shape, uni) }
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
		{"Strided1000", "strided", 1000, false, false},
		{"Strided1000Racy", "strided", 1000, true, false},
		{"Rows1000", "rows", 1000, false, false},
		{"Rows1000Racy", "rows", 1000, true, false},
	}
	// Modulo indices are not affine, but the solver separates them by
	// their index difference (races' indexFirstPairs).
	cases = append(cases, scaleCase{"Modulo400", "modulo", 400, false, false})
	ks := loadScale(t, cases)
	for _, c := range cases {
		rs, _, _ := ks[c.name]()
		if got := len(rs) > 0; got != c.racy {
			t.Errorf("%s: got %v, want racy=%v", c.name, rs, c.racy)
		}
	}
}

// TestUndecided checks that a kernel past the pair budget is reported as
// undecided, not passed, with what ran out of budget: indices read from
// memory, which no index difference sets apart.
func TestUndecided(t *testing.T) {
	ks := loadScale(t, []scaleCase{{"Loaded40", "loaded", 40, false, false}})
	defer races.SetMaxPairs(100)()
	rs, _, _ := ks["Loaded40"]()
	want := "could not decide whether kernel Loaded40 is free of data races: it needs more than 100 pairs of accesses checked (races.MaxPairs); the budget ran out among the 40 accesses to shared s (at line "
	if len(rs) != 1 || !strings.HasPrefix(rs[0].Message, want) {
		t.Errorf("got %v, want one diagnostic starting %q", rs, want)
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
			cases = append(cases, scaleCase{fmt.Sprintf("S%s%d", shape, n), shape, n, false, false})
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

// TestStores checks that straight-line kernels with a few hundred global
// stores per thread at affine indices are decided within the pair budget,
// race-free, and that one store too far is still a race
// (BenchmarkStores times them).
func TestStores(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	cases := []scaleCase{
		{"Flat400", "flat", 400, false, true},
		{"Flat400Racy", "flat", 400, true, true},
		{"Tile200", "tile", 200, false, true},
		{"Tile200Racy", "tile", 200, true, true},
	}
	ks := loadScale(t, cases)
	for _, c := range cases {
		rs, pairs, problems := ks[c.name]()
		racy := len(rs) == 1 && strings.HasPrefix(rs[0].Message, "data race on global out")
		if c.racy != racy || !c.racy && len(rs) > 0 {
			t.Errorf("%s (%d pairs asked, %d problems): got %v, want racy=%v", c.name, pairs, problems, rs, c.racy)
		}
	}
}

// BenchmarkStores times the races check against the number of
// straight-line global stores per thread, and reports the pair questions
// asked and the distinct problems solved (bench/races-stores.txt):
//
//	go test ./races -run '^$' -bench Stores -benchtime 1x
func BenchmarkStores(b *testing.B) {
	var cases []scaleCase
	for _, shape := range []string{"flat", "tile"} {
		for _, n := range []int{50, 100, 200, 400} {
			cases = append(cases, scaleCase{fmt.Sprintf("St%s%d", shape, n), shape, n, false, true})
		}
	}
	ks := loadScale(b, cases)
	for _, c := range cases {
		b.Run(fmt.Sprintf("%s/stores=%d", c.shape, c.n), func(b *testing.B) {
			var pairs, problems, found int
			for i := 0; i < b.N; i++ {
				var rs []races.Race
				rs, pairs, problems = ks[c.name]()
				found = len(rs)
			}
			b.ReportMetric(float64(pairs), "pairs")
			b.ReportMetric(float64(problems), "problems")
			b.ReportMetric(float64(found), "diagnostics")
		})
	}
}
