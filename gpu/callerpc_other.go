//go:build !amd64

package gpu

import "runtime"

// callerPC returns the return address of the function that called it (the
// pc after its call site, as runtime.Callers(2, ...) reports it). That
// function must not be inlined. This portable version walks the stack; the
// amd64 version reads the frame pointer.
//
//go:noinline
func callerPC() uintptr {
	var pc [1]uintptr
	runtime.Callers(3, pc[:])
	return pc[0]
}
