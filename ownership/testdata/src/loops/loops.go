package loops

import (
	"testing"

	"github.com/gpukvet/gpukvet/device"
)

func leakInLoop(d *device.Device, n int) error {
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 10) // want `buffer from device.Alloc at line 11 is not freed before it is allocated again at line 11`
		if err != nil {
			return err
		}
		_ = b.Len()
	}
	return nil // want `buffer from device.Alloc at line 11 is not freed on the return at line 17`
}

func okFreeInLoop(d *device.Device, n int) error {
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 10)
		if err != nil {
			return err
		}
		if err := b.Free(); err != nil {
			return err
		}
	}
	return nil
}

func okDeferInLoop(d *device.Device, n int) error {
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 10)
		if err != nil {
			return err
		}
		defer b.Free()
	}
	return nil
}

func okSliceFreedInLoop(d *device.Device, n int) error {
	var bufs []*device.Buffer[float32]
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 10)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
	}
	return nil
}

func okSwitch(d *device.Device, k int) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	switch k {
	case 0:
		return b.Free()
	case 1:
		b.Free()
	default:
		defer b.Free()
	}
	return nil
}

func leakSwitch(d *device.Device, k int) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	switch k {
	case 0:
		return b.Free()
	case 1:
		return nil // want `buffer from device.Alloc at line 78 is not freed on the return at line 86`
	}
	return b.Free()
}

func okSelect(d *device.Device, done chan struct{}, out chan *device.Buffer[float32]) {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return
	}
	select {
	case <-done:
		b.Free()
	case out <- b:
	}
}

func leakSelect(d *device.Device, done, other chan struct{}) {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return
	}
	select {
	case <-done:
		b.Free()
	case <-other:
		return // want `buffer from device.Alloc at line 104 is not freed on the return at line 112`
	}
}

func okGoroutine(d *device.Device, wait chan bool) {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return
	}
	go func() {
		<-wait
		b.Free()
	}()
}

func okCleanup(t *testing.T, d *device.Device) *device.Buffer[float32] {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Free() })
	return b
}

func okCleanupFunc(d *device.Device) error {
	a, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		a.Free()
		return err
	}
	cleanup := func() {
		a.Free()
		b.Free()
	}
	if err := d.Sync(); err != nil {
		cleanup()
		return err
	}
	cleanup()
	return nil
}

func leakClosureForgets(d *device.Device) error {
	a, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		a.Free()
		return err
	}
	defer func() {
		a.Free()
	}()
	_ = b.Len()
	return nil // want `buffer from device.Alloc at line 163 is not freed on the return at line 172`
}

func okReassigned(d *device.Device) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	b.Free()
	b, err = device.Alloc[float32](d, 20)
	if err != nil {
		return err
	}
	return b.Free()
}

func okStoreMap(d *device.Device, m map[string]*device.Buffer[float32]) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	m["x"] = b
	return nil
}

type cache struct{ last *device.Buffer[float32] }

func (c *cache) okStoreField(d *device.Device) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	c.last = b
	return nil
}

var global *device.Buffer[float32]

func okStoreGlobal(d *device.Device) {
	b, err := device.Alloc[float32](d, 10)
	if err == nil {
		global = b
	}
}

func okFreeInHelperLiteral(d *device.Device) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	func() {
		defer b.Free()
	}()
	return nil
}

func okEarlyNilInit(d *device.Device, big bool) error {
	var b *device.Buffer[float32]
	var err error
	if big {
		b, err = device.Alloc[float32](d, 1<<20)
	} else {
		b, err = device.Alloc[float32](d, 16)
	}
	if err != nil {
		return err
	}
	return b.Free()
}

func okConditionalAlloc(d *device.Device, useGPU bool, n int) error {
	var b *device.Buffer[float32]
	if useGPU {
		var err error
		b, err = device.Alloc[float32](d, n)
		if err != nil {
			return err
		}
	}
	if err := d.Sync(); err != nil {
		if useGPU {
			b.Free()
		}
		return err
	}
	if useGPU {
		return b.Free()
	}
	return nil
}

func okConditionalAllocCompare(d *device.Device, n int) error {
	var b *device.Buffer[float32]
	if n > 0 {
		var err error
		b, err = device.Alloc[float32](d, n)
		if err != nil {
			return err
		}
	}
	if n > 0 {
		b.Free()
	}
	return nil
}

func leakConditionalAlloc(d *device.Device, useGPU, fast bool) error {
	var b *device.Buffer[float32]
	if useGPU {
		var err error
		b, err = device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
	}
	if fast {
		b.Free()
	}
	return nil // want `buffer from device.Alloc at line 282 is not freed on the return at line 290`
}
