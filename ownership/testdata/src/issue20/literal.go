package issue20

import "github.com/gpukvet/gpukvet/device"

// A deferred literal that reads captured variables at exit releases the
// buffers they hold then, also those stored after the defer statement; a
// buffer the variable held before a new one was stored into it is not.

func okDeferredGuardBeforeAlloc(d *device.Device, xs []float32) error {
	var a *device.Buffer[float32]
	defer func() {
		if a != nil {
			a.Free()
		}
	}()
	var err error
	if a, err = device.Upload(d, xs); err != nil {
		return err
	}
	return d.Launch(nil, one, one, a)
}

func okCleanupOverSliceLiteral(d *device.Device, xs, ys []float32) error {
	var a, b, c *device.Buffer[float32]
	cleanup := func() {
		for _, x := range []*device.Buffer[float32]{a, b, c} {
			if x != nil {
				x.Free()
			}
		}
	}
	defer cleanup()
	var err error
	if a, err = device.Upload(d, xs); err != nil {
		return err
	}
	if b, err = device.Upload(d, ys); err != nil {
		return err
	}
	if c, err = device.Alloc[float32](d, len(xs)); err != nil {
		return err
	}
	return d.Launch(nil, one, one, a, b, c)
}

func okDeferredGuardFreedAndReplaced(d *device.Device, parts [][]float32) error {
	var cur *device.Buffer[float32]
	defer func() {
		if cur != nil {
			cur.Free()
		}
	}()
	for _, p := range parts {
		if cur != nil {
			cur.Free()
			cur = nil
		}
		b, err := device.Upload(d, p)
		if err != nil {
			return err
		}
		cur = b
	}
	return nil
}

func deferredGuardVariableReplaced(d *device.Device, xs, ys []float32) error {
	var a *device.Buffer[float32]
	defer func() {
		if a != nil {
			a.Free()
		}
	}()
	var err error
	if a, err = device.Upload(d, xs); err != nil {
		return err
	}
	if a, err = device.Upload(d, ys); err != nil {
		return err // want `buffer from device.Upload at line 75 is not freed on the return at line 79`
	}
	return d.Launch(nil, one, one, a) // want `buffer from device.Upload at line 75 is not freed on the return at line 81`
}
