package gpu

// callerPC returns the return address of the function that called it (the
// pc after its call site, as runtime.Callers(2, ...) reports it). That
// function must not be inlined, so that it has a frame of its own.
//
//go:noescape
func callerPC() uintptr
