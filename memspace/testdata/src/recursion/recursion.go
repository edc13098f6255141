package recursion

import "github.com/gpukvet/gpukvet/gpu"

func fact(n int) int {
	if n <= 1 {
		return 1
	}
	return n * fact(n-1) // want `recursive call of fact \(fact → fact\): kernel code cannot recurse \(reached from kernel Direct via fact\)`
}

//gpu:kernel
func Direct(t gpu.Thread, out []int) {
	out[0] = fact(out[0])
}

func even(n int) bool {
	if n == 0 {
		return true
	}
	return odd(n - 1) // want `recursive call of odd \(even → odd → even\)`
}

func odd(n int) bool {
	if n == 0 {
		return false
	}
	return even(n - 1) // want `recursive call of even \(odd → even → odd\)`
}

//gpu:kernel
func Mutual(t gpu.Thread, out []bool) {
	out[0] = even(t.ThreadIdx().X)
}

func factLoop(n int) int {
	r := 1
	for i := 2; i <= n; i++ {
		r *= i
	}
	return r
}

// Good calls the same helper twice, a diamond but no cycle.
//
//gpu:kernel
func Good(t gpu.Thread, out []int) {
	out[0] = factLoop(out[0]) + twice(out[1])
}

func twice(n int) int { return factLoop(n) + factLoop(n) }
