// Package launchvalue pins Launch checks through function values: what a
// variable, a map or slice element, or a struct field holds, when the
// package shows it.
package launchvalue

import (
	"launchdep"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func Add(t gpu.Thread, a, b []float32, n int32) {
	if i := t.GlobalIdx().X; i < int(n) {
		b[i] += a[i]
	}
}

//gpu:kernel
func Fill(t gpu.Thread, v float32, out []float32) { out[t.GlobalIdx().X] = v }

func helper(t gpu.Thread, out []float32) {}

type sig = func(gpu.Thread, []float32, []float32, int32)

type table struct {
	main sig
	aux  any
}

type obj struct{}

func (obj) run(t gpu.Thread, out []float32) {}

var pkgKernel = Add // unexported, assigned once

var pkgLit sig = func(t gpu.Thread, a, b []float32, n int32) {}

func Bad(d *device.Device, a, b *device.Buffer[float32], ib *device.Buffer[int32], n int) {
	one := gpu.Dim3{X: 1, Y: 1, Z: 1}
	lit := func(t gpu.Thread, a, b []float32, n int32) {}
	_ = d.Launch(lit, one, one, a, b, int32(n)) // want `Launch of lit, which holds a function literal \(line 42\)`
	var late sig
	late = func(t gpu.Thread, a, b []float32, n int32) {}
	_ = d.Launch(late, one, one, a, b, int32(n)) // want `holds a function literal`
	alias := lit
	_ = d.Launch(alias, one, one, a, b, int32(n))  // want `Launch of alias, which holds a function literal`
	_ = d.Launch(pkgLit, one, one, a, b, int32(n)) // want `holds a function literal`
	h := helper
	_ = d.Launch(h, one, one, b) // want `Launch of h, which holds helper, not a //gpu:kernel function`
	m := obj{}.run
	_ = d.Launch(m, one, one, b) // want `holds the method value .*run`
	k := Add
	_ = d.Launch(k, one, one, a, b, 2.5)          // want `constant 2.5, which Launch receives as float64 and cannot convert to int32`
	_ = d.Launch(k, one, one, a, b, 1<<40)        // want `constant 1099511627776`
	_ = d.Launch(k, one, one, a, b)               // want `Launch of Add with 2 arguments`
	_ = d.Launch(k, one, one, a, ib, int32(n))    // want `Buffer\[int32\]`
	_ = d.Launch(pkgKernel, one, one, a, b, 0.5)  // want `constant 0.5`
	_ = d.Launch(k, one, gpu.Dim3{X: 0}, a, b, 1) // want `extent 0`
	byName := map[string]any{"add": Add, "fill": Fill}
	_ = d.Launch(byName["fill"], one, one, 1, ib)    // want `parameter out \[\]float32 is a \*device.Buffer\[int32\]`
	_ = d.Launch(byName["add"], one, one, a, b, 1.5) // want `constant 1.5`
	list := []sig{Add, func(t gpu.Thread, a, b []float32, n int32) {}}
	_ = d.Launch(list[n%2], one, one, a, b, int32(n)) // want `holds a function literal`
	arr := [2]any{Fill, Add}
	_ = d.Launch(arr[0], one, one, true, b) // want `constant true`
	tb := table{main: func(t gpu.Thread, a, b []float32, n int32) {}, aux: Fill}
	_ = d.Launch(tb.main, one, one, a, b, int32(n)) // want `Launch of tb.main, which holds a function literal`
	_ = d.Launch(tb.aux, one, one, 2.5, a, b)       // want `Launch of Fill with 3 arguments`
	pt := &table{Add, helper}
	_ = d.Launch(pt.aux, one, one, b) // want `holds helper`
	_ = d.Launch(launchdepKernel(), one, one, b)
}

func launchdepKernel() any { return launchdep.Fill }

func Good(d *device.Device, a, b *device.Buffer[float32], n int, pick bool, choose func() sig) error {
	one := gpu.Dim3{X: 1, Y: 1, Z: 1}
	k := Add
	if err := d.Launch(k, one, one, a, b, 2); err != nil {
		return err
	}
	if err := d.Launch(pkgKernel, one, one, a, b, int32(n)); err != nil {
		return err
	}
	byName := map[string]any{"add": Add, "fill": Fill}
	if err := d.Launch(byName["fill"], one, one, 1, b); err != nil {
		return err
	}
	// Which element is unknown: each is a kernel, arguments checked at run time.
	key := "add"
	if pick {
		key = "fill"
	}
	if err := d.Launch(byName[key], one, one, 1, b); err != nil {
		return err
	}
	tb := table{main: Add, aux: Fill}
	if err := d.Launch(tb.main, one, one, a, b, 7); err != nil {
		return err
	}
	if err := d.Launch(tb.aux, one, one, float32(0.5), b); err != nil {
		return err
	}
	var chosen sig = Add
	if pick {
		chosen = Add
	}
	if err := d.Launch(chosen, one, one, a, b, 3.0); err != nil {
		return err
	}
	// A value the package does not show: checked at run time only.
	if err := d.Launch(choose(), one, one, a, b, 2.5); err != nil {
		return err
	}
	mut := map[string]any{"k": Add}
	replace(mut)
	if err := d.Launch(mut["k"], one, one, b); err != nil {
		return err
	}
	var swapped sig = Add
	set(&swapped)
	return d.Launch(swapped, one, one, a)
}

func replace(m map[string]any) { m["k"] = Fill }

// A parameter reassigned in its function still held what the caller passed
// before: only the run time knows.
func Param(d *device.Device, a *device.Buffer[float32], k sig, reset bool) error {
	one := gpu.Dim3{X: 1, Y: 1, Z: 1}
	if reset {
		k = Add
	}
	return d.Launch(k, one, one, a, a, 2.5)
}

func set(p *sig) { *p = nil }

// launch is a launch wrapper: its kernel, block and arguments reach Launch
// as they are, its grid is its own.
func launch(d *device.Device, kernel any, block gpu.Dim3, n int, args ...any) error {
	grid := gpu.Dim3{X: (n + 255) / 256, Y: 1, Z: 1}
	return d.Launch(kernel, grid, block, args...)
}

// launchAll passes a kernel it chooses itself: not a wrapper.
func launchAll(d *device.Device, args ...any) error {
	one := gpu.Dim3{X: 1, Y: 1, Z: 1}
	return d.Launch(Fill, one, one, args...)
}

func ThroughWrapper(d *device.Device, a, b *device.Buffer[float32], ib *device.Buffer[int32], n int, rest []any) {
	one := gpu.Dim3{X: 1, Y: 1, Z: 1}
	_ = launch(d, Add, one, n, a, b, 2.5)                          // want `constant 2.5, which Launch receives as float64 and cannot convert to int32`
	_ = launch(d, Add, one, n, a, b)                               // want `Launch of Add with 2 arguments`
	_ = launch(d, Fill, one, n, 1, ib)                             // want `parameter out \[\]float32 is a \*device.Buffer\[int32\]`
	_ = launch(d, helper, one, n, b)                               // want `Launch of helper, which is not a //gpu:kernel function`
	_ = launch(d, func(t gpu.Thread, out []float32) {}, one, n, b) // want `function literal`
	_ = launch(d, Fill, gpu.Dim3{X: 0, Y: 1, Z: 1}, n, 1, b)       // want `extent 0`
	k := Add
	_ = launch(d, k, one, n, a, b, 1.5) // want `constant 1.5`
	_ = launch(d, Add, one, n, a, b, 3)
	_ = launch(d, Fill, one, n, float32(1), b)
	_ = launch(d, Add, one, n, rest...)
	_ = launchAll(d, 1, b)
	_ = launchAll(d, 2.5, ib) // checked at run time: launchAll is not a wrapper of its caller's kernel
}
