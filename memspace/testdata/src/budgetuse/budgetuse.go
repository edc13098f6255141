package budgetuse

import (
	"budgetdep"

	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func Once(t gpu.Thread, out []int) {
	out[0] = budgetdep.Half(out[0])
}

//gpu:kernel
func Twice(t gpu.Thread, out []int) {
	out[0] = budgetdep.Half(out[0])
	out[1] = budgetdep.Half(out[1]) // want `kernel Twice inlines 4\d{4} syntax nodes of device code through this call, more than the budget of 40000`
}
