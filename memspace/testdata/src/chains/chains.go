package chains

import "github.com/gpukvet/gpukvet/gpu"

var counter int

func baz(x int) int {
	counter++ // want `package-level variable counter: kernel code cannot reach host memory \(constants are fine\) \(reached from kernel Foo via bar → baz\)`
	return x
}

func bar(x int) int { return baz(x) + 1 }

//gpu:kernel
func Foo(t gpu.Thread, out []int) {
	out[0] = bar(out[0])
}

//gpu:kernel
func Foo2(t gpu.Thread, out []int) {
	out[0] = baz(out[0])
}

// Marked device functions are reported without a chain.
//
//gpu:device
func Helper() map[int]int { // want Helper:`breaks kernel rules: returns a map \(chains.go:27\)` `device function Helper returns map\[int\]int: kernel code cannot use a map \(maps live in host memory\)$`
	return nil
}
