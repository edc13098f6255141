package spirv_test

import (
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/spirv"
)

// TestShapes structures the control-flow shapes of
// testdata/differential/kernels/shapes.go (labeled break and continue at
// depth 2 and 3, a return inside a switch inside loops of inlined
// functions, fallthrough inside loops, calls in && and || chains, returns
// from nested loops) and the kernels Loops and Indexes, from the optimized
// IR and from the unoptimized one (two spellings of each shape), with no
// fallback: each must be emitted and pass spirv-val. The differential
// suite runs them on lavapipe against the cpu backend.
func TestShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and compiles the differential kernels twice")
	}
	spirvVal(t)
	want := []string{"Labeled2", "Labeled3", "ReturnInSwitch", "FallthroughLoops", "ShortCircuit", "ReturnNested", "Loops", "Indexes"}
	for _, o0 := range []bool{false, true} {
		name := optName(o0)
		t.Run(name, func(t *testing.T) {
			m, err := codegen.Build([]string{mod + "testdata/differential/kernels"}, codegen.Options{DisableOptimizer: o0})
			if err != nil {
				t.Fatal(err)
			}
			one := *m.IR
			one.Funcs = nil
			for _, f := range m.IR.Funcs {
				for _, w := range want {
					if strings.HasSuffix(f.Name, "_"+w) {
						one.Funcs = append(one.Funcs, f)
					}
				}
			}
			if len(one.Funcs) != len(want) {
				t.Fatalf("found %d of the %d shape kernels", len(one.Funcs), len(want))
			}
			res, err := spirv.Emit(&one, spirv.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range one.Funcs {
				if err := res.Failed[f.Name]; err != nil {
					t.Errorf("%s: %v", f.Name, err)
				}
			}
			validate(t, "shapes_"+name, res.Binary)
		})
	}
}

// TestShortCircuitChains structures the kernels of testdata/shortcircuit:
// conditions like `!a || !b && c` (issue 21's random kernels R001 and
// others), where the second test's false edge goes to the code after the
// if, which the first test's construct also merges at, and the third
// test's true edge enters the then-arm the first test starts. Each kernel,
// optimized and not, must be emitted with no fallback and pass spirv-val;
// Before the join took the sibling tests' edges (armSiblings), all five
// were refused unoptimized, and NotOrAnd and AndOrAndOr optimized;
// ChainInLoop (R013's shape) needs the loop's back edge ignored when
// armSiblings looks for cycles.
func TestShortCircuitChains(t *testing.T) {
	structuresAll(t, "shortcircuit", 5)
}

// TestBreakJoin structures the kernels of testdata/breakjoin (issue 21's
// random kernel R002, shrunk): the arms of an if inside another join at
// the outer if's end, which the outer if's other arm reaches too, and a
// break in one arm keeps that end from post-dominating the inner if.
// Before splitJoin the kernel was refused optimized and unoptimized.
func TestBreakJoin(t *testing.T) {
	structuresAll(t, "breakjoin", 1)
}

// structuresAll checks that every one of the n kernels of
// testdata/<pkg>, optimized and not, is emitted with no fallback and
// passes spirv-val.
func structuresAll(t *testing.T, pkg string, n int) {
	spirvVal(t)
	for _, o0 := range []bool{false, true} {
		name := optName(o0)
		t.Run(name, func(t *testing.T) {
			m, err := codegen.Build([]string{mod + "codegen/spirv/testdata/" + pkg}, codegen.Options{DisableOptimizer: o0})
			if err != nil {
				t.Fatal(err)
			}
			res, err := spirv.Emit(m.IR, spirv.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(m.IR.Funcs) != n {
				t.Fatalf("want the %d kernels of testdata/%s, found %d", n, pkg, len(m.IR.Funcs))
			}
			for _, f := range m.IR.Funcs {
				if err := res.Failed[f.Name]; err != nil {
					t.Errorf("%s: %v", f.Name, err)
				}
			}
			validate(t, pkg+"_"+name, res.Binary)
		})
	}
}

// TestContinueJoin structures the kernels of testdata/continuejoin (issue
// 21's random kernels R025 of seed 1, reduced by hand, and R038 of seed 2,
// shrunk by TestRandomStructuring): an `if a && b` whose then-arm
// continues the loop, followed by an inner loop, so the else-arm the &&
// shares meets the then-arm only after the if and the continue keeps that
// join from post-dominating the tests; an `if a || b` whose then-arm runs
// an inner loop and continues under an &&. Before the general strategy
// (dispatchMerge) both were refused unoptimized.
func TestContinueJoin(t *testing.T) {
	structuresAll(t, "continuejoin", 2)
}
