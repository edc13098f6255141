package codegen_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
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
		if len(opt.IR.Funcs) != len(raw.IR.Funcs) {
			t.Fatalf("%d kernels optimized, %d with -O0", len(opt.IR.Funcs), len(raw.IR.Funcs))
		}
		r := rand.New(rand.NewPCG(3, 5))
		runs, trapped := 0, 0
		for i, f := range opt.IR.Funcs {
			k := opt.Manifest.Kernels[i]
			for trial := range 6 {
				grid, block := shapes(k)
				args := inputs(r, k, f, trial)
				argsRaw := cloneArgs(args)
				trapOpt, errOpt := kirexec.Run(f, opt.IR.Shared, grid, block, args)
				trapRaw, errRaw := kirexec.Run(raw.IR.Funcs[i], raw.IR.Shared, grid, block, argsRaw)
				if errRaw != nil {
					if strings.Contains(errRaw.Error(), "not supported by the interpreter") {
						break
					}
					t.Errorf("%s (-O0): %v", k.Entry, errRaw)
					break
				}
				if errOpt != nil {
					t.Errorf("%s: optimized: %v", k.Entry, errOpt)
					break
				}
				runs++
				if trapOpt != nil {
					trapped++
				}
				if !set.raceFree {
					continue
				}
				if (trapOpt == nil) != (trapRaw == nil) {
					t.Errorf("%s: trap %+v optimized, %+v with -O0", k.Entry, trapOpt, trapRaw)
					continue
				}
				if trapOpt == nil && !floatAtomics(f) {
					for j := range args {
						if args[j].Buf != nil && !bytes.Equal(args[j].Buf.Data, argsRaw[j].Buf.Data) {
							t.Errorf("%s: parameter %s differs between optimized and -O0", k.Entry, k.EntryParams[j].Name)
						}
					}
				}
			}
		}
		t.Logf("%d kernels, %d runs, %d trapped", len(opt.IR.Funcs), runs, trapped)
	}
}
