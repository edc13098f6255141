package corpus

// Held-out programs, ninth round (issue 20, HELDOUT-host.md): a third probe
// written after the second round's fixes (Rodinia pathfinder's gpuResult[2],
// cuda-samples' per-iteration helpers in immediately called literals,
// owning structs in maps and slices, deferred method values on reassigned
// variables), scored before any change for it.

import (
	"errors"

	"github.com/gpukvet/gpukvet/device"
)

// verdict: clean
// cuda-samples style: each iteration's scratch buffer lives in an
// immediately called literal with its own defer.
func h9ScratchPerIterationLiteral(d *device.Device, batches [][]float32) error {
	for _, xs := range batches {
		err := func() error {
			b, err := device.Upload(d, xs)
			if err != nil {
				return err
			}
			defer b.Free()
			return d.Launch(Scale, grid(len(xs)), block, float32(2), b)
		}()
		if err != nil {
			return err
		}
	}
	return nil
}

// verdict: leak
// An owning struct kept in a map by name; evicting one drops it unclosed.
func h9HolderMapEvictUnclosed(d *device.Device, names []string) error {
	hs := map[string]*Holder{}
	defer func() {
		for _, h := range hs {
			h.Close()
		}
	}()
	for _, n := range names {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		hs[n] = &Holder{buf: b, name: n}
	}
	if len(names) > 0 {
		delete(hs, names[0])
	}
	return nil
}

// verdict: clean
// The same closing the evicted holder first.
func h9HolderMapEvictClosed(d *device.Device, names []string) error {
	hs := map[string]*Holder{}
	defer func() {
		for _, h := range hs {
			h.Close()
		}
	}()
	for _, n := range names {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		hs[n] = &Holder{buf: b, name: n}
	}
	if len(names) > 0 {
		if h, ok := hs[names[0]]; ok {
			h.Close()
			delete(hs, names[0])
		}
	}
	return nil
}

// verdict: leak
// A deferred Close bound to the first holder; the variable then gets a
// second one, which nothing closes.
func h9DeferredCloseThenReassigned(d *device.Device) error {
	b, err := device.Alloc[float32](d, 8)
	if err != nil {
		return err
	}
	h := &Holder{buf: b}
	defer h.Close()
	c, err := device.Alloc[float32](d, 16)
	if err != nil {
		return err
	}
	h = &Holder{buf: c}
	return d.Launch(Scale, grid(16), block, float32(1), h.buf)
}

// verdict: clean
// Errors of every Free joined into the result (HeCBench's checked frees).
func h9JoinedFreeErrors(d *device.Device, xs []float32) (err error) {
	a, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	b, err := device.Alloc[float32](d, len(xs))
	if err != nil {
		return errors.Join(err, a.Free())
	}
	defer func() { err = errors.Join(err, a.Free(), b.Free()) }()
	return d.Launch(Add, grid(len(xs)), block, a, a, b)
}

// verdict: doublefree
// A slice of holders closed in a loop, and one of them closed again.
func h9HoldersClosedTwice(d *device.Device, n int) error {
	var hs []*Holder
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			break
		}
		hs = append(hs, &Holder{buf: b})
	}
	if len(hs) == 0 {
		return nil
	}
	first := hs[0]
	for _, h := range hs {
		h.Close()
	}
	return first.Close()
}

// verdict: uaf
// A buffer downloaded after the holder that owns it was closed in a
// deferred-free helper run early.
func h9DownloadAfterHolderReleased(d *device.Device, xs []float32) ([]float32, error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	h := &Holder{buf: b}
	release := func() { h.Close() }
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
		release()
		return nil, err
	}
	release()
	return b.Download()
}
