package issue20

import "github.com/gpukvet/gpukvet/device"

// A Free deferred inside a loop frees each iteration's buffer when the
// function returns: not a leak, and the buffers may be used after the loop;
// a Free of the same buffer in the loop as well is a double free.

func release(b *device.Buffer[float32]) { b.Free() } // want release:`ownership: frees \[0\], takes \[0\]`

func deferInLoopAndFree(d *device.Device, n int) error {
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 1)
		if err != nil {
			return err
		}
		defer b.Free()
		b.Free() // want `buffer b is freed twice: Free at line 18, and again by the deferred Free at line 17`
	}
	return nil
}

func deferInRangeAndCheckedFree(d *device.Device, parts [][]float32) error {
	for _, p := range parts {
		b, err := device.Upload(d, p)
		if err != nil {
			return err
		}
		defer b.Free()
		if err := d.Launch(nil, one, one, b); err != nil {
			return err
		}
		if err := b.Free(); err != nil { // want `buffer b is freed twice: Free at line 33, and again by the deferred Free at line 29`
			return err
		}
	}
	return nil
}

func deferredLiteralInLoopAndFree(d *device.Device, n int) error {
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 1)
		if err != nil {
			return err
		}
		defer func() { b.Free() }()
		b.Free() // want `buffer b is freed twice: Free at line 47, and again by the deferred Free at line 46`
	}
	return nil
}

func deferredHelperInLoopAndFree(d *device.Device, n int) error {
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 1)
		if err != nil {
			return err
		}
		defer release(b)
		b.Free() // want `buffer b is freed twice: Free at line 59, and again by the deferred Free at line 58`
	}
	return nil
}

func okDeferInLoopUsedAfter(d *device.Device, n int) ([]float32, error) {
	var outs []*device.Buffer[float32]
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 1)
		if err != nil {
			return nil, err
		}
		defer b.Free()
		outs = append(outs, b)
	}
	if len(outs) == 0 {
		return nil, nil
	}
	return outs[len(outs)-1].Download()
}

func okDeferInLoopIndexed(d *device.Device, parts [][]float32) (int, error) {
	outs := make([]*device.Buffer[float32], len(parts))
	for i, p := range parts {
		b, err := device.Upload(d, p)
		if err != nil {
			return 0, err
		}
		defer b.Free()
		outs[i] = b
	}
	n := 0
	for _, b := range outs {
		n += b.Len()
	}
	return n, nil
}

func okDeferInLoopBreak(d *device.Device, n int) ([]float32, error) {
	var last *device.Buffer[float32]
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 1)
		if err != nil {
			return nil, err
		}
		defer b.Free()
		last = b
		if i > 3 {
			break
		}
	}
	if last == nil {
		return nil, nil
	}
	return last.Download()
}

func okDeferredLiteralInLoop(d *device.Device, n int) error {
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 1)
		if err != nil {
			return err
		}
		defer func() { b.Free() }()
		if err := d.Launch(nil, one, one, b); err != nil {
			return err
		}
	}
	return nil
}
