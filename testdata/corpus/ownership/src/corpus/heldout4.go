package corpus

// Held-out programs, fourth round (HELDOUT-host.md).

import (
	"fmt"
	"sync"
	"testing"

	"github.com/gpukvet/gpukvet/device"
)

// group runs functions concurrently (an errgroup-like helper).
type group struct {
	wg   sync.WaitGroup
	mu   sync.Mutex
	errs []error
}

func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.mu.Lock()
			g.errs = append(g.errs, err)
			g.mu.Unlock()
		}
	}()
}

func (g *group) Wait() error {
	g.wg.Wait()
	if len(g.errs) > 0 {
		return g.errs[0]
	}
	return nil
}

// verdict: clean
func h4GroupFreesInTask(d *device.Device, batches [][]float32) error {
	var g group
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			g.Wait()
			return err
		}
		g.Go(func() error {
			defer b.Free()
			return d.Launch(Scale, grid(len(xs)), block, float32(2), b)
		})
	}
	return g.Wait()
}

// verdict: leak
func h4GroupTaskForgetsFree(d *device.Device, batches [][]float32) error {
	var g group
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			g.Wait()
			return err
		}
		g.Go(func() error {
			return d.Launch(Scale, grid(len(xs)), block, float32(2), b)
		})
	}
	return g.Wait()
}

// verdict: clean
func h4GroupThenFreeAll(d *device.Device, batches [][]float32) error {
	var g group
	bufs := make([]*device.Buffer[float32], 0, len(batches))
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			g.Wait()
			return err
		}
		bufs = append(bufs, b)
		g.Go(func() error {
			return d.Launch(Scale, grid(len(xs)), block, float32(2), b)
		})
	}
	return g.Wait()
}

// verdict: leak
func h4CleanupOnlyChecks(t *testing.T, d *device.Device, n int) *device.Buffer[float32] {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if b.Len() != n {
			t.Errorf("Len changed")
		}
	})
	return nil
}

// verdict: leak
func h4FieldByFieldConstructor(d *device.Device, xs []float32) (*Stage, error) {
	s := &Stage{}
	var err error
	s.in, err = device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	s.tmp, err = device.Alloc[float32](d, len(xs))
	if err != nil {
		return nil, fmt.Errorf("tmp: %w", err)
	}
	s.out, err = device.Alloc[float32](d, len(xs))
	if err != nil {
		s.in.Free()
		s.tmp.Free()
		return nil, fmt.Errorf("out: %w", err)
	}
	return s, nil
}

// verdict: clean
func h4FieldByFieldConstructorCareful(d *device.Device, xs []float32) (*Stage, error) {
	s := &Stage{}
	var err error
	s.in, err = device.Upload(d, xs)
	if err != nil {
		return nil, err
	}
	s.tmp, err = device.Alloc[float32](d, len(xs))
	if err != nil {
		s.in.Free()
		return nil, fmt.Errorf("tmp: %w", err)
	}
	s.out, err = device.Alloc[float32](d, len(xs))
	if err != nil {
		s.in.Free()
		s.tmp.Free()
		return nil, fmt.Errorf("out: %w", err)
	}
	return s, nil
}

// verdict: clean
func h4WorkerDrainsChannel(d *device.Device, in <-chan *device.Buffer[float32]) error {
	for b := range in {
		err := d.Launch(Scale, grid(b.Len()), block, float32(2), b)
		b.Free()
		if err != nil {
			return err
		}
	}
	return nil
}

// verdict: clean
func h4ProducerSendsAll(d *device.Device, batches [][]float32, out chan<- *device.Buffer[float32]) error {
	defer close(out)
	for _, xs := range batches {
		b, err := device.Upload(d, xs)
		if err != nil {
			return err
		}
		out <- b
	}
	return nil
}

// verdict: uaf
func h4SendAfterFree(d *device.Device, xs []float32, out chan<- *device.Buffer[float32]) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
		b.Free()
	}
	out <- b
	return nil
}

// verdict: doublefree
func h4FreeInLoopBodyAndAfter(d *device.Device, xs []float32, passes int) error {
	b, err := device.Upload(d, xs)
	if err != nil {
		return err
	}
	for p := 0; p < passes; p++ {
		if err := d.Launch(Scale, grid(len(xs)), block, float32(2), b); err != nil {
			b.Free()
			return err
		}
		if p == passes-1 {
			b.Free()
		}
	}
	return b.Free()
}
