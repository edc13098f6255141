package heldout // want package:"ownership: buffer API"

// The fixes made for the held-out corpus programs
// (testdata/corpus/HELDOUT-host.md), each next to a correct twin.

import (
	"context"
	"sync"

	"github.com/gpukvet/gpukvet/device"
)

type Stage struct{ out *device.Buffer[float32] } // want Stage:`ownership: owns fields \[0\], released by Close`

func (s *Stage) Close() error { return s.out.Free() }

func sum(b *device.Buffer[float32]) int { return b.Len() }

// A goroutine that only uses a captured buffer does not take it.
func goUsesOnly(d *device.Device, done chan<- int) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	go func() { done <- b.Len() }()
	return nil // want `buffer from device.Alloc at line 21 is not freed on the return at line 26`
}

func goUsesThenWait(d *device.Device) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = b.Len() }()
	wg.Wait()
	return b.Free()
}

func goFrees(d *device.Device) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	go func() { b.Free() }()
	return nil
}

// An owned field passed to a call uses its owner.
func fieldAfterClose(s *Stage) int { // want fieldAfterClose:`ownership: frees \[0\], takes \[0\]`
	s.Close()
	return sum(s.out) // want `Stage value s is used by a call to sum at line 53 after Close at line 52`
}

func fieldBeforeClose(s *Stage) int { // want fieldBeforeClose:`ownership: frees \[0\], takes \[0\]`
	n := sum(s.out)
	s.Close()
	return n
}

// Closing a struct frees the buffers stored in its owned fields.
func freeAfterClose(d *device.Device) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	s := &Stage{out: b}
	s.Close()
	return b.Free() // want `buffer b is freed twice: Free at line 70 after Close of Stage value s freed it at line 69`
}

func closeOnly(d *device.Device) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	s := &Stage{out: b}
	return s.Close()
}

// The previous iteration's buffer, kept in a loop-carried variable, is not
// the one allocated in this iteration.
func prevFreed(d *device.Device, n int) error {
	var prev *device.Buffer[float32]
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 4)
		if err != nil {
			if prev != nil {
				prev.Free()
			}
			return err
		}
		if prev != nil {
			prev.Free()
		}
		prev = b
	}
	if prev != nil {
		return prev.Free()
	}
	return nil
}

func prevKept(d *device.Device, n int) error {
	var prev *device.Buffer[float32]
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 4) // want `buffer from device.Alloc at line 108 is not freed before it is allocated again at line 108`
		if err != nil {
			return err
		}
		prev = b
	}
	if prev != nil {
		return prev.Free()
	}
	return nil
}

// A select's send case hands the buffer on only when it is chosen.
func sendOrCancel(ctx context.Context, d *device.Device, out chan<- *device.Buffer[float32]) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	select {
	case out <- b:
		return nil
	case <-ctx.Done():
		return ctx.Err() // want `buffer from device.Alloc at line 122 is not freed on the return at line 130`
	}
}

func sendOrFree(ctx context.Context, d *device.Device, out chan<- *device.Buffer[float32]) error {
	b, err := device.Alloc[float32](d, 4)
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

// A local map of buffers holds them like a local slice.
func mapLeak(d *device.Device, keys []string) (map[string]*device.Buffer[float32], error) { // want mapLeak:`ownership: returns new \[0\]`
	m := map[string]*device.Buffer[float32]{}
	for _, k := range keys {
		b, err := device.Alloc[float32](d, 4)
		if err != nil {
			return nil, err // want `the buffers held in m from line 150 are not freed on the return at line 154`
		}
		m[k] = b
	}
	return m, nil
}

func mapFreed(d *device.Device, keys []string) (map[string]*device.Buffer[float32], error) { // want mapFreed:`ownership: returns new \[0\]`
	m := map[string]*device.Buffer[float32]{}
	for _, k := range keys {
		b, err := device.Alloc[float32](d, 4)
		if err != nil {
			for _, old := range m {
				old.Free()
			}
			return nil, err
		}
		m[k] = b
	}
	return m, nil
}

// A function literal handed to another function takes the captured
// buffers it frees, not those it only uses.
func runTask(f func() error) { go f() }

func taskUsesOnly(d *device.Device) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	runTask(func() error { _ = b.Len(); return nil })
	return nil // want `buffer from device.Alloc at line 181 is not freed on the return at line 186`
}

func taskFrees(d *device.Device) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	runTask(func() error { return b.Free() })
	return nil
}

// A struct filled field by field releases nothing on the error branch of
// an allocation whose fields are nil or freed there.
type Two struct{ a, b *device.Buffer[float32] } // want Two:`ownership: owns fields \[0 1\], released by Close`

func (t *Two) Close() error { t.a.Free(); return t.b.Free() }

func newTwo(d *device.Device) (*Two, error) { // want newTwo:`ownership: returns new \[0\]`
	t := &Two{}
	var err error
	t.a, err = device.Alloc[float32](d, 4)
	if err != nil {
		return nil, err
	}
	t.b, err = device.Alloc[float32](d, 4)
	if err != nil {
		t.a.Free()
		return nil, err
	}
	return t, nil
}

func newTwoLeaks(d *device.Device) (*Two, error) { // want newTwoLeaks:`ownership: returns new \[0\]`
	t := &Two{}
	var err error
	t.a, err = device.Alloc[float32](d, 4)
	if err != nil {
		return nil, err
	}
	t.b, err = device.Alloc[float32](d, 4)
	if err != nil {
		return nil, err // want `Two value from Two literal at line 220 is not closed by Close on the return at line 228`
	}
	return t, nil
}

// A literal that captures nothing, deferred with the buffer as argument.
func deferredLiteralArg(d *device.Device) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	defer func(x *device.Buffer[float32]) { x.Free() }(b)
	return b.Free() // want `buffer b is freed twice: Free at line 240, and again by the deferred Free at line 239`
}

func deferredLiteralArgOnly(d *device.Device) error {
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return err
	}
	defer func(x *device.Buffer[float32]) { x.Free() }(b)
	return nil
}
