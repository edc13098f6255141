// Package plain imports neither gpu nor device and holds no directive: it
// breaks every rule of kernel code, and memspace must not look.
package plain

import "fmt"

var m = map[string]func(){}

// Kernel only looks like one: // gpu:kernel
func Kernel(x []int) {
	go func() { defer fmt.Println(len(m), x) }()
}
