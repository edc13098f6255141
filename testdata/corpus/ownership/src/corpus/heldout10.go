package corpus

// Held-out programs, tenth round (issue 20, HELDOUT-host.md): correct
// idioms next to the new rules (an init method on a fresh struct, a swap of
// two owners' fields, a map drained into a channel, a slice copied before
// it is cut), and one more leak of each kind; scored before any change.

import "github.com/gpukvet/gpukvet/device"

// Plane owns one buffer: Close frees it.
type Plane struct{ data *device.Buffer[float32] }

func (p *Plane) Close() error {
	if p.data == nil {
		return nil
	}
	return p.data.Free()
}

// load allocates the plane's buffer without looking at the old one: meant
// for a fresh plane.
func (p *Plane) load(d *device.Device, xs []float32) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	p.data = b
	return nil
}

// verdict: clean
// An init method on a fresh struct: nothing is overwritten.
func h10InitFreshPlane(d *device.Device, xs []float32) error {
	p := &Plane{}
	if err := p.load(d, xs); err != nil {
		return err
	}
	defer p.Close()
	return d.Launch(Scale, grid(len(xs)), block, float32(2), p.data)
}

// verdict: leak
// The same init method called on a plane that already holds a buffer.
func h10InitCalledTwice(d *device.Device, xs, ys []float32) error {
	p := &Plane{}
	defer p.Close()
	if err := p.load(d, xs); err != nil {
		return err
	}
	if err := p.load(d, ys); err != nil {
		return err
	}
	return d.Launch(Scale, grid(len(ys)), block, float32(2), p.data)
}

// verdict: clean
// HeCBench double buffering: the two planes swap their buffers.
func h10SwapPlanes(d *device.Device, xs []float32, iters int) error {
	a, b := &Plane{}, &Plane{}
	defer a.Close()
	defer b.Close()
	if err := a.load(d, xs); err != nil {
		return err
	}
	if err := b.load(d, xs); err != nil {
		return err
	}
	for i := 0; i < iters; i++ {
		if err := d.Launch(Add, grid(len(xs)), block, a.data, a.data, b.data); err != nil {
			return err
		}
		a.data, b.data = b.data, a.data
	}
	return nil
}

// verdict: clean
// Buffers kept by name, drained into a channel that a consumer frees.
func h10DrainMapToChannel(d *device.Device, names []string, out chan<- *device.Buffer[float32]) error {
	m := map[string]*device.Buffer[float32]{}
	for _, n := range names {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			for _, x := range m {
				x.Free()
			}
			return err
		}
		m[n] = b
	}
	for k, b := range m {
		out <- b
		delete(m, k)
	}
	return nil
}

// verdict: clean
// The slice is copied before it is cut for reuse; the copy is freed.
func h10CopyThenCut(d *device.Device, n int) error {
	var bufs []*device.Buffer[float32]
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			break
		}
		bufs = append(bufs, b)
	}
	old := bufs
	bufs = bufs[:0]
	for _, b := range old {
		b.Free()
	}
	return nil
}

// verdict: leak
// A map entry overwritten under a constant key inside a retry loop, the
// first attempt's buffer not freed.
func h10MapRetryOverwrites(d *device.Device, xs []float32) error {
	m := map[string]*device.Buffer[float32]{}
	defer func() {
		for _, b := range m {
			b.Free()
		}
	}()
	for attempt := 0; attempt < 2; attempt++ {
		b, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		m["input"] = b
		if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err == nil {
			break
		}
	}
	return nil
}
