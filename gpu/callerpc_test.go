package gpu

import (
	"runtime"
	"testing"
)

//go:noinline
func viaCallerPC() uintptr { return callerPC() }

//go:noinline
func viaCallers() uintptr {
	var pc [1]uintptr
	runtime.Callers(2, pc[:])
	return pc[0]
}

// TestCallerPC checks that callerPC reports the same call site as
// runtime.Callers: Barrier and Shared identify their call sites with it.
func TestCallerPC(t *testing.T) {
	a, b := viaCallerPC(), viaCallers() // one line: both report it
	fa, _ := runtime.CallersFrames([]uintptr{a}).Next()
	fb, _ := runtime.CallersFrames([]uintptr{b}).Next()
	if fa.File != fb.File || fa.Line != fb.Line || fa.Function != fb.Function {
		t.Errorf("callerPC gives %s:%d (%s), runtime.Callers %s:%d (%s); want the same call line", fa.File, fa.Line, fa.Function, fb.File, fb.Line, fb.Function)
	}
}
