// Package budget has kernels that inline more code, or nest calls deeper,
// than internal/budget allows, and one that stays just within it.
package budget

import "github.com/gpukvet/gpukvet/gpu"

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

// l4 would inline 115,551 nodes: reported at the call that passes 40,000.
func l4(x int) int {
	s := l3(x)
	s += l3(x)
	s += l3(x)
	s += l3(x) // want `device function l4 inlines 4\d{4} syntax nodes of device code through this call, more than the budget of 40000 \(budget.MaxSize\)`
	s += l3(x)
	s += l3(x)
	s += l3(x)
	s += l3(x)
	s += l3(x)
	s += l3(x)
	return s
}

// Big calls l4, which is reported; Big is not, nor is the kernel.
//
//gpu:kernel
func Big(t gpu.Thread, out []int) {
	out[0] = l4(out[0])
}

// Three copies of l3 (34,653 nodes and the kernel's own) fit.
//
//gpu:kernel
func Fits(t gpu.Thread, out []int) {
	out[0] = l3(out[0]) + l3(out[1]) + l3(out[2])
}

// A call in a loop is one copy, however often the loop runs: Loop fits,
// and Sum, with four calls of l3, is reported at the fourth.
//
//gpu:kernel
func Loop(t gpu.Thread, out []int) {
	for i := range 100 {
		out[i] = l3(out[i]) + l3(out[i+1]) + l3(out[i+2])
	}
}

//gpu:kernel
func Sum(t gpu.Thread, out []int) {
	out[0] = l3(out[0]) + l3(out[1]) + l3(out[2])
	out[3] = l3(out[3]) // want `kernel Sum inlines 4\d{4} syntax nodes of device code through this call, more than the budget of 40000`
}

// Deep nests 65 calls: d1 is reported at its call of d2 (depth 64).
//
//gpu:kernel
func Deep(t gpu.Thread, out []int) {
	out[0] = d1(out[0])
}

func d1(x int) int { return d2(x) + 1 } // want `device function d1 nests calls of device functions 65 deep through this call, more than the budget of 64 \(budget.MaxDepth\)`

func d2(x int) int { return d3(x) + 1 }

func d3(x int) int { return d4(x) + 1 }

func d4(x int) int { return d5(x) + 1 }

func d5(x int) int { return d6(x) + 1 }

func d6(x int) int { return d7(x) + 1 }

func d7(x int) int { return d8(x) + 1 }

func d8(x int) int { return d9(x) + 1 }

func d9(x int) int { return d10(x) + 1 }

func d10(x int) int { return d11(x) + 1 }

func d11(x int) int { return d12(x) + 1 }

func d12(x int) int { return d13(x) + 1 }

func d13(x int) int { return d14(x) + 1 }

func d14(x int) int { return d15(x) + 1 }

func d15(x int) int { return d16(x) + 1 }

func d16(x int) int { return d17(x) + 1 }

func d17(x int) int { return d18(x) + 1 }

func d18(x int) int { return d19(x) + 1 }

func d19(x int) int { return d20(x) + 1 }

func d20(x int) int { return d21(x) + 1 }

func d21(x int) int { return d22(x) + 1 }

func d22(x int) int { return d23(x) + 1 }

func d23(x int) int { return d24(x) + 1 }

func d24(x int) int { return d25(x) + 1 }

func d25(x int) int { return d26(x) + 1 }

func d26(x int) int { return d27(x) + 1 }

func d27(x int) int { return d28(x) + 1 }

func d28(x int) int { return d29(x) + 1 }

func d29(x int) int { return d30(x) + 1 }

func d30(x int) int { return d31(x) + 1 }

func d31(x int) int { return d32(x) + 1 }

func d32(x int) int { return d33(x) + 1 }

func d33(x int) int { return d34(x) + 1 }

func d34(x int) int { return d35(x) + 1 }

func d35(x int) int { return d36(x) + 1 }

func d36(x int) int { return d37(x) + 1 }

func d37(x int) int { return d38(x) + 1 }

func d38(x int) int { return d39(x) + 1 }

func d39(x int) int { return d40(x) + 1 }

func d40(x int) int { return d41(x) + 1 }

func d41(x int) int { return d42(x) + 1 }

func d42(x int) int { return d43(x) + 1 }

func d43(x int) int { return d44(x) + 1 }

func d44(x int) int { return d45(x) + 1 }

func d45(x int) int { return d46(x) + 1 }

func d46(x int) int { return d47(x) + 1 }

func d47(x int) int { return d48(x) + 1 }

func d48(x int) int { return d49(x) + 1 }

func d49(x int) int { return d50(x) + 1 }

func d50(x int) int { return d51(x) + 1 }

func d51(x int) int { return d52(x) + 1 }

func d52(x int) int { return d53(x) + 1 }

func d53(x int) int { return d54(x) + 1 }

func d54(x int) int { return d55(x) + 1 }

func d55(x int) int { return d56(x) + 1 }

func d56(x int) int { return d57(x) + 1 }

func d57(x int) int { return d58(x) + 1 }

func d58(x int) int { return d59(x) + 1 }

func d59(x int) int { return d60(x) + 1 }

func d60(x int) int { return d61(x) + 1 }

func d61(x int) int { return d62(x) + 1 }

func d62(x int) int { return d63(x) + 1 }

func d63(x int) int { return d64(x) + 1 }

func d64(x int) int { return d65(x) + 1 }

func d65(x int) int { return x }

// Shallow nests 64 calls, the most the budget allows.
//
//gpu:kernel
func Shallow(t gpu.Thread, out []int) {
	out[0] = d3(out[0])
}
