// Package budgetdep exports a device function that inlines more than half
// the budget; kernels of budgetuse call it.
package budgetdep

func l0(x int) int { return x*3 + 1 }

func l1(x int) int {
	return l0(x) +
		l0(x) +
		l0(x) +
		l0(x) +
		l0(x) +
		l0(x) +
		l0(x) +
		l0(x) +
		l0(x) +
		l0(x)
}

func l2(x int) int {
	return l1(x) +
		l1(x) +
		l1(x) +
		l1(x) +
		l1(x) +
		l1(x) +
		l1(x) +
		l1(x) +
		l1(x) +
		l1(x)
}

func l3(x int) int {
	return l2(x) +
		l2(x) +
		l2(x) +
		l2(x) +
		l2(x) +
		l2(x) +
		l2(x) +
		l2(x) +
		l2(x) +
		l2(x)
}

// Half inlines 23,110 nodes, more than half the budget.
//
//gpu:device
func Half(x int) int {
	return l3(x) + l3(x)
}
