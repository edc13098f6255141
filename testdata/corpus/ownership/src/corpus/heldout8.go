package corpus

// Held-out programs, eighth round (issue 20, HELDOUT-host.md): more host
// code translated from public CUDA suites (HeCBench ping-pong iterations,
// Rodinia lud and srad, cuda-samples simpleMultiGPU workers and
// simpleCallback, Parboil mri-q and histo), probing around the classes of
// the seventh round; written and scored before the analyzer was changed for
// them.

import (
	"sync"

	"github.com/gpukvet/gpukvet/device"
)

// Solver is a HeCBench-style solver with two device arrays; Close frees
// both.
type Solver struct {
	x, r *device.Buffer[float32]
}

func (s *Solver) Close() error {
	if s.x != nil {
		s.x.Free()
	}
	if s.r != nil {
		s.r.Free()
	}
	return nil
}

// newSolver allocates both arrays (a constructor).
func newSolver(d *device.Device, n int) (*Solver, error) {
	x, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, err
	}
	r, err := device.Alloc[float32](d, n)
	if err != nil {
		x.Free()
		return nil, err
	}
	return &Solver{x: x, r: r}, nil
}

// setResidual replaces the residual array without freeing the old one.
func (s *Solver) setResidual(b *device.Buffer[float32]) { s.r = b }

// verdict: leak
// A solver from its constructor whose residual is then replaced by a method
// that does not free the constructor's buffer.
func h8SolverResidualReplaced(d *device.Device, n int) error {
	s, err := newSolver(d, n)
	if err != nil {
		return err
	}
	defer s.Close()
	r, err := device.Alloc[float32](d, 2*n)
	if err != nil {
		return err
	}
	s.setResidual(r)
	return d.Launch(Add, grid(n), block, s.x, s.x, s.r)
}

// verdict: leak
// Two fields filled, one of them overwritten: only x's first buffer leaks.
func h8SolverOneFieldOverwritten(d *device.Device, n int) error {
	s := &Solver{}
	defer s.Close()
	var err error
	if s.x, err = device.Alloc[float32](d, n); err != nil {
		return err
	}
	if s.r, err = device.Alloc[float32](d, n); err != nil {
		return err
	}
	if s.x, err = device.Alloc[float32](d, 2*n); err != nil {
		return err
	}
	return d.Launch(Add, grid(n), block, s.x, s.x, s.r)
}

// verdict: clean
// HeCBench ping-pong: each iteration writes a fresh buffer, swaps, and
// frees the old input.
func h8PingPongFreeOld(d *device.Device, xs []float32, iters int) ([]float32, error) {
	in, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	for i := 0; i < iters; i++ {
		out, err := device.Alloc[float32](d, len(xs))
		if err != nil {
			in.Free()
			return nil, err
		}
		if err := d.Launch(Add, grid(len(xs)), block, in, in, out); err != nil {
			in.Free()
			out.Free()
			return nil, err
		}
		in.Free()
		in = out
	}
	defer in.Free()
	return in.Download()
}

// verdict: leak
// A variable freed by a deferred method value, then reassigned: the
// deferred Free was bound to the first buffer, the second leaks.
func h8DeferredFreeThenReassigned(d *device.Device, xs, ys []float32) ([]float32, error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	defer b.Free()
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
		return nil, err
	}
	b, err = device.Upload(d, ys)
	if err != nil {
		return nil, err
	}
	return b.Download()
}

// verdict: doublefree
// One buffer stored in two owning structs, each closed.
func h8SharedBetweenOwners(d *device.Device, n int) error {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	a := &Holder{buf: b, name: "a"}
	c := &Holder{buf: b, name: "c"}
	a.Close()
	return c.Close()
}

// verdict: clean
// cuda-samples simpleMultiGPU: one goroutine per device, each allocating
// and freeing its own buffers.
func h8WorkerPerGPU(d *device.Device, parts [][]float32) []float32 {
	sums := make([]float32, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := device.Upload(d, p)
			if err != nil {
				return
			}
			defer b.Free()
			xs, err := b.Download()
			if err == nil && len(xs) > 0 {
				sums[i] = xs[0]
			}
		}()
	}
	wg.Wait()
	return sums
}

// verdict: leak
// The map of per-name buffers is replaced by a fresh one between phases;
// the first phase's buffers are lost.
func h8MapReplacedBetweenPhases(d *device.Device, names []string) error {
	bufs := map[string]*device.Buffer[float32]{}
	for _, n := range names {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			break
		}
		bufs[n] = b
	}
	bufs = map[string]*device.Buffer[float32]{}
	for _, n := range names {
		b, err := device.Alloc[float32](d, 16)
		if err != nil {
			break
		}
		bufs[n] = b
	}
	for _, b := range bufs {
		b.Free()
	}
	return nil
}

// verdict: leak
// clear(m) drops every entry of a map that owns buffers.
func h8MapClearedWithoutFree(d *device.Device, names []string) error {
	bufs := map[string]*device.Buffer[float32]{}
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	for _, n := range names {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		bufs[n] = b
	}
	clear(bufs)
	return nil
}

// verdict: clean
// Rodinia srad: the per-iteration buffers are freed, then the slice is
// truncated for reuse.
func h8SliceTruncatedAfterFree(d *device.Device, iters, n int) error {
	var tmp []*device.Buffer[float32]
	for it := 0; it < iters; it++ {
		for k := 0; k < 4; k++ {
			b, err := device.Alloc[float32](d, n)
			if err != nil {
				for _, t := range tmp {
					t.Free()
				}
				return err
			}
			tmp = append(tmp, b)
		}
		for _, t := range tmp {
			t.Free()
		}
		tmp = tmp[:0]
	}
	return nil
}

// verdict: leak
// The same loop truncating the slice without freeing it first.
func h8SliceTruncatedWithoutFree(d *device.Device, iters, n int) error {
	var tmp []*device.Buffer[float32]
	defer func() {
		for _, t := range tmp {
			t.Free()
		}
	}()
	for it := 0; it < iters; it++ {
		for k := 0; k < 4; k++ {
			b, err := device.Alloc[float32](d, n)
			if err != nil {
				return err
			}
			tmp = append(tmp, b)
		}
		tmp = tmp[:0]
	}
	return nil
}

// verdict: clean
// Rodinia lud: the matrix lives in a struct that a deferred literal closes,
// replaced between sizes after closing the old one.
func h8LudResizeClosesOld(d *device.Device, sizes []int) error {
	var s *Solver
	defer func() {
		if s != nil {
			s.Close()
		}
	}()
	for _, n := range sizes {
		if s != nil {
			s.Close()
			s = nil
		}
		ns, err := newSolver(d, n*n)
		if err != nil {
			return err
		}
		s = ns
		if err := d.Launch(Add, grid(n*n), block, s.x, s.x, s.r); err != nil {
			return err
		}
	}
	return nil
}

// verdict: leak
// The same forgetting to close the previous solver.
func h8LudResizeForgetsOld(d *device.Device, sizes []int) error {
	var s *Solver
	defer func() {
		if s != nil {
			s.Close()
		}
	}()
	for _, n := range sizes {
		ns, err := newSolver(d, n*n)
		if err != nil {
			return err
		}
		s = ns
		if err := d.Launch(Add, grid(n*n), block, s.x, s.x, s.r); err != nil {
			return err
		}
	}
	return nil
}

// verdict: uaf
// Parboil histo: the intermediate map entry is freed, then read by the
// final pass through the map.
func h8MapEntryFreedThenLaunched(d *device.Device, xs []float32) error {
	bufs := map[string]*device.Buffer[float32]{}
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	in, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	bufs["in"] = in
	tmp, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		return err
	}
	bufs["tmp"] = tmp
	if err := d.Launch(Add, grid(len(xs)), block, in, in, tmp); err != nil {
		return err
	}
	tmp.Free()
	delete(bufs, "tmp")
	return d.Launch(Add, grid(len(xs)), block, in, in, tmp)
}

// verdict: clean
// Parboil mri-q: buffers kept in a map by role, each freed and deleted when
// its phase ends, the rest freed at exit.
func h8MapPhasesFreedAndDeleted(d *device.Device, xs []float32) error {
	bufs := map[string]*device.Buffer[float32]{}
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	phi, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	bufs["phi"] = phi
	q, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		return err
	}
	bufs["q"] = q
	if err := d.Launch(Add, grid(len(xs)), block, phi, phi, q); err != nil {
		return err
	}
	bufs["phi"].Free()
	delete(bufs, "phi")
	return d.Launch(Scale, grid(len(xs)), block, float32(1), q)
}
