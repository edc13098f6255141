// Package overbudget has kernels the budget of internal/budget refuses
// (see TestBudget) and one whose first parameter is a *gpu.Thread.
package overbudget

import "github.com/gpukvet/gpukvet/gpu"

// Tree inlines 2^20 copies of c20.
//
//gpu:kernel
func Tree(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		out[i] = c1(out[i])
	}
}

func c1(x float32) float32 { return c2(x) + c2(x+1) }

func c2(x float32) float32 { return c3(x) + c3(x+1) }

func c3(x float32) float32 { return c4(x) + c4(x+1) }

func c4(x float32) float32 { return c5(x) + c5(x+1) }

func c5(x float32) float32 { return c6(x) + c6(x+1) }

func c6(x float32) float32 { return c7(x) + c7(x+1) }

func c7(x float32) float32 { return c8(x) + c8(x+1) }

func c8(x float32) float32 { return c9(x) + c9(x+1) }

func c9(x float32) float32 { return c10(x) + c10(x+1) }

func c10(x float32) float32 { return c11(x) + c11(x+1) }

func c11(x float32) float32 { return c12(x) + c12(x+1) }

func c12(x float32) float32 { return c13(x) + c13(x+1) }

func c13(x float32) float32 { return c14(x) + c14(x+1) }

func c14(x float32) float32 { return c15(x) + c15(x+1) }

func c15(x float32) float32 { return c16(x) + c16(x+1) }

func c16(x float32) float32 { return c17(x) + c17(x+1) }

func c17(x float32) float32 { return c18(x) + c18(x+1) }

func c18(x float32) float32 { return c19(x) + c19(x+1) }

func c19(x float32) float32 { return c20(x) + c20(x+1) }

func c20(x float32) float32 { return x*2 + 1 }

// Chain nests 70 calls.
//
//gpu:kernel
func Chain(t gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		out[i] = d1(out[i])
	}
}

func d1(x float32) float32 { return d2(x) + 1 }

func d2(x float32) float32 { return d3(x) + 1 }

func d3(x float32) float32 { return d4(x) + 1 }

func d4(x float32) float32 { return d5(x) + 1 }

func d5(x float32) float32 { return d6(x) + 1 }

func d6(x float32) float32 { return d7(x) + 1 }

func d7(x float32) float32 { return d8(x) + 1 }

func d8(x float32) float32 { return d9(x) + 1 }

func d9(x float32) float32 { return d10(x) + 1 }

func d10(x float32) float32 { return d11(x) + 1 }

func d11(x float32) float32 { return d12(x) + 1 }

func d12(x float32) float32 { return d13(x) + 1 }

func d13(x float32) float32 { return d14(x) + 1 }

func d14(x float32) float32 { return d15(x) + 1 }

func d15(x float32) float32 { return d16(x) + 1 }

func d16(x float32) float32 { return d17(x) + 1 }

func d17(x float32) float32 { return d18(x) + 1 }

func d18(x float32) float32 { return d19(x) + 1 }

func d19(x float32) float32 { return d20(x) + 1 }

func d20(x float32) float32 { return d21(x) + 1 }

func d21(x float32) float32 { return d22(x) + 1 }

func d22(x float32) float32 { return d23(x) + 1 }

func d23(x float32) float32 { return d24(x) + 1 }

func d24(x float32) float32 { return d25(x) + 1 }

func d25(x float32) float32 { return d26(x) + 1 }

func d26(x float32) float32 { return d27(x) + 1 }

func d27(x float32) float32 { return d28(x) + 1 }

func d28(x float32) float32 { return d29(x) + 1 }

func d29(x float32) float32 { return d30(x) + 1 }

func d30(x float32) float32 { return d31(x) + 1 }

func d31(x float32) float32 { return d32(x) + 1 }

func d32(x float32) float32 { return d33(x) + 1 }

func d33(x float32) float32 { return d34(x) + 1 }

func d34(x float32) float32 { return d35(x) + 1 }

func d35(x float32) float32 { return d36(x) + 1 }

func d36(x float32) float32 { return d37(x) + 1 }

func d37(x float32) float32 { return d38(x) + 1 }

func d38(x float32) float32 { return d39(x) + 1 }

func d39(x float32) float32 { return d40(x) + 1 }

func d40(x float32) float32 { return d41(x) + 1 }

func d41(x float32) float32 { return d42(x) + 1 }

func d42(x float32) float32 { return d43(x) + 1 }

func d43(x float32) float32 { return d44(x) + 1 }

func d44(x float32) float32 { return d45(x) + 1 }

func d45(x float32) float32 { return d46(x) + 1 }

func d46(x float32) float32 { return d47(x) + 1 }

func d47(x float32) float32 { return d48(x) + 1 }

func d48(x float32) float32 { return d49(x) + 1 }

func d49(x float32) float32 { return d50(x) + 1 }

func d50(x float32) float32 { return d51(x) + 1 }

func d51(x float32) float32 { return d52(x) + 1 }

func d52(x float32) float32 { return d53(x) + 1 }

func d53(x float32) float32 { return d54(x) + 1 }

func d54(x float32) float32 { return d55(x) + 1 }

func d55(x float32) float32 { return d56(x) + 1 }

func d56(x float32) float32 { return d57(x) + 1 }

func d57(x float32) float32 { return d58(x) + 1 }

func d58(x float32) float32 { return d59(x) + 1 }

func d59(x float32) float32 { return d60(x) + 1 }

func d60(x float32) float32 { return d61(x) + 1 }

func d61(x float32) float32 { return d62(x) + 1 }

func d62(x float32) float32 { return d63(x) + 1 }

func d63(x float32) float32 { return d64(x) + 1 }

func d64(x float32) float32 { return d65(x) + 1 }

func d65(x float32) float32 { return d66(x) + 1 }

func d66(x float32) float32 { return d67(x) + 1 }

func d67(x float32) float32 { return d68(x) + 1 }

func d68(x float32) float32 { return d69(x) + 1 }

func d69(x float32) float32 { return d70(x) + 1 }

func d70(x float32) float32 { return x }

// ThreadPtr takes a *gpu.Thread.
//
//gpu:kernel
func ThreadPtr(t *gpu.Thread, out []float32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		out[i] = 1
	}
}
