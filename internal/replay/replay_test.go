package replay

import (
	"go/token"
	"go/types"
	"math"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/gpukvet/gpukvet/internal/math32api"
)

var (
	kernelsOnce sync.Once
	kernelsPkg  *ssa.Package
)

// loadKernels builds the SSA of testdata/kernels, once per test binary.
func loadKernels(t *testing.T) *ssa.Package {
	t.Helper()
	kernelsOnce.Do(func() {
		pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, "./testdata/kernels")
		if err != nil || packages.PrintErrors(pkgs) > 0 {
			return
		}
		prog, spkgs := ssautil.AllPackages(pkgs, ssa.GlobalDebug|ssa.InstantiateGenerics)
		prog.Build()
		kernelsPkg = spkgs[0]
	})
	if kernelsPkg == nil {
		t.Fatal("loading testdata/kernels failed")
	}
	return kernelsPkg
}

// access returns the site of the n-th access (a load or a store; n from
// 0) at line of fn, reached through calls.
func access(t *testing.T, fn *ssa.Function, line, n int, calls ...*ssa.Call) Site {
	t.Helper()
	fset := fn.Prog.Fset
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.Store:
				if fset.Position(in.Pos()).Line == line || in.Pos() == token.NoPos && fset.Position(in.Addr.Pos()).Line == line {
					if n--; n < 0 {
						return Site{Instr: in, Calls: calls}
					}
				}
			case *ssa.UnOp:
				if in.Op == token.MUL && fset.Position(in.Pos()).Line == line {
					if n--; n < 0 {
						return Site{Instr: in, Calls: calls}
					}
				}
			}
		}
	}
	t.Fatalf("no access %d at line %d of %s", n, line, fn.Name())
	return Site{}
}

func launch(block, grid int, ints map[int]int64, lens map[int]int) Launch {
	return Launch{Block: [3]int{block, 1, 1}, Grid: [3]int{grid, 1, 1}, Ints: ints, Lens: lens}
}

func th(x, b int) Thread { return Thread{Idx: [3]int{x}, Block: [3]int{b}} }

func TestCheckRace(t *testing.T) {
	pkg := loadKernels(t)
	fn := func(name string) *ssa.Function { return pkg.Func(name) }
	line := func(f *ssa.Function, d int) int { return pkg.Prog.Fset.Position(f.Pos()).Line + d }
	shared := func(f *ssa.Function) Object {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if c, ok := in.(*ssa.Call); ok && strings.Contains(c.Call.Value.String(), "Shared") {
					return Object{Shared: c.Pos()}
				}
			}
		}
		t.Fatalf("no Shared call in %s", f.Name())
		return Object{}
	}
	nb, nbb, row, past, flag, wrap, neg := fn("Neighbour"), fn("NeighbourBarrier"), fn("Row"), fn("PastTheEnd"), fn("Flagged"), fn("Wrap"), fn("NegShift")
	idx := func(i int64) []Step { return []Step{{Index: i}} }
	tests := []struct {
		name string
		fn   *ssa.Function
		w    Race
		want Verdict
		why  string
	}{
		{"neighbour", nb, Race{Launch: launch(4, 1, nil, map[int]int{1: 4}), Object: shared(nb),
			Threads: [2]Thread{th(1, 0), th(0, 0)}, Sites: [2]Site{access(t, nb, line(nb, 3), 0), access(t, nb, line(nb, 4), 0)},
			Elems: [2][]Step{idx(1), idx(1)}}, Happens, ""},
		{"neighbour, wrong element", nb, Race{Launch: launch(4, 1, nil, map[int]int{1: 4}), Object: shared(nb),
			Threads: [2]Thread{th(1, 0), th(0, 0)}, Sites: [2]Site{access(t, nb, line(nb, 3), 0), access(t, nb, line(nb, 4), 0)},
			Elems: [2][]Step{idx(2), idx(2)}}, Refuted, "not to the named element"},
		{"barrier between", nbb, Race{Launch: launch(4, 1, nil, map[int]int{1: 4}), Object: shared(nbb),
			Threads: [2]Thread{th(1, 0), th(0, 0)}, Sites: [2]Site{access(t, nbb, line(nbb, 3), 0), access(t, nbb, line(nbb, 5), 0)},
			Elems: [2][]Step{idx(1), idx(1)}}, Refuted, "one barrier interval"},
		{"negative index", row, Race{Launch: launch(2, 1, map[int]int64{2: 0}, map[int]int{1: 64}), Object: Object{Param: 1},
			Threads: [2]Thread{th(0, 0), th(1, 0)}, Sites: [2]Site{access(t, row, line(row, 2), 0), access(t, row, line(row, 2), 0)},
			Elems: [2][]Step{idx(-44), idx(-44)}}, Refuted, "index -44 out of range"},
		{"past the end", past, Race{Launch: launch(2, 1, map[int]int64{2: 0}, map[int]int{1: 64}), Object: Object{Param: 1},
			Threads: [2]Thread{th(0, 0), th(1, 0)}, Sites: [2]Site{access(t, past, line(past, 2), 0), access(t, past, line(past, 2), 0)},
			Elems: [2][]Step{idx(0), idx(0)}}, Refuted, "index 64 out of range"},
		{"across blocks", row, Race{Launch: launch(1, 2, map[int]int64{2: 0}, map[int]int{1: 64}), Object: Object{Param: 1}, Cross: true,
			Threads: [2]Thread{th(0, 0), th(0, 1)}, Sites: [2]Site{access(t, row, line(row, 2), 0), access(t, row, line(row, 2), 0)},
			Elems: [2][]Step{idx(-44), idx(-44)}}, Refuted, "out of range"},
		{"data decides", flag, Race{Launch: Launch{Block: [3]int{2, 1, 1}, Grid: [3]int{1, 1, 1}, Lens: map[int]int{1: 2, 2: 1}, Data: 1}, Object: Object{Param: 2},
			Threads: [2]Thread{th(0, 0), th(1, 0)}, Sites: [2]Site{access(t, flag, line(flag, 2), 0), access(t, flag, line(flag, 2), 0)},
			Elems: [2][]Step{idx(0), idx(0)}}, Happens, ""},
		{"zero data", flag, Race{Launch: launch(2, 1, nil, map[int]int{1: 2, 2: 1}), Object: Object{Param: 2},
			Threads: [2]Thread{th(0, 0), th(1, 0)}, Sites: [2]Site{access(t, flag, line(flag, 2), 0), access(t, flag, line(flag, 2), 0)},
			Elems: [2][]Step{idx(0), idx(0)}}, Refuted, "never made the access"},
		{"uint8 wraps", wrap, Race{Launch: launch(4, 1, nil, map[int]int{1: 256}), Object: Object{Param: 1},
			Threads: [2]Thread{th(2, 0), th(2, 0)}, Sites: [2]Site{access(t, wrap, line(wrap, 3), 0), access(t, wrap, line(wrap, 3), 0)},
			Elems: [2][]Step{idx(0), idx(0)}}, Refuted, "not to the named element"},
		{"negative shift count", neg, Race{Launch: launch(2, 1, map[int]int64{2: -1}, map[int]int{1: 4}), Object: Object{Param: 1},
			Threads: [2]Thread{th(0, 0), th(1, 0)}, Sites: [2]Site{access(t, neg, line(neg, 1), 0), access(t, neg, line(neg, 1), 0)},
			Elems: [2][]Step{idx(0), idx(0)}}, Refuted, "negative shift count -1"},
		{"shift count 1", neg, Race{Launch: launch(2, 1, map[int]int64{2: 1}, map[int]int{1: 4}), Object: Object{Param: 1},
			Threads: [2]Thread{th(0, 0), th(1, 0)}, Sites: [2]Site{access(t, neg, line(neg, 1), 0), access(t, neg, line(neg, 1), 0)},
			Elems: [2][]Step{idx(0), idx(0)}}, Happens, ""},
	}
	for _, tc := range tests {
		r := NewRunner(tc.fn, Budget).CheckRace(tc.w)
		if r.Verdict != tc.want || !strings.Contains(r.Reason, tc.why) {
			t.Errorf("%s: got %v (%s), want %v (%q)", tc.name, r.Verdict, r.Reason, tc.want, tc.why)
		}
	}
}

// TestCopy replays the builtin copy: its stores into shared memory are
// watched at the call, so a read of an element another thread copied is
// seen to happen, and the values move (the reader's element is the one
// copied, not the zero shared memory starts with).
func TestCopy(t *testing.T) {
	pkg := loadKernels(t)
	fn := pkg.Func("CopyThenRead")
	line := pkg.Prog.Fset.Position(fn.Pos()).Line
	var cp *ssa.Call
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if c, ok := in.(*ssa.Call); ok && c.Call.Value.Name() == "copy" {
				cp = c
			}
		}
	}
	if cp == nil {
		t.Fatal("no copy call in CopyThenRead")
	}
	var shared Object
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if c, ok := in.(*ssa.Call); ok && strings.Contains(c.Call.Value.String(), "Shared") {
				shared = Object{Shared: c.Pos()}
			}
		}
	}
	w := Race{Launch: launch(4, 1, nil, map[int]int{1: 8, 2: 4}), Object: shared,
		Threads: [2]Thread{th(1, 0), th(0, 0)}, Sites: [2]Site{{Instr: cp}, access(t, fn, line+4, 0)},
		Elems: [2][]Step{{{Index: 2}}, {{Index: 2}}}}
	if r := NewRunner(fn, Budget).CheckRace(w); r.Verdict != Happens {
		t.Errorf("copy then read: got %v (%s), want Happens", r.Verdict, r.Reason)
	}
	w.Elems = [2][]Step{{{Index: 3}}, {{Index: 3}}}
	if r := NewRunner(fn, Budget).CheckRace(w); r.Verdict != Refuted {
		t.Errorf("copy then read, element 3: got %v (%s), want Refuted", r.Verdict, r.Reason)
	}
}

// TestMath32 checks the functions of gpu/math32 that the replay computes
// as math's, rounded to float32: the analysed program holds no body for a
// function of another package.
func TestMath32(t *testing.T) {
	f32 := types.Typ[types.Float32]
	tests := []struct {
		name string
		args []float64
		want float32
	}{
		{"Sqrt", []float64{2}, float32(math.Sqrt(2))},
		{"Exp", []float64{1.5}, float32(math.Exp(1.5))},
		{"Pow", []float64{2, 0.5}, float32(math.Pow(2, 0.5))},
		{"Atan2", []float64{1, -1}, float32(math.Atan2(1, -1))},
	}
	for _, tc := range tests {
		args := make([]value, len(tc.args))
		for i, a := range tc.args {
			args[i] = value{f: a}
		}
		v, ok := mathCall(math32api.Path, tc.name, args, f32)
		if !ok || v.f != float64(tc.want) {
			t.Errorf("math32.%s%v: got %v, %v; want %v, true", tc.name, tc.args, v.f, ok, tc.want)
		}
	}
	if _, ok := mathCall(math32api.Path, "FMA", []value{{f: 1}, {f: 2}, {f: 3}}, f32); ok {
		t.Errorf("math32.FMA: computed, but its float32 rounding is not math.FMA's")
	}
}

// TestHelper replays an access in a device function, to a struct field of
// a shared array, reached through the kernel's call.
func TestHelper(t *testing.T) {
	pkg := loadKernels(t)
	k, st := pkg.Func("Helper"), pkg.Func("store")
	var call *ssa.Call
	var obj Object
	for _, b := range k.Blocks {
		for _, in := range b.Instrs {
			if c, ok := in.(*ssa.Call); ok {
				switch {
				case c.Call.StaticCallee() == st:
					call = c
				case strings.Contains(c.Call.Value.String(), "Shared"):
					obj = Object{Shared: c.Pos()}
				}
			}
		}
	}
	w := Race{Launch: launch(4, 1, nil, map[int]int{1: 4}), Object: obj, Threads: [2]Thread{th(0, 0), th(1, 0)},
		Sites: [2]Site{access(t, st, pkg.Prog.Fset.Position(st.Pos()).Line, 0, call), access(t, st, pkg.Prog.Fset.Position(st.Pos()).Line, 0, call)},
		Elems: [2][]Step{{{Index: 0}, {Field: true, Index: 1}}, {{Index: 0}, {Field: true, Index: 1}}}}
	if r := NewRunner(k, Budget).CheckRace(w); r.Verdict != Happens {
		t.Errorf("store in a device function: got %v (%s), want Happens", r.Verdict, r.Reason)
	}
	w.Threads[1] = th(2, 0)
	r := NewRunner(k, Budget).CheckRace(w)
	if r.Verdict != Refuted || r.Observed == nil || r.Observed.Elems[0] != "[0].b" {
		t.Errorf("threads 0 and 2: got %v (%s), observed %+v; want Refuted with threads 0 and 1 observed at [0].b", r.Verdict, r.Reason, r.Observed)
	}
}

// TestBudget checks that a kernel that runs past the budget gives Unknown,
// never Refuted.
func TestBudget(t *testing.T) {
	pkg := loadKernels(t)
	k := pkg.Func("Spin")
	line := pkg.Prog.Fset.Position(k.Pos()).Line
	w := Race{Launch: launch(2, 1, map[int]int64{2: -1}, map[int]int{1: 1}), Object: Object{Param: 1}, Threads: [2]Thread{th(0, 0), th(1, 0)},
		Sites: [2]Site{access(t, k, line+2, 0), access(t, k, line+2, 1)}, Elems: [2][]Step{{{Index: 0}}, {{Index: 0}}}}
	if r := NewRunner(k, 10000).CheckRace(w); r.Verdict != Unknown || !strings.Contains(r.Reason, "budget") {
		t.Errorf("endless loop: got %v (%s), want Unknown (budget)", r.Verdict, r.Reason)
	}
}

// TestMemoryBound checks that a kernel whose shared or local arrays are
// too large to hold gives Unknown, never a crash or Refuted.
func TestMemoryBound(t *testing.T) {
	pkg := loadKernels(t)
	for _, name := range []string{"HugeShared", "HugeLocal"} {
		k := pkg.Func(name)
		line := pkg.Prog.Fset.Position(k.Pos()).Line
		store := map[string]int{"HugeShared": line + 3, "HugeLocal": line + 7}[name]
		w := Race{Launch: launch(2, 1, nil, map[int]int{1: 1}), Object: Object{Param: 1}, Threads: [2]Thread{th(0, 0), th(1, 0)},
			Sites: [2]Site{access(t, k, store, 0), access(t, k, store, 0)}, Elems: [2][]Step{{{Index: 0}}, {{Index: 0}}}}
		if r := NewRunner(k, Budget).CheckRace(w); r.Verdict != Unknown || !strings.Contains(r.Reason, "too large") {
			t.Errorf("%s: got %v (%s), want Unknown (too large)", name, r.Verdict, r.Reason)
		}
	}
}

// BenchmarkInstructions runs an endless loop to the budget: the time per
// interpreted instruction is the reported time over Budget.
func BenchmarkInstructions(b *testing.B) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, "./testdata/kernels")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		b.Fatal(err)
	}
	prog, spkgs := ssautil.AllPackages(pkgs, ssa.GlobalDebug|ssa.InstantiateGenerics)
	prog.Build()
	k := spkgs[0].Func("Spin")
	w := Race{Launch: launch(2, 1, map[int]int64{2: -1}, map[int]int{1: 1}), Object: Object{Param: 1}, Threads: [2]Thread{th(0, 0), th(1, 0)},
		Sites: [2]Site{{Instr: k.Blocks[0].Instrs[0]}, {Instr: k.Blocks[0].Instrs[0]}}, Elems: [2][]Step{{{Index: 0}}, {{Index: 0}}}}
	for b.Loop() {
		NewRunner(k, Budget).CheckRace(w)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/Budget, "ns/instr")
}
