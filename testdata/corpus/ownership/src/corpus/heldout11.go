package corpus

// Held-out programs, seventh round (issue 20, HELDOUT-host.md: heldout11.go): host code
// translated from public CUDA suites (Rodinia backprop, bfs, pathfinder and
// hotspot; Parboil sgemm and stencil; cuda-samples simpleMultiGPU,
// simpleStreams, convolutionSeparable, histogram and scan; HeCBench hosts
// with device-buffer caches and resizable workspaces), their cudaMalloc /
// cudaFree patterns spelled the ways Go code spells them, written and scored
// before the analyzer was changed for them.

import (
	"errors"
	"fmt"

	"github.com/gpukvet/gpukvet/device"
)

// freeSlice frees every buffer of bufs (cuda-samples' cleanup loops).
func freeSlice(bufs []*device.Buffer[float32]) {
	for _, b := range bufs {
		b.Free()
	}
}

// verdict: clean
// Rodinia backprop, bpnn_train_cuda: four device arrays, one launch, the
// partial sums read back, everything freed at the end.
func h7BackpropTrain(d *device.Device, input, weights []float32, hid int) ([]float32, error) {
	inputCUDA, err := device.Upload(d, input)
	if err != nil {
		return nil, err
	}
	defer inputCUDA.Free()
	inputHidden, err := device.Upload(d, weights)
	if err != nil {
		return nil, err
	}
	defer inputHidden.Free()
	partial, err := device.Alloc[float32](d, hid*len(input)/16)
	if err != nil {
		return nil, err
	}
	defer partial.Free()
	if err := d.Launch(Add, grid(len(input)), block, inputCUDA, inputHidden, partial); err != nil {
		return nil, fmt.Errorf("bpnn_layerforward: %w", err)
	}
	return partial.Download()
}

// verdict: leak
// Rodinia backprop's second half: the output buffer is freed at the end of
// the happy path only; the launch error returns without it.
func h7BackpropAdjustLeaks(d *device.Device, delta, oldw []float32) ([]float32, error) {
	deltaCUDA, err := device.Upload(d, delta)
	if err != nil {
		return nil, err
	}
	defer deltaCUDA.Free()
	oldwCUDA, err := device.Upload(d, oldw)
	if err != nil {
		return nil, err
	}
	if err := d.Launch(Add, grid(len(oldw)), block, deltaCUDA, oldwCUDA, oldwCUDA); err != nil {
		return nil, err
	}
	out, err := oldwCUDA.Download()
	oldwCUDA.Free()
	return out, err
}

// verdict: clean
// Rodinia bfs: the "over" flag is a fresh one-element buffer each pass,
// freed by a defer at the function's end; the graph buffers are read after
// the loop.
func h7BfsOverPerPass(d *device.Device, mask []float32, passes int) ([]float32, error) {
	graph, err := device.Upload(d, mask)
	if err != nil {
		return nil, err
	}
	defer graph.Free()
	for p := 0; p < passes; p++ {
		over, err := device.Alloc[float32](d, 1)
		if err != nil {
			return nil, err
		}
		defer over.Free()
		if err := d.Launch(Add, grid(len(mask)), block, graph, graph, over); err != nil {
			return nil, err
		}
		flag, err := over.Download()
		if err != nil {
			return nil, err
		}
		if flag[0] == 0 {
			break
		}
	}
	return graph.Download()
}

// verdict: doublefree
// Rodinia bfs again, with cudaFree(d_over) kept at the end of each pass
// next to the Go defer that already frees it.
func h7BfsOverFreedEachPassAndDeferred(d *device.Device, mask []float32, passes int) error {
	graph, err := device.Upload(d, mask)
	if err != nil {
		return err
	}
	defer graph.Free()
	for p := 0; p < passes; p++ {
		over, err := device.Alloc[float32](d, 1)
		if err != nil {
			return err
		}
		defer over.Free()
		if err := d.Launch(Add, grid(len(mask)), block, graph, graph, over); err != nil {
			return err
		}
		over.Free()
	}
	return nil
}

// verdict: clean
// Rodinia hotspot: one result buffer per step, each freed by a defer in the
// loop; the buffers are kept in a slice and the last is read after the loop.
func h7HotspotStepsDeferred(d *device.Device, temp []float32, steps int) ([]float32, error) {
	if steps < 1 {
		return nil, errors.New("hotspot: no steps")
	}
	src, err := device.Upload(d, temp)
	if err != nil {
		return nil, err
	}
	defer src.Free()
	var outs []*device.Buffer[float32]
	for s := 0; s < steps; s++ {
		dst, err := device.Alloc[float32](d, len(temp))
		if err != nil {
			return nil, err
		}
		defer dst.Free()
		if err := d.Launch(Add, grid(len(temp)), block, src, src, dst); err != nil {
			return nil, err
		}
		outs = append(outs, dst)
	}
	return outs[len(outs)-1].Download()
}

// verdict: leak
// cuda-samples simpleMultiGPU: per-GPU input buffers collected in a slice
// whose cleanup is deferred before the loop fills it; the deferred call
// receives the empty slice.
func h7MultiGPUDeferFreeAllEarly(d *device.Device, parts [][]float32) (float32, error) {
	var bufs []*device.Buffer[float32]
	defer freeSlice(bufs)
	for _, p := range parts {
		b, err := device.Upload(d, p)
		if err != nil {
			return 0, err
		}
		bufs = append(bufs, b)
	}
	var sum float32
	for _, b := range bufs {
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
// The same driver with the cleanup in a deferred literal, which reads bufs
// when it runs.
func h7MultiGPUDeferClosureFreeAll(d *device.Device, parts [][]float32) (float32, error) {
	var bufs []*device.Buffer[float32]
	defer func() { freeSlice(bufs) }()
	for _, p := range parts {
		b, err := device.Upload(d, p)
		if err != nil {
			return 0, err
		}
		bufs = append(bufs, b)
	}
	var sum float32
	for _, b := range bufs {
		xs, err := b.Download()
		if err != nil {
			return 0, err
		}
		sum += xs[0]
	}
	return sum, nil
}

// streamPlan is simpleStreams' per-stream plan: two device arrays.
type streamPlan struct {
	in, out *device.Buffer[float32]
}

func freePlan(p streamPlan) {
	if p.in != nil {
		p.in.Free()
	}
	if p.out != nil {
		p.out.Free()
	}
}

func freePlanPtr(p *streamPlan) {
	if p.in != nil {
		p.in.Free()
	}
	if p.out != nil {
		p.out.Free()
	}
}

// verdict: leak
// cuda-samples simpleStreams with a plan struct: the cleanup is deferred
// with the plan passed by value while its fields are still nil.
func h7StreamPlanDeferredByValue(d *device.Device, xs []float32) ([]float32, error) {
	var p streamPlan
	defer freePlan(p)
	var err error
	p.in, err = device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	p.out, err = device.Alloc[float32](d, len(xs))
	if err != nil {
		return nil, err
	}
	if err := d.Launch(Add, grid(len(xs)), block, p.in, p.in, p.out); err != nil {
		return nil, err
	}
	return p.out.Download()
}

// verdict: clean
// The same with the plan passed by pointer: the deferred call sees the
// fields as they are at exit.
func h7StreamPlanDeferredByPointer(d *device.Device, xs []float32) ([]float32, error) {
	var p streamPlan
	defer freePlanPtr(&p)
	var err error
	p.in, err = device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	p.out, err = device.Alloc[float32](d, len(xs))
	if err != nil {
		return nil, err
	}
	if err := d.Launch(Add, grid(len(xs)), block, p.in, p.in, p.out); err != nil {
		return nil, err
	}
	return p.out.Download()
}

// Workspace is a HeCBench-style resizable scratch area: Close frees it.
type Workspace struct {
	scratch *device.Buffer[float32]
	n       int
}

func (w *Workspace) Close() error {
	if w.scratch == nil {
		return nil
	}
	return w.scratch.Free()
}

// growLeaky replaces the scratch buffer without freeing the old one.
func (w *Workspace) growLeaky(d *device.Device, n int) error {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	w.scratch, w.n = b, n
	return nil
}

// grow frees the old scratch buffer before it replaces it.
func (w *Workspace) grow(d *device.Device, n int) error {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	if w.scratch != nil {
		w.scratch.Free()
	}
	w.scratch, w.n = b, n
	return nil
}

// verdict: leak
// The caller of the leaky resize: the first scratch buffer is lost when
// the second replaces it.
func h7WorkspaceGrowLeaks(d *device.Device, sizes []int) error {
	w := &Workspace{}
	defer w.Close()
	if err := w.growLeaky(d, 256); err != nil {
		return err
	}
	if err := d.Launch(Scale, grid(256), block, float32(1), w.scratch); err != nil {
		return err
	}
	if err := w.growLeaky(d, 1024); err != nil {
		return err
	}
	return d.Launch(Scale, grid(1024), block, float32(1), w.scratch)
}

// verdict: clean
// The same with the careful resize.
func h7WorkspaceGrow(d *device.Device) error {
	w := &Workspace{}
	defer w.Close()
	if err := w.grow(d, 256); err != nil {
		return err
	}
	if err := d.Launch(Scale, grid(256), block, float32(1), w.scratch); err != nil {
		return err
	}
	if err := w.grow(d, 1024); err != nil {
		return err
	}
	return d.Launch(Scale, grid(1024), block, float32(1), w.scratch)
}

// verdict: leak
// Parboil stencil: the workspace's buffer re-uploaded per frame by storing
// straight into the field; each frame's old buffer is lost.
func h7StencilFieldReuploaded(d *device.Device, frames [][]float32) error {
	w := &Workspace{}
	defer w.Close()
	for _, f := range frames {
		b, err := device.Upload(d, f)
		if err != nil {
			return err
		}
		w.scratch = b
		if err := d.Launch(Scale, grid(len(f)), block, float32(0.5), w.scratch); err != nil {
			return err
		}
	}
	return nil
}

// verdict: clean
// The same freeing the previous frame's buffer before the store.
func h7StencilFieldReuploadedFreed(d *device.Device, frames [][]float32) error {
	w := &Workspace{}
	defer w.Close()
	for _, f := range frames {
		b, err := device.Upload(d, f)
		if err != nil {
			return err
		}
		if w.scratch != nil {
			w.scratch.Free()
		}
		w.scratch = b
		if err := d.Launch(Scale, grid(len(f)), block, float32(0.5), w.scratch); err != nil {
			return err
		}
	}
	return nil
}

// verdict: leak
// A HeCBench-style device buffer cache keyed by name: evicting an entry
// drops its buffer without cudaFree.
func h7CacheEvictWithoutFree(d *device.Device, names []string, n int) error {
	cache := map[string]*device.Buffer[float32]{}
	defer func() {
		for _, b := range cache {
			b.Free()
		}
	}()
	for _, name := range names {
		b, err := device.Alloc[float32](d, n)
		if err != nil {
			return err
		}
		cache[name] = b
	}
	for _, name := range names[:len(names)/2] {
		delete(cache, name)
	}
	return d.Sync()
}

// verdict: clean
// The same cache freeing an entry's buffer before deleting it.
func h7CacheEvictFreed(d *device.Device, names []string, n int) error {
	cache := map[string]*device.Buffer[float32]{}
	defer func() {
		for _, b := range cache {
			b.Free()
		}
	}()
	for _, name := range names {
		b, err := device.Alloc[float32](d, n)
		if err != nil {
			return err
		}
		cache[name] = b
	}
	for _, name := range names[:len(names)/2] {
		if b, ok := cache[name]; ok {
			b.Free()
			delete(cache, name)
		}
	}
	return d.Sync()
}

// verdict: clean
// cuda-samples convolutionSeparable: row pass into a temporary buffer, the
// column pass reads it, the temporary is freed after the second launch.
func h7ConvolutionSeparable(d *device.Device, img []float32) ([]float32, error) {
	in, err := device.Upload(d, img)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	tmp, err := device.Alloc[float32](d, len(img))
	if err != nil {
		return nil, err
	}
	out, err := device.Alloc[float32](d, len(img))
	if err != nil {
		tmp.Free()
		return nil, err
	}
	defer out.Free()
	if err := d.Launch(Add, grid(len(img)), block, in, in, tmp); err != nil {
		tmp.Free()
		return nil, err
	}
	err = d.Launch(Add, grid(len(img)), block, tmp, tmp, out)
	tmp.Free()
	if err != nil {
		return nil, err
	}
	return out.Download()
}

// verdict: uaf
// convolutionSeparable with the temporary freed between the two passes.
func h7ConvolutionTmpFreedEarly(d *device.Device, img []float32) ([]float32, error) {
	in, err := device.Upload(d, img)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	tmp, err := device.Alloc[float32](d, len(img))
	if err != nil {
		return nil, err
	}
	out, err := device.Alloc[float32](d, len(img))
	if err != nil {
		tmp.Free()
		return nil, err
	}
	defer out.Free()
	if err := d.Launch(Add, grid(len(img)), block, in, in, tmp); err != nil {
		tmp.Free()
		return nil, err
	}
	tmp.Free()
	if err := d.Launch(Add, grid(len(img)), block, tmp, tmp, out); err != nil {
		return nil, err
	}
	return out.Download()
}

// histogramPlan is cuda-samples histogram's partial-histogram storage;
// closeHistogram frees it.
type histogramPlan struct{ partial *device.Buffer[float32] }

func (h *histogramPlan) Close() error { return h.partial.Free() }

// verdict: doublefree
// cuda-samples histogram: closeHistogram256() frees the partial
// histograms, and main frees them again.
func h7HistogramClosedThenFreed(d *device.Device, data []float32) ([]float32, error) {
	partial, err := device.Alloc[float32](d, 256*240)
	if err != nil {
		return nil, err
	}
	h := &histogramPlan{partial: partial}
	if err := d.Launch(Add, grid(len(data)), block, partial, partial, partial); err != nil {
		h.Close()
		return nil, err
	}
	out, err := partial.Download()
	h.Close()
	partial.Free()
	return out, err
}

// verdict: leak
// Kirk & Hwu / cuda-samples scan: one block-sums buffer per level, kept in a
// slice; the slice is freed only when every level succeeds.
func h7ScanLevelsFreedOnSuccessOnly(d *device.Device, xs []float32) error {
	var sums []*device.Buffer[float32]
	for n := len(xs); n > 1; n = (n + 255) / 256 {
		b, err := device.Alloc[float32](d, (n+255)/256)
		if err != nil {
			return err
		}
		sums = append(sums, b)
		if err := d.Launch(Scale, grid(n), block, float32(1), b); err != nil {
			return err
		}
	}
	freeSlice(sums)
	return nil
}

// verdict: clean
// Parboil sgemm's host: a failure closure frees what exists so far.
func h7SgemmFailClosure(d *device.Device, a, b []float32, n int) ([]float32, error) {
	var dA, dB, dC *device.Buffer[float32]
	cleanup := func() {
		for _, x := range []*device.Buffer[float32]{dA, dB, dC} {
			if x != nil {
				x.Free()
			}
		}
	}
	defer cleanup()
	var err error
	if dA, err = device.Upload(d, a); err != nil {
		return nil, err
	}
	if dB, err = device.Upload(d, b); err != nil {
		return nil, err
	}
	if dC, err = device.Alloc[float32](d, n*n); err != nil {
		return nil, err
	}
	if err := d.Launch(Add, grid(n*n), block, dA, dB, dC); err != nil {
		return nil, err
	}
	return dC.Download()
}

// verdict: leak
// Rodinia pathfinder keeps its two result buffers in a map by role; the
// "result" entry is overwritten by a fresh buffer per row block without
// freeing the previous one.
func h7PathfinderMapOverwrite(d *device.Device, wall []float32, blocks int) ([]float32, error) {
	bufs := map[string]*device.Buffer[float32]{}
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	w, err := device.Upload(d, wall)
	if err != nil {
		return nil, err
	}
	bufs["wall"] = w
	for i := 0; i < blocks; i++ {
		r, err := device.Alloc[float32](d, len(wall))
		if err != nil {
			return nil, err
		}
		bufs["result"] = r
		if err := d.Launch(Add, grid(len(wall)), block, w, w, r); err != nil {
			return nil, err
		}
	}
	if r, ok := bufs["result"]; ok {
		return r.Download()
	}
	return nil, nil
}
