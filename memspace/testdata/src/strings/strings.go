package strings

import "github.com/gpukvet/gpukvet/gpu"

const greeting = "hello"

//gpu:kernel
func Bad(t gpu.Thread, out []byte) {
	s := "abc" // want `variable s has type string: kernel code cannot use a string \(strings live in host memory; only constant strings are allowed\)`
	out[0] = s[0]
	out[1] = string(out[2:4])[0] // want `string\(...\) has type string`
}

//gpu:kernel
func Good(t gpu.Thread, out []byte) {
	out[0] = greeting[0]
	out[1] = byte(len(greeting + "!"))
	if out[2] > 3 {
		panic("out[2] too large")
	}
}
