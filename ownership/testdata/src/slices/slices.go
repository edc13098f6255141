package slices // want package:"ownership: buffer API"

import "github.com/gpukvet/gpukvet/device"

func leakOnPartialFailure(d *device.Device, n int) ([]*device.Buffer[float32], error) { // want leakOnPartialFailure:`ownership: returns new \[0\]`
	var bufs []*device.Buffer[float32]
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return nil, err // want `the buffers held in bufs from line 12 are not freed on the return at line 10`
		}
		bufs = append(bufs, b)
	}
	return bufs, nil
}

func okFreeOnPartialFailure(d *device.Device, n int) ([]*device.Buffer[float32], error) { // want okFreeOnPartialFailure:`ownership: returns new \[0\]`
	var bufs []*device.Buffer[float32]
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			for _, b := range bufs {
				b.Free()
			}
			return nil, err
		}
		bufs = append(bufs, b)
	}
	return bufs, nil
}

func release(bufs []*device.Buffer[float32]) { // want release:`ownership: frees \[0\], takes \[0\]`
	for _, b := range bufs {
		b.Free()
	}
}

func okHelperOnFailure(d *device.Device, n int) error {
	bufs := make([]*device.Buffer[float32], 0, n)
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			release(bufs)
			return err
		}
		bufs = append(bufs, b)
	}
	release(bufs)
	return nil
}

func leakIndexed(d *device.Device, n int) error {
	bufs := make([]*device.Buffer[float32], n)
	for i := range bufs {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err // want `the buffers held in bufs from line 60 are not freed on the return at line 58`
		}
		bufs[i] = b
	}
	release(bufs)
	return nil
}

func okDeferredRelease(d *device.Device, n int) error {
	var bufs []*device.Buffer[float32]
	defer func() { release(bufs) }()
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
	}
	return nil
}

func leakNeverReleased(d *device.Device, n int) int {
	var bufs []*device.Buffer[float32]
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			break
		}
		bufs = append(bufs, b)
	}
	return len(bufs) // want `the buffers held in bufs from line 84 are not freed on the return at line 86`
}

func okEmptySliceNotUsed(d *device.Device) int {
	var bufs []*device.Buffer[float32]
	return len(bufs)
}

func okCaller(d *device.Device) error {
	bufs, err := okFreeOnPartialFailure(d, 4)
	if err != nil {
		return err
	}
	defer release(bufs)
	return d.Sync()
}

func leakCaller(d *device.Device) error {
	bufs, err := okFreeOnPartialFailure(d, 4)
	if err != nil {
		return err
	}
	_ = len(bufs)
	return d.Sync() // want `the buffers held in bufs from line 104 are not freed on the return at line 109`
}

func okReverseFree(d *device.Device, n int) error {
	var bufs []*device.Buffer[float32]
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 8)
		if err != nil {
			for j := len(bufs) - 1; j >= 0; j-- {
				bufs[j].Free()
			}
			return err
		}
		bufs = append(bufs, b)
	}
	for len(bufs) > 0 {
		last := bufs[len(bufs)-1]
		last.Free()
		bufs = bufs[:len(bufs)-1]
	}
	return nil
}
