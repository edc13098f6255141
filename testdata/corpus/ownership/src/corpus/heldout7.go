package corpus

// Held-out programs, seventh round (issue 20, HELDOUT.md): host drivers in
// the style of cuda-samples' simpleMultiGPU, HeCBench's main() loops
// (`repeat` launches, ping-pong buffers, per-chunk uploads), Rodinia's
// error paths and workspaces that grow, written as a Go user would and
// with their verdicts decided before any analyzer ran: defers of slices and
// of arguments, defers inside loops, buffers in struct fields and in maps.

import (
	"fmt"

	"corpus/lib"
	"github.com/gpukvet/gpukvet/device"
)

// freeEach frees every buffer of bufs.
func freeEach(bufs []*device.Buffer[float32]) {
	for _, b := range bufs {
		b.Free()
	}
}

// verdict: leak
// simpleMultiGPU's per-device buffers, with the cleanup deferred before
// the loop: `defer freeEach(bufs)` evaluates bufs (empty) at the defer, so
// nothing appended later is freed.
func h7DeferFreeAllEarly(d *device.Device, chunks [][]float32) error {
	var bufs []*device.Buffer[float32]
	defer freeEach(bufs)
	for _, c := range chunks {
		b, err := device.Upload(d, c)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
		if err := d.Launch(Scale, grid(len(c)), block, float32(2), b); err != nil {
			return err
		}
	}
	return d.Sync()
}

// verdict: clean
// The same driver with the cleanup in a closure, which reads bufs when it
// runs.
func h7DeferFreeAllClosure(d *device.Device, chunks [][]float32) error {
	var bufs []*device.Buffer[float32]
	defer func() { freeEach(bufs) }()
	for _, c := range chunks {
		b, err := device.Upload(d, c)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
		if err := d.Launch(Scale, grid(len(c)), block, float32(2), b); err != nil {
			return err
		}
	}
	return d.Sync()
}

// verdict: clean
// One upload per chunk with `defer b.Free()` in the loop: every defer runs
// when the function returns, so each chunk's buffer is freed.
func h7DeferInLoop(d *device.Device, chunks [][]float32) (float32, error) {
	var total float32
	for _, c := range chunks {
		b, err := device.Upload(d, c)
		if err != nil {
			return 0, err
		}
		defer b.Free()
		if err := d.Launch(Scale, grid(len(c)), block, float32(2), b); err != nil {
			return 0, err
		}
		out, err := b.Download()
		if err != nil {
			return 0, err
		}
		for _, x := range out {
			total += x
		}
	}
	return total, nil
}

// verdict: doublefree
// The loop's defer kept, and an explicit Free added after each chunk's
// download: each buffer is freed in the loop and again by its defer.
func h7DeferInLoopAndFree(d *device.Device, chunks [][]float32) error {
	for _, c := range chunks {
		b, err := device.Upload(d, c)
		if err != nil {
			return err
		}
		defer b.Free()
		if err := d.Launch(Scale, grid(len(c)), block, float32(2), b); err != nil {
			return err
		}
		if _, err := b.Download(); err != nil {
			return err
		}
		b.Free()
	}
	return nil
}

// verdict: clean
// `defer lib.Release(b)` after b is assigned: the argument is the buffer.
func h7DeferReleaseArg(d *device.Device, xs []float32) ([]float32, error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer lib.Release(b)
	if err := d.Launch(Scale, grid(len(xs)), block, float32(3), b); err != nil {
		return nil, err
	}
	return b.Download()
}

// verdict: leak
// The deferred release written before the upload, on the variable
// declared above it: the defer's argument is evaluated then (nil), and
// the uploaded buffer is never freed.
func h7DeferReleaseBeforeAssign(d *device.Device, xs []float32) ([]float32, error) {
	var b *device.Buffer[float32]
	defer func(b *device.Buffer[float32]) {
		if b != nil {
			b.Free()
		}
	}(b)
	b, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	if err := d.Launch(Scale, grid(len(xs)), block, float32(3), b); err != nil {
		return nil, err
	}
	return b.Download()
}

// workspace is a scratch buffer that grows on demand (Rodinia's and
// HeCBench's "resize if too small" host helpers).
type workspace struct {
	d   *device.Device
	buf *device.Buffer[float32]
}

// verdict: leak
// Growing the workspace by allocating a larger buffer into the field
// without freeing the old one.
func (w *workspace) h7GrowLeak(n int) error {
	if w.buf != nil && w.buf.Len() >= n {
		return nil
	}
	b, err := device.Alloc[float32](w.d, n)
	if err != nil {
		return err
	}
	w.buf = b
	return nil
}

// verdict: clean
// Growing the workspace, the old buffer freed first.
func (w *workspace) h7GrowFreeOld(n int) error {
	if w.buf != nil && w.buf.Len() >= n {
		return nil
	}
	b, err := device.Alloc[float32](w.d, n)
	if err != nil {
		return err
	}
	if w.buf != nil {
		w.buf.Free()
	}
	w.buf = b
	return nil
}

// verdict: clean
// A workspace used for a series of launches and freed by its owner.
func h7WorkspaceSeries(d *device.Device, sizes []int) error {
	w := &workspace{d: d}
	defer func() {
		if w.buf != nil {
			w.buf.Free()
		}
	}()
	for _, n := range sizes {
		if err := w.h7GrowFreeOld(n); err != nil {
			return err
		}
		if err := d.Launch(Scale, grid(n), block, float32(1), w.buf); err != nil {
			return err
		}
	}
	return d.Sync()
}

// verdict: leak
// A cache of uploaded inputs keyed by name; evicting an entry deletes it
// from the map without freeing its buffer.
func h7CacheEvictLeak(d *device.Device, cache map[string]*device.Buffer[float32], name string, xs []float32) error {
	if _, ok := cache[name]; ok {
		delete(cache, name)
	}
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	cache[name] = b
	return nil
}

// verdict: clean
// The same cache, the evicted buffer freed before the entry is deleted.
func h7CacheEvictFree(d *device.Device, cache map[string]*device.Buffer[float32], name string, xs []float32) error {
	if old, ok := cache[name]; ok {
		old.Free()
		delete(cache, name)
	}
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	cache[name] = b
	return nil
}

// verdict: leak
// A Rodinia-style setup: the second allocation fails and the error return
// forgets the first buffer.
func h7SecondAllocFails(d *device.Device, n int) (*lib.Pair, error) {
	x, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, err
	}
	y, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, fmt.Errorf("allocating y: %w", err)
	}
	return &lib.Pair{X: x, Y: y}, nil
}

// verdict: clean
// Jacobi's ping-pong buffers, swapped after each sweep (HeCBench jacobi's
// `repeat` loop); both freed by defers.
func h7PingPong(d *device.Device, xs []float32, iters int) ([]float32, error) {
	a, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer a.Free()
	b, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		return nil, err
	}
	defer b.Free()
	src, dst := a, b
	for range iters {
		if err := d.Launch(Add, grid(len(xs)), block, src, src, dst); err != nil {
			return nil, err
		}
		src, dst = dst, src
	}
	return src.Download()
}

// verdict: doublefree
// The ping-pong with the result buffer freed by hand after the download:
// `src` is `a` or `b`, both of which their defers free again.
func h7PingPongFreeResult(d *device.Device, xs []float32, iters int) ([]float32, error) {
	a, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer a.Free()
	b, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		return nil, err
	}
	defer b.Free()
	src, dst := a, b
	for range iters {
		if err := d.Launch(Add, grid(len(xs)), block, src, src, dst); err != nil {
			return nil, err
		}
		src, dst = dst, src
	}
	out, err := src.Download()
	src.Free()
	return out, err
}

// verdict: uaf
// HeCBench main()'s teardown reordered: the device buffer is freed before
// the result is copied back.
func h7FreeThenCopyBack(d *device.Device, xs []float32) ([]float32, error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
		b.Free()
		return nil, err
	}
	b.Free()
	return b.Download()
}

// verdict: leak
// A `repeat` loop that uploads the input afresh every iteration into the
// same variable and frees only the last upload.
func h7RepeatUploadLeak(d *device.Device, xs []float32, repeat int) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	for range repeat {
		b, err = device.Upload(d, xs)
		if err != nil {
			return err
		}
		if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
			b.Free()
			return err
		}
	}
	return b.Free()
}

// verdict: clean
// Buffers held in a map by device index (simpleMultiGPU's per-GPU plan),
// all freed by ranging over the map.
func h7PlanMapFreeAll(d *device.Device, parts map[int][]float32) error {
	plan := map[int]*device.Buffer[float32]{}
	defer func() {
		for _, b := range plan {
			b.Free()
		}
	}()
	for i, p := range parts {
		b, err := device.Upload(d, p)
		if err != nil {
			return err
		}
		plan[i] = b
	}
	for i, b := range plan {
		if err := d.Launch(Scale, grid(len(parts[i])), block, float32(2), b); err != nil {
			return err
		}
	}
	return d.Sync()
}
