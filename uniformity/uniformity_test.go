package uniformity_test

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/analysistestdata"
	"github.com/gpukvet/gpukvet/uniformity"
)

// probe reports every divergent branch of every analysed function with the
// reason, and every barrier site that not all threads may reach, so that the
// testdata can state what the analysis must find with // want.
var probe = &analysis.Analyzer{
	Name:     "uniformityprobe",
	Doc:      "test helper: report divergent branches",
	Requires: []*analysis.Analyzer{uniformity.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[uniformity.Analyzer].(*uniformity.Result)
		for _, f := range res.Order {
			for _, b := range f.Fn.Blocks {
				br := f.DivergentBranch(b)
				if br == nil {
					continue
				}
				ifi := b.Instrs[len(b.Instrs)-1].(*ssa.If)
				pos := ifi.Cond.Pos()
				if !pos.IsValid() {
					pos = ifi.Pos()
				}
				pass.Reportf(pos, "divergent branch: depends on %s", f.Why(br.Cond).Describe(pass.Fset))
			}
			for _, s := range f.Barriers {
				switch {
				case s.Under != nil:
					pass.Reportf(s.Call.Pos(), "barrier under divergent branch at line %d", pass.Fset.Position(s.Under.Cond.Pos()).Line)
				case s.Arg >= 0:
					pass.Reportf(s.Call.Pos(), "barrier call with divergent argument %d: %s", s.Arg, s.ArgDep.Src.Describe(pass.Fset))
				}
			}
			if f.Kernel == nil && f.Summary != nil {
				pass.Reportf(f.Fn.Pos(), "summary %s", summary(f))
			}
		}
		return nil, nil
	},
}

func summary(f *uniformity.Func) string {
	s := f.Summary
	out := "results"
	for _, r := range s.Results {
		out += fmt.Sprintf(" [src=%v params=%b]", r.Src != nil, r.Params)
	}
	out += " writes"
	for _, w := range s.Writes {
		out += fmt.Sprintf(" [src=%v params=%b]", w.Src != nil, w.Params)
	}
	out += fmt.Sprintf(" barrier=%v/%b", s.Barrier, s.BarrierParams)
	return out
}

func TestUniformity(t *testing.T) {
	dir := analysistestdata.GOPATH(t, analysistest.TestData())
	analysistest.Run(t, dir, probe, "uni", "unidep")
}

// TestFactEncodes checks that a summary survives gob, as facts must under
// go vet (unitchecker serialises them between packages).
func TestFactEncodes(t *testing.T) {
	s := &uniformity.Summary{
		Results:       []uniformity.Dep{{Src: &uniformity.Reason{What: "ThreadIdx (line 3)", Param: -1}, Params: 2}},
		Writes:        []uniformity.Dep{{}, {Mem: 1}},
		Barrier:       true,
		BarrierParams: 4,
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(s); err != nil {
		t.Fatal(err)
	}
	var got uniformity.Summary
	if err := gob.NewDecoder(&buf).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.String() != s.String() || got.Results[0].Src.What != "ThreadIdx (line 3)" {
		t.Errorf("decoded %v, want %v", &got, s)
	}
}
