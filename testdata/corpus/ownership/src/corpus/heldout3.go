package corpus

// Held-out programs, third round (HELDOUT-host.md).

import (
	"fmt"
	"log"
	"testing"

	"github.com/gpukvet/gpukvet/device"
)

// Pipeline owns its scratch buffer; Close frees it.
type Pipeline struct {
	d       *device.Device
	scratch *device.Buffer[float32]
}

func (p *Pipeline) Close() error { return p.scratch.Free() }

// verdict: clean
func h3ReturnCleanupFunc(d *device.Device, xs []float32) (*device.Buffer[float32], func(), error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return nil, nil, err
	}
	return b, func() { b.Free() }, nil
}

// verdict: clean
func h3ResizeFreesOld(p *Pipeline, n int) error {
	nb, err := device.Alloc[float32](p.d, n)
	if err != nil {
		return err
	}
	p.scratch.Free()
	p.scratch = nb
	return nil
}

// verdict: leak
func h3LoggedThenLeaked(d *device.Device, xs []float32) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	log.Printf("uploaded %d floats", b.Len())
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
		return fmt.Errorf("scale %v: %w", b.Len(), err)
	}
	return b.Free()
}

// verdict: uaf
func h3StoreFreedIntoOwner(d *device.Device, n int) (*Pipeline, error) {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, err
	}
	if err := d.Launch(Scale, grid(n), block, float32(0), b); err != nil {
		b.Free()
		return &Pipeline{d: d, scratch: b}, err
	}
	return &Pipeline{d: d, scratch: b}, nil
}

// verdict: clean
func h3DeferInLoopPerIteration(d *device.Device, batches [][]float32) error {
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		defer b.Free()
		if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
			return err
		}
	}
	return nil
}

// verdict: doublefree
func h3CloseAndFreeField(d *device.Device, n int) error {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return err
	}
	p := &Pipeline{d: d, scratch: b}
	if err := d.Launch(Scale, grid(n), block, float32(0), p.scratch); err != nil {
		p.Close()
		return err
	}
	p.Close()
	return b.Free()
}

// verdict: clean
func h3TestCleanup(t *testing.T, d *device.Device, n int) *device.Buffer[float32] {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Free() })
	return b
}

// verdict: leak
func h3TestForgetsCleanup(t *testing.T, d *device.Device, n int) {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Len(); got != n {
		t.Errorf("Len = %d, want %d", got, n)
	}
}

// verdict: uaf
func h3SumAfterDeferredLoopFrees(d *device.Device, xs []float32) (float32, error) {
	b, err := device.Upload(d, xs)
	if err != nil {
		return 0, err
	}
	var total float32
	for i := 0; i < 3; i++ {
		if i == 2 {
			b.Free()
		}
		total += float32(b.Len())
	}
	return total, nil
}

// verdict: clean
func h3ArrayOfTwo(d *device.Device, n int) error {
	var bufs [2]*device.Buffer[float32]
	for i := range bufs {
		b, err := device.Alloc[float32](d, n)
		if err != nil {
			for _, prev := range bufs[:i] {
				prev.Free()
			}
			return err
		}
		bufs[i] = b
	}
	err := d.Launch(Add, grid(n), block, bufs[0], bufs[0], bufs[1])
	bufs[0].Free()
	bufs[1].Free()
	return err
}

// verdict: leak
func h3MapLeakOnError(d *device.Device, names []string, n int) (map[string]*device.Buffer[float32], error) {
	bufs := make(map[string]*device.Buffer[float32], len(names))
	for _, name := range names {
		b, err := device.Alloc[float32](d, n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		bufs[name] = b
	}
	return bufs, nil
}

// verdict: clean
func h3MapFreedOnError(d *device.Device, names []string, n int) (map[string]*device.Buffer[float32], error) {
	bufs := make(map[string]*device.Buffer[float32], len(names))
	for _, name := range names {
		b, err := device.Alloc[float32](d, n)
		if err != nil {
			for _, prev := range bufs {
				prev.Free()
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		bufs[name] = b
	}
	return bufs, nil
}
