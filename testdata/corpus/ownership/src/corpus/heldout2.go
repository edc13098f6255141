package corpus

// Held-out programs, second round (HELDOUT-host.md): written after the
// first round's fixes, still without reading the analyzer.

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gpukvet/gpukvet/device"
)

// freeAll frees every buffer it receives (a generic variadic helper).
func freeAll[T any](bs ...*device.Buffer[T]) error {
	var errs []error
	for _, b := range bs {
		errs = append(errs, b.Free())
	}
	return errors.Join(errs...)
}

// job holds a buffer but has no Close: it does not own it.
type job struct {
	buf *device.Buffer[float32]
	n   int
}

// verdict: clean
func h2WaitGroupThenFree(d *device.Device, xs []float32) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	var lerr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		lerr = d.Launch(Scale, grid(len(xs)), block, float32(2), b)
	}()
	wg.Wait()
	b.Free()
	return lerr
}

// verdict: clean
func h2FailClosure(d *device.Device, xs []float32) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	fail := func(err error) error {
		b.Free()
		return fmt.Errorf("pipeline: %w", err)
	}
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
		return fail(err)
	}
	if err := d.Sync(); err != nil {
		return fail(err)
	}
	return b.Free()
}

// verdict: leak
//
// Written as a clean program; the analyzer was right: `return nil, err`
// sets the named result b to nil before the deferred literal runs, so it
// frees nothing and the buffer leaks.
func h2NamedErrDeferFree(d *device.Device, xs []float32) (b *device.Buffer[float32], err error) {
	b, err = device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			b.Free()
			b = nil
		}
	}()
	if err = d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
		return nil, err
	}
	return b, nil
}

// verdict: clean
func h2VariadicGenericFree(d *device.Device, n int) error {
	a, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		a.Free()
		return err
	}
	lerr := d.Launch(Add, grid(n), block, a, a, b)
	return errors.Join(lerr, freeAll(a, b))
}

// verdict: uaf
func h2UseAfterVariadicFree(d *device.Device, n int) (int, error) {
	a, err := device.Alloc[float32](d, n)
	if err != nil {
		return 0, err
	}
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		a.Free()
		return 0, err
	}
	if err := freeAll(a, b); err != nil {
		return 0, err
	}
	return b.Len(), nil
}

// verdict: leak
func h2OverwriteInSwap(d *device.Device, xs []float32) ([]float32, error) {
	a, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	b, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		a.Free()
		return nil, err
	}
	if err := d.Launch(Add, grid(len(xs)), block, a, a, b); err != nil {
		a.Free()
		b.Free()
		return nil, err
	}
	a = b // the first buffer is lost
	defer a.Free()
	return a.Download()
}

// verdict: clean
func h2IndexedSliceFill(d *device.Device, n, k int) ([]*device.Buffer[float32], error) {
	bufs := make([]*device.Buffer[float32], k)
	for i := range bufs {
		b, err := device.Alloc[float32](d, n)
		if err != nil {
			for _, prev := range bufs[:i] {
				prev.Free()
			}
			return nil, err
		}
		bufs[i] = b
	}
	return bufs, nil
}

// verdict: leak
func h2IndexedSliceFillLeaks(d *device.Device, n, k int) ([]*device.Buffer[float32], error) {
	bufs := make([]*device.Buffer[float32], k)
	for i := range bufs {
		b, err := device.Alloc[float32](d, n)
		if err != nil {
			return nil, fmt.Errorf("buffer %d: %w", i, err)
		}
		bufs[i] = b
	}
	return bufs, nil
}

// verdict: leak
func h2LabeledBreakLeaks(d *device.Device, grids [][][]float32) error {
outer:
	for _, rows := range grids {
		for _, xs := range rows {
			b, err := device.Upload(d, xs)
			if err != nil {
				return err
			}
			if len(xs) == 0 {
				break outer
			}
			b.Free()
		}
	}
	return nil
}

// verdict: clean
func h2ContextCancel(ctx context.Context, d *device.Device, xs []float32, out chan<- *device.Buffer[float32]) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	select {
	case out <- b:
		return nil
	case <-ctx.Done():
		b.Free()
		return ctx.Err()
	}
}

// verdict: leak
func h2ContextCancelLeaks(ctx context.Context, d *device.Device, xs []float32, out chan<- *device.Buffer[float32]) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	select {
	case out <- b:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// verdict: uaf
func h2LaunchArgsSliceAfterFree(d *device.Device, n int) error {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	args := []any{float32(2), b}
	b.Free()
	return d.Launch(Scale, grid(n), block, args...)
}

// verdict: clean
func h2ScopedIfInit(d *device.Device, xs []float32) error {
	if b, err := device.Upload(d, xs); err == nil {
		defer b.Free()
		return d.Launch(Scale, grid(len(xs)), block, float32(2), b)
	} else {
		return err
	}
}

// verdict: doublefree
func h2DoubleFreeVariadicAndDefer(d *device.Device, n int) error {
	a, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	defer a.Free()
	if err := d.Launch(Scale, grid(n), block, float32(1), a); err != nil {
		return err
	}
	return freeAll(a)
}

// verdict: clean
func h2ErrorsJoinFree(d *device.Device, xs []float32) ([]float32, error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	out, derr := b.Download()
	return out, errors.Join(derr, b.Free())
}

// verdict: leak
func h2ErrorsIsEarlyReturn(d *device.Device, xs []float32, skip error) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); errors.Is(err, skip) {
		return nil
	} else if err != nil {
		b.Free()
		return err
	}
	return b.Free()
}

// verdict: clean
func h2MethodValueDeferredFreeAll(d *device.Device, xs []float32) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	c, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		b.Free()
		return err
	}
	defer freeAll(b, c)
	return d.Launch(Add, grid(len(xs)), block, b, b, c)
}

// verdict: uaf
func h2DownloadAfterDeferredLoopFree(d *device.Device, batches [][]float32) ([]float32, error) {
	var last *device.Buffer[float32]
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return nil, err
		}
		if last != nil {
			last.Free()
		}
		last = b
	}
	if last == nil {
		return nil, nil
	}
	last.Free()
	return last.Download()
}

// verdict: leak
func h2LocalJobStruct(d *device.Device, xs []float32) (int, error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return 0, err
	}
	j := job{buf: b, n: len(xs)}
	if err := d.Launch(Scale, grid(j.n), block, float32(2), j.buf); err != nil {
		return 0, err
	}
	return j.n, j.buf.Free()
}

// verdict: clean
func h2NamedErrDeferFreeKeepsResult(d *device.Device, xs []float32) (b *device.Buffer[float32], err error) {
	b, err = device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			b.Free()
			b = nil
		}
	}()
	err = d.Launch(Scale, grid(len(xs)), block, float32(2), b)
	return b, err
}

// verdict: leak
func h2PrevNeverFreed(d *device.Device, batches [][]float32) error {
	var prev *device.Buffer[float32]
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		if prev != nil {
			if err := d.Launch(Add, grid(len(xs)), block, prev, prev, b); err != nil {
				return err
			}
		}
		prev = b
	}
	if prev != nil {
		return prev.Free()
	}
	return nil
}

// verdict: clean
func h2PrevFreedAfterNext(d *device.Device, batches [][]float32) error {
	var prev *device.Buffer[float32]
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			if prev != nil {
				prev.Free()
			}
			return err
		}
		if prev != nil {
			err := d.Launch(Add, grid(len(xs)), block, prev, prev, b)
			prev.Free()
			if err != nil {
				b.Free()
				return err
			}
		}
		prev = b
	}
	if prev != nil {
		return prev.Free()
	}
	return nil
}

// verdict: clean
func h2TrySendOrFree(d *device.Device, xs []float32, out chan<- *device.Buffer[float32]) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	select {
	case out <- b:
	default:
		b.Free()
	}
	return nil
}

// verdict: leak
func h2TrySendDropsOnFull(d *device.Device, xs []float32, out chan<- *device.Buffer[float32]) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	select {
	case out <- b:
	default:
	}
	return nil
}
