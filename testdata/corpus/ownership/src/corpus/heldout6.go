package corpus

// Held-out programs, sixth round (issue 13, HELDOUT-host.md): host drivers
// in the style of cuda-samples (vectorAdd, matrixMul, simpleMultiGPU,
// simpleStreams, reduction), their cleanup spelled the ways Go code spells
// it, written and scored before the analyzer was changed for them.

import (
	"fmt"

	"github.com/gpukvet/gpukvet/device"
)

// verdict: uaf
func h6LaunchAfterFree(d *device.Device, xs []float32) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	if err := b.Free(); err != nil {
		return err
	}
	return d.Launch(Scale, grid(len(xs)), block, float32(2), b)
}

// verdict: uaf
func h6FreeInputBeforeLaunch(d *device.Device, xs, ys []float32) error {
	x, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	y, err := device.Upload(d, ys)
	if err != nil {
		x.Free()
		return err
	}
	defer y.Free()
	x.Free() // "inputs are no longer needed": but the launch below reads x
	return d.Launch(Add, grid(len(xs)), block, x, y, y)
}

// verdict: clean
func h6VectorAdd(d *device.Device, a, b []float32) ([]float32, error) {
	da, err := device.Upload(d, a)
	if err != nil {
		return nil, err
	}
	defer da.Free()
	db, err := device.Upload(d, b)
	if err != nil {
		return nil, err
	}
	defer db.Free()
	dc, err := device.Alloc[float32](d, len(a))
	if err != nil {
		return nil, err
	}
	defer dc.Free()
	if err := d.Launch(Add, grid(len(a)), block, da, db, dc); err != nil {
		return nil, fmt.Errorf("vectorAdd: %w", err)
	}
	return dc.Download()
}

// verdict: doublefree
func h6DeferAndExplicitFree(d *device.Device, xs []float32) ([]float32, error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer b.Free()
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
		return nil, err
	}
	out, err := b.Download()
	b.Free()
	return out, err
}

// verdict: doublefree
func h6DeferLoopAndExplicitFree(d *device.Device, n int) error {
	var bufs []*device.Buffer[float32]
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	for i := 0; i < 3; i++ {
		b, err := device.Alloc[float32](d, n)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
	}
	if err := d.Launch(Add, grid(n), block, bufs[0], bufs[1], bufs[2]); err != nil {
		return err
	}
	return bufs[2].Free()
}

// verdict: clean
func h6MultiGPUSlices(d *device.Device, parts [][]float32) (float32, error) {
	var bufs []*device.Buffer[float32]
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	for _, p := range parts {
		b, err := device.Upload(d, p)
		if err != nil {
			return 0, err
		}
		bufs = append(bufs, b)
	}
	var sum float32
	for i, b := range bufs {
		if err := d.Launch(Scale, grid(len(parts[i])), block, float32(2), b); err != nil {
			return 0, err
		}
		xs, err := b.Download()
		if err != nil {
			return 0, err
		}
		for _, x := range xs {
			sum += x
		}
	}
	return sum, nil
}

// verdict: clean
func h6StreamsFreedAtEnd(d *device.Device, chunks [][]float32) error {
	var bufs []*device.Buffer[float32]
	for _, c := range chunks {
		b, err := device.Upload(d, c)
		if err != nil {
			break
		}
		bufs = append(bufs, b)
	}
	for _, b := range bufs {
		if err := d.Launch(Scale, grid(b.Len()), block, float32(0.5), b); err != nil {
			break
		}
	}
	err := d.Sync()
	for _, b := range bufs {
		b.Free()
	}
	return err
}

// verdict: leak
func h6AppendedNeverFreed(d *device.Device, chunks [][]float32) (int, error) {
	var bufs []*device.Buffer[float32]
	for _, c := range chunks {
		b, err := device.Upload(d, c)
		if err != nil {
			return 0, err
		}
		bufs = append(bufs, b)
	}
	total := 0
	for _, b := range bufs {
		total += b.Len()
	}
	return total, nil
}

// verdict: clean
func h6ReductionLastPass(d *device.Device, xs []float32, passes int) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	if passes < 1 {
		return b.Free()
	}
	last := passes - 1
	for i := 0; i < passes; i++ {
		if err := d.Launch(Scale, grid(len(xs)), block, float32(0.5), b); err != nil {
			b.Free()
			return err
		}
		if i == last {
			if err := b.Free(); err != nil {
				return err
			}
		}
	}
	return nil
}

// verdict: clean
func h6FreeOnFinalChunk(d *device.Device, chunks [][]float32) error {
	scratch, err := device.Alloc[float32](d, 1024)
	if err != nil {
		return err
	}
	if len(chunks) == 0 {
		return scratch.Free()
	}
	for i, c := range chunks {
		_ = c
		if err := d.Launch(Scale, grid(1024), block, float32(1), scratch); err != nil {
			scratch.Free()
			return err
		}
		if i == len(chunks)-1 {
			scratch.Free()
		}
	}
	return nil
}

// verdict: leak
func h6MatrixMulErrorPathLeak(d *device.Device, a, b []float32, n int) ([]float32, error) {
	da, err := device.Upload(d, a)
	if err != nil {
		return nil, err
	}
	db, err := device.Upload(d, b)
	if err != nil {
		return nil, err
	}
	defer da.Free()
	defer db.Free()
	dc, err := device.Alloc[float32](d, n*n)
	if err != nil {
		return nil, err
	}
	defer dc.Free()
	if err := d.Launch(Add, grid(n*n), block, da, db, dc); err != nil {
		return nil, err
	}
	return dc.Download()
}

// verdict: uaf
func h6DownloadAfterDeferredCleanupRan(d *device.Device, xs []float32) ([]float32, error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	cleanup := func() { b.Free() }
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
		cleanup()
		return nil, err
	}
	cleanup()
	return b.Download()
}
