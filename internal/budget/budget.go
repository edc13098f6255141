// Package budget is the one definition of how much code a kernel may inline.
//
// The dialect has no calls at run time: the lowering (codegen/lower) inlines
// every device function at each of its call sites, so a kernel's code grows
// with the number of paths through its call tree, not with its source. A
// tree twenty calls deep with two calls per level is 2^20 copies of its
// leaf. The budget bounds that growth, and memspace checks it before the
// compiler runs, at the call that exceeds it, so that a kernel which passes
// the checks never fails to build for its size.
//
// Both sides measure the same thing. The size of a function is the number
// of syntax nodes of its body (Size); the inlined size of a function is its
// size plus the inlined size of the function at every call in its body of
// a counted function (Counted), once per call; its depth is one plus the
// greatest depth among those callees. The lowering adds Size at each inline
// it does, which never exceeds what the check adds up (the check also counts
// calls in code that SSA finds unreachable).
package budget

import (
	"fmt"
	"go/ast"

	"github.com/gpukvet/gpukvet/internal/kernelapi"
)

// MaxSize is the largest inlined size of a kernel, in syntax nodes (about
// 5,000 lines of straight-line code). The largest kernel of the repository
// (examples, test, bench and differential kernels) inlines 481; a kernel of
// MaxSize compiles, with the optimizer, for every target in a few seconds.
const MaxSize = 40_000

// MaxDepth is the deepest nesting of inlined calls in a kernel, the kernel
// itself being depth 1.
const MaxDepth = 64

// Size returns the size a function of body body adds to a kernel each time
// it is inlined: the number of syntax nodes of body (0 for nil).
func Size(body *ast.BlockStmt) int {
	if body == nil {
		return 0
	}
	n := 0
	ast.Inspect(body, func(x ast.Node) bool {
		if x != nil {
			n++
		}
		return true
	})
	return n
}

// Counted reports whether the functions of the package with import path
// pkg count towards a kernel's budget: all but the gpu package, the math
// packages the dialect allows, and codegen/devmath, which implements them.
// Those are the compiler's own fixed code, small and of fixed depth, and
// memspace never sees their bodies.
func Counted(pkg string) bool { return !kernelapi.Uncounted(pkg) }

// SizeError is the message for a kernel (or device function) named what
// whose inlined size is size, more than MaxSize.
func SizeError(what string, size int) string {
	return fmt.Sprintf("%s inlines %d syntax nodes of device code through this call, more than the budget of %d (budget.MaxSize): every call of a device function is compiled as a copy of its body, so reduce the calls (a loop instead of repeated calls) or split the kernel", what, size, MaxSize)
}

// DepthError is the message for a kernel (or device function) named what
// whose calls nest depth deep, more than MaxDepth.
func DepthError(what string, depth int) string {
	return fmt.Sprintf("%s nests calls of device functions %d deep through this call, more than the budget of %d (budget.MaxDepth)", what, depth, MaxDepth)
}
