package codegen_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
)

// optCorpora are every corpus the codegen tests compile, with whether its
// kernels are race-free (so that their results are deterministic).
var optCorpora = []struct {
	patterns []string
	raceFree bool
}{
	{[]string{corpus + "basic", corpus + "constructs", "github.com/gpukvet/gpukvet/testdata/differential/kernels", "github.com/gpukvet/gpukvet/examples/...", "github.com/gpukvet/gpukvet/bench/kernels"}, true},
	{[]string{"github.com/gpukvet/gpukvet/testdata/corpus/divergence", "../testdata/corpus/races/...", "github.com/gpukvet/gpukvet/testdata/benchkernels/..."}, false},
}

// TestOptimizerPreservesSemantics runs every kernel of the corpora in the
// kir interpreter compiled with the whole optimizer (every pass followed by
// kir.Verify) and with none of it (-O0), on random inputs: no access may
// leave its buffer, a kernel traps exactly when its unoptimized twin traps,
// and the race-free kernels compute the same bytes.
func TestOptimizerPreservesSemantics(t *testing.T) {
	for _, set := range optCorpora {
		opt := build(t, codegen.Options{VerifyPasses: true}, set.patterns...)
		raw := build(t, codegen.Options{DisableOptimizer: true}, set.patterns...)
		runs, trapped := runTwins(t, opt, raw, set.raceFree, rand.New(rand.NewPCG(3, 5)), "optimized", "with -O0")
		t.Logf("%d kernels, %d runs, %d trapped", len(opt.IR.Funcs), runs, trapped)
	}
}
