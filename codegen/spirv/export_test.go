package spirv

import (
	"fmt"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

func debugPlan(f *kir.Func) string {
	p, err := structurize(f)
	if err != nil {
		return err.Error()
	}
	s := kir.Format(p.f)
	for h, m := range p.merge {
		s += fmt.Sprintf("merge b%d -> b%d\n", h.Index, m.Index)
	}
	for h, l := range p.loops {
		s += fmt.Sprintf("loop b%d merge b%d cont b%d\n", h.Index, l.merge.Index, l.cont.Index)
	}
	return s
}

// DebugPlan is for the dump test.
var DebugPlan = debugPlan

// DebugNormalized is for the dump test: f after its loops' exits are
// rerouted.
var DebugNormalized = func(src *kir.Func) string {
	f := kir.CloneFunc(src)
	removeUnreachable(f)
	resumeTraps(f)
	splitReturns(f)
	singleExitLoops(f)
	repairSSA(f)
	return kir.Format(f)
}

// SetDebugPlanErr is for the dump test.
func SetDebugPlanErr(fn func(f *kir.Func, err error)) { debugPlanErr = fn }
