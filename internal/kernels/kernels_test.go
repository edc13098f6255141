package kernels_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/internal/kernels"
)

// TestFacts checks the facts exported for kernels and device functions:
// block=, grid= and dimensionality, also through device functions of the
// same package and of other packages.
func TestFacts(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.Run(t, dir, kernels.Analyzer, "dims", "dimsdep")
}

func TestProblems(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	tests := []struct {
		pkg  string
		want []string // "line: regexp", in order
	}{
		{"directives", []string{
			`5: block=0: dimension 0 must be positive`,
			`8: block=a: "a" is not a positive integer`,
			`11: at most three dimensions`,
			`14: unknown //gpu:kernel option "threads=64"`,
			`17: option block given twice`,
			`21: more than one //gpu: directive`,
			`24: unknown directive //gpu:kernal`,
			`27: //gpu:device takes no options, found "fast"`,
			`30: block=16,16,1 gives kernel FlatButTwoDBlock extent 16 in Y, but the kernel never reads a Y index`,
			`35: //gpu:kernel has no effect here`,
			`39: //gpu:device has no effect here`,
		}},
		{"signatures", []string{
			`6: the first parameter of a //gpu:kernel must be a gpu.Thread`,
			`9: the first parameter of a //gpu:kernel must be a gpu.Thread`,
			`12: a //gpu:kernel has no results`,
			`15: a //gpu:kernel cannot have type parameters`,
			`20: a //gpu:kernel must be a top-level function, not a method`,
			`26: the first parameter of a //gpu:kernel must be a gpu.Thread, not *gpu.Thread`,
		}},
		{"dims", []string{
			`67: kernel SharedAcross declares 52768 bytes of gpu.Shared memory in its call tree, more than the 49152 bytes of static shared memory per block of target ptx`,
		}},
		{"plain", nil},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			results := analysistest.Run(t, dir, kernels.Analyzer, tt.pkg)
			if len(results) != 1 {
				t.Fatalf("got %d results, want 1", len(results))
			}
			r := results[0]
			res := r.Result.(*kernels.Result)
			var got []string
			for _, p := range res.Problems {
				got = append(got, fmt.Sprintf("%d: %s", r.Pass.Fset.Position(p.Pos).Line, p.Message))
			}
			if len(got) != len(tt.want) {
				t.Errorf("got %d problems, want %d:\n%q", len(got), len(tt.want), got)
			}
			for i := range min(len(got), len(tt.want)) {
				line, text, _ := strings.Cut(tt.want[i], ": ")
				if !strings.HasPrefix(got[i], line+": ") || !strings.Contains(got[i], text) {
					t.Errorf("problem %d = %q, want line %s containing %q", i, got[i], line, text)
				}
			}
			if tt.pkg == "plain" && res.Relevant {
				t.Errorf("package plain is Relevant; want the fast path")
			}
		})
	}
}
