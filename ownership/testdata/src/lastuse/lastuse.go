package lastuse // want package:"ownership: buffer API"

// Issue 13's classes, each spelled several ways next to a correct twin: a
// launch is a use, a deferred Free plus an explicit one is a double free
// (also through a slice of buffers), buffers appended to a local slice are
// the function's to free, and a Free on a loop's last iteration only.

import (
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

func k(t gpu.Thread, x []float32) {}

func k3(t gpu.Thread, x, y, z []float32) {}

var one = gpu.Dim3{X: 1, Y: 1, Z: 1}

// --- A launch reads its buffers.

func launchAfterFree(d *device.Device) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	b.Free()
	return d.Launch(k, one, one, b) // want `buffer b is used by Launch at line \d+ after Free at line \d+`
}

func launchOneOfThreeAfterFree(d *device.Device) error {
	x, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	y, err := device.Alloc[float32](d, 4)
	if err != nil {
		x.Free()
		return err
	}
	defer y.Free()
	x.Free()
	return d.Launch(k3, one, one, y, x, y) // want `buffer x is used by Launch at line \d+ after Free at line \d+`
}

func release(b *device.Buffer[float32]) { b.Free() } // want release:`ownership: frees \[0\], takes \[0\]`

func launchAfterHelperFree(d *device.Device) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	release(b)
	return d.Launch(k, one, one, b) // want `buffer b is used by Launch at line \d+ after a call to release freed it`
}

func launchThenFree(d *device.Device) error {
	x, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	y, err := device.Alloc[float32](d, 4)
	if err != nil {
		x.Free()
		return err
	}
	defer y.Free()
	err = d.Launch(k3, one, one, y, x, y)
	x.Free()
	return err
}

// --- A deferred Free and an explicit one.

func deferAndFree(d *device.Device) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	defer b.Free()
	return b.Free() // want `buffer b is freed twice: Free at line \d+, and again by the deferred Free`
}

func deferredLoopAndIndexFree(d *device.Device, n int) error {
	var bufs []*device.Buffer[float32]
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 4)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
	}
	if len(bufs) > 0 {
		bufs[0].Free() // want `an element of buffers bufs is freed twice: Free at line \d+, and again by the deferred call at line \d+`
	}
	return nil
}

func deferredLoopAndRangeFree(d *device.Device, n int) error {
	var bufs []*device.Buffer[float32]
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 4)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
	}
	for _, b := range bufs {
		b.Free() // want `freed twice`
	}
	return nil
}

func deferThenLoopFree(d *device.Device) error {
	var bufs []*device.Buffer[float32]
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	defer b.Free()
	bufs = append(bufs, b)
	for _, x := range bufs {
		x.Free() // want `buffer b is freed twice: Free of an element of buffers bufs at line \d+, and the deferred Free at line \d+`
	}
	return nil
}

func deferredLoopOnly(d *device.Device, n int) error {
	var bufs []*device.Buffer[float32]
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 4)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
	}
	if len(bufs) > 0 {
		return d.Launch(k, one, one, bufs[0])
	}
	return nil
}

func explicitLoopOnly(d *device.Device, n int) error {
	var bufs []*device.Buffer[float32]
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 4)
		if err != nil {
			break
		}
		bufs = append(bufs, b)
	}
	for _, b := range bufs {
		b.Free()
	}
	return nil
}

// --- Buffers appended to a local slice.

func appendedNeverFreed(d *device.Device, n int) int {
	var bufs []*device.Buffer[float32]
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 4)
		if err != nil {
			break
		}
		bufs = append(bufs, b)
	}
	return len(bufs) // want `the buffers held in bufs from line \d+ are not freed on the return at line \d+`
}

func appendedFreedByIndex(d *device.Device, n int) {
	bufs := make([]*device.Buffer[float32], 0, n)
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 4)
		if err != nil {
			break
		}
		bufs = append(bufs, b)
	}
	for i := 0; i < len(bufs); i++ {
		bufs[i].Free()
	}
}

// --- A Free on a loop's last iteration.

func freeOnLastPass(d *device.Device, passes int) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	if passes < 1 {
		return b.Free()
	}
	for p := 0; p < passes; p++ {
		if err := d.Launch(k, one, one, b); err != nil {
			b.Free()
			return err
		}
		if p == passes-1 {
			b.Free()
		}
	}
	return nil
}

func freeOnLastNamed(d *device.Device, xs [][]float32) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	if len(xs) == 0 {
		return b.Free()
	}
	last := len(xs) - 1
	for i := range xs {
		_ = d.Launch(k, one, one, b)
		if i == last {
			b.Free()
		}
	}
	return nil
}

func freeOnLastPlusOne(d *device.Device, n int) {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return
	}
	if n <= 0 {
		b.Free()
		return
	}
	for i := 0; i < n; i++ {
		_ = b.Len()
		if i+1 == n {
			b.Free()
		}
	}
}

func freeOnLastConstant(d *device.Device) {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return
	}
	for i := 0; i < 4; i++ {
		_ = b.Len()
		if i != 3 {
			continue
		}
		b.Free()
	}
}

func freeOnLastMayNotRun(d *device.Device, n int) {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return
	}
	for i := 0; i < n; i++ {
		if i == n-1 {
			b.Free()
		}
	}
} // want `buffer from device.Alloc at line \d+ is not freed before the function ends at line \d+`

func freeOnLastThenUse(d *device.Device, n int) int {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return 0
	}
	if n < 1 {
		b.Free()
		return 0
	}
	for i := 0; i < n; i++ {
		if i == n-1 {
			b.Free()
		}
	}
	return b.Len() // want `buffer b is used by Len at line \d+ after Free at line \d+`
}

func freeOnLastThenFreeAgain(d *device.Device, n int) {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return
	}
	for i := 0; i < n; i++ {
		if i == n-1 {
			b.Free()
		}
		_ = b.Len() // want `buffer b is used by Len at line \d+ after Free at line \d+`
	}
	b.Free() // want `buffer b is freed twice: Free at line \d+ after Free at line \d+`
}

func freeOnSecondToLast(d *device.Device, n int) {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return
	}
	for i := 0; i < n; i++ {
		_ = b.Len() // want `buffer b is used by Len at line \d+ after Free at line \d+`
		if i == n-2 {
			b.Free() // want `freed twice`
		}
	}
} // want `not freed`

func freeOnLastRangeInt(d *device.Device, passes int) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	if passes <= 0 {
		return b.Free()
	}
	for p := range passes {
		if err := d.Launch(k, one, one, b); err != nil {
			b.Free()
			return err
		}
		if p == passes-1 {
			if err := b.Free(); err != nil {
				return err
			}
		}
	}
	return nil
}

func freeOnLastRangeSlice(d *device.Device, parts []int) {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return
	}
	if len(parts) < 1 {
		b.Free()
		return
	}
	for i, n := range parts {
		_ = n + b.Len()
		if i == len(parts)-1 {
			b.Free()
		}
	}
}

func freeOnLastRangeIntMayNotRun(d *device.Device, passes int) {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return
	}
	for p := range passes {
		_ = b.Len()
		if p == passes-1 {
			b.Free()
		}
	}
} // want `buffer from device.Alloc at line \d+ is not freed before the function ends`

func freeOnLastRangeIntThenUse(d *device.Device, passes int) int {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return 0
	}
	if passes < 1 {
		b.Free()
		return 0
	}
	for p := range passes {
		if p == passes-1 {
			b.Free()
		}
	}
	return b.Len() // want `buffer b is used by Len at line \d+ after Free at line \d+`
}

func deferredLoopSkipsCleared(d *device.Device, n int) error {
	var bufs []*device.Buffer[float32]
	defer func() {
		for _, b := range bufs {
			if b != nil {
				b.Free()
			}
		}
	}()
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 4)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
	}
	if len(bufs) > 0 {
		bufs[0].Free()
		bufs[0] = nil
	}
	return nil
}
