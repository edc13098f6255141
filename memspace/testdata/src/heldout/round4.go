package heldout

// Round 4 (issue 20, testdata/corpus/HELDOUT.md): kernels and launches
// translated from public code the held-out sets had not used (AMD APP SDK
// BinomialOption and MonteCarloAsian, LonestarGPU worklists, HeCBench's
// debug printf and functor-style kernels, Chai's host drivers), each bug
// next to a correct twin, written before memspace ran on them.

import (
	"fmt"
	"math"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

// AMD BinomialOption keeps its risk-free rate and volatility in host
// globals that the OpenCL host code passes as kernel arguments; read from
// a Go package-level variable inside the kernel they are host memory.
var riskFree, volatility float32 = 0.02, 0.30

//gpu:kernel
func BinomialRatesGlobal(t gpu.Thread, s, out []float32) {
	i := t.GlobalIdx().X
	if i < len(s) && i < len(out) {
		out[i] = s[i] * (1 + riskFree - volatility) // want `package-level variable riskFree` `package-level variable volatility`
	}
}

const riskFreeConst, volatilityConst = 0.02, 0.30

//gpu:kernel
func BinomialRatesConst(t gpu.Thread, s, out []float32) {
	i := t.GlobalIdx().X
	if i < len(s) && i < len(out) {
		out[i] = s[i] * (1 + riskFreeConst - volatilityConst)
	}
}

// HeCBench kernels often keep a debug printf in the kernel.
//
//gpu:kernel
func DebugPrintf(t gpu.Thread, x []float32) {
	i := t.GlobalIdx().X
	if i == 0 && len(x) > 0 {
		fmt.Println("x[0] =", x[0]) // want `fmt.Println`
	}
}

// LonestarGPU's per-thread local worklist, written with append. A second
// diagnostic, about `varargs` (an SSA temporary the user never wrote),
// recorded as a wrong message in testdata/corpus/HELDOUT.md, "issue 20",
// is gone since the loop's constant bound gives it a slot per iteration.
//
//gpu:kernel
func LocalWorklistAppend(t gpu.Thread, adj, out []int32) {
	var wl []int32
	i := t.GlobalIdx().X
	for k := 0; k < 4 && i*4+k < len(adj); k++ {
		wl = append(wl, adj[i*4+k]) // want `append`
	}
	if i < len(out) && len(wl) > 0 {
		out[i] = wl[0]
	}
}

// The same worklist in a fixed-size local array with a count.
//
//gpu:kernel
func LocalWorklistArray(t gpu.Thread, adj, out []int32) {
	var wl [4]int32
	n := 0
	i := t.GlobalIdx().X
	for k := 0; k < 4 && i*4+k < len(adj); k++ {
		wl[n] = adj[i*4+k]
		n++
	}
	if i < len(out) && n > 0 {
		out[i] = wl[0]
	}
}

// MonteCarloAsian's path step with float64 math from the math package.
//
//gpu:kernel
func AsianPathStep(t gpu.Thread, s []float64, drift, vol float64, z []float64) {
	i := t.GlobalIdx().X
	if i < len(s) && i < len(z) {
		s[i] *= math.Exp(drift + vol*z[i])
	}
}

// A functor-style kernel (Thrust-like code ported by hand) taking the
// operation as a function value.
//
//gpu:kernel
func TransformFunc(t gpu.Thread, op func(float32) float32, x []float32) { // want `func`
	i := t.GlobalIdx().X
	if i < len(x) {
		x[i] = op(x[i]) // want `function value`
	}
}

// Chai-style host driver: the input stays a host slice by mistake, and the
// correct launch beside it.
func ChaiHost(d *device.Device, host []float32, xb, ob *device.Buffer[float32], zb *device.Buffer[float64]) error {
	grid := gpu.Dim3{X: (len(host) + 255) / 256, Y: 1, Z: 1}
	if err := d.Launch(BinomialRatesConst, grid, block256, host, ob); err != nil { // want `host slice`
		return err
	}
	if err := d.Launch(BinomialRatesConst, grid, block256, xb, ob); err != nil {
		return err
	}
	if err := d.Launch(AsianPathStep, grid, block256, zb, float32(0.1), 0.2, zb); err != nil { // want `float32`
		return err
	}
	return d.Launch(AsianPathStep, grid, block256, zb, 0.1, 0.2, zb)
}
