package issue20

import "github.com/gpukvet/gpukvet/device"

// Local arrays of buffers (`var bufs [4]*device.Buffer[T]`): a collection
// filled in a loop or by constant indices, freed by a loop over it or
// element by element; its elements named by constant indices are followed
// one by one.

const nStreams = 4

func okArrayLoopFillFree(d *device.Device, n int) error {
	var bufs [nStreams]*device.Buffer[float32]
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
	for _, b := range bufs {
		b.Free()
	}
	return nil
}

func okArrayConstPair(d *device.Device, xs []float32) ([]float32, error) {
	var buf [2]*device.Buffer[float32]
	var err error
	if buf[0], err = device.Upload(d, xs); err != nil {
		return nil, err
	}
	if buf[1], err = device.Alloc[float32](d, len(xs)); err != nil {
		buf[0].Free()
		return nil, err
	}
	res, err := buf[1].Download()
	buf[0].Free()
	buf[1].Free()
	return res, err
}

func okArrayDeferredLoop(d *device.Device, gpus, n int) error {
	var data [8]*device.Buffer[float32]
	defer func() {
		for i := range data {
			if data[i] != nil {
				data[i].Free()
			}
		}
	}()
	for dev := 0; dev < gpus && dev < len(data); dev++ {
		var err error
		if data[dev], err = device.Alloc[float32](d, n); err != nil {
			return err
		}
	}
	return d.Sync()
}

func okArrayPingPongSwap(d *device.Device, xs []float32, steps int) ([]float32, error) {
	var buf [2]*device.Buffer[float32]
	var err error
	if buf[0], err = device.Upload(d, xs); err != nil {
		return nil, err
	}
	if buf[1], err = device.Alloc[float32](d, len(xs)); err != nil {
		buf[0].Free()
		return nil, err
	}
	for s := 0; s < steps; s++ {
		buf[0], buf[1] = buf[1], buf[0]
	}
	res, err := buf[0].Download()
	buf[0].Free()
	buf[1].Free()
	return res, err
}

func okArrayDeferredConst(d *device.Device, xs []float32, steps int) ([]float32, error) {
	var buf [2]*device.Buffer[float32]
	var err error
	if buf[0], err = device.Upload(d, xs); err != nil {
		return nil, err
	}
	defer buf[0].Free()
	if buf[1], err = device.Alloc[float32](d, len(xs)); err != nil {
		return nil, err
	}
	defer buf[1].Free()
	cur := 0
	for s := 0; s < steps; s++ {
		cur = 1 - cur
	}
	return buf[cur].Download()
}

func okArrayGrowFreed(d *device.Device, sizes []int) error {
	var ws [2]*device.Buffer[float32]
	var err error
	if ws[0], err = device.Alloc[float32](d, 256); err != nil {
		return err
	}
	for _, n := range sizes {
		if n > ws[0].Len() {
			ws[0].Free()
			if ws[0], err = device.Alloc[float32](d, n); err != nil {
				return err
			}
		}
	}
	ws[0].Free()
	return nil
}

func okArrayReadOutFirst(d *device.Device, n int) error {
	var ws [2]*device.Buffer[float32]
	var err error
	if ws[0], err = device.Alloc[float32](d, n); err != nil {
		return err
	}
	old := ws[0]
	if ws[0], err = device.Alloc[float32](d, 2*n); err != nil {
		old.Free()
		return err
	}
	old.Free()
	ws[0].Free()
	return nil
}

func okArrayReleaseClosure(d *device.Device, xs []float32) error {
	var in [nStreams]*device.Buffer[float32]
	release := func() {
		for i := 0; i < nStreams; i++ {
			if in[i] != nil {
				in[i].Free()
			}
		}
	}
	chunk := len(xs) / nStreams
	for i := 0; i < nStreams; i++ {
		var err error
		if in[i], err = device.Upload(d, xs[i*chunk:(i+1)*chunk]); err != nil {
			release()
			return err
		}
	}
	err := d.Sync()
	release()
	return err
}

func leakArrayPairOneFreed(d *device.Device, xs []float32) ([]float32, error) {
	var buf [2]*device.Buffer[float32]
	var err error
	if buf[0], err = device.Upload(d, xs); err != nil {
		return nil, err
	}
	if buf[1], err = device.Alloc[float32](d, len(xs)); err != nil {
		buf[0].Free()
		return nil, err
	}
	res, err := buf[1].Download()
	buf[1].Free()
	return res, err // want `the buffers held in buf from line 158 are not freed on the return at line 169`
}

func leakArrayLoopErr(d *device.Device, n int) error {
	var bufs [nStreams]*device.Buffer[float32]
	for i := range bufs {
		var err error
		if bufs[i], err = device.Alloc[float32](d, n); err != nil {
			return err // want `the buffers held in bufs from line 173 are not freed on the return at line 177`
		}
	}
	for _, b := range bufs {
		b.Free()
	}
	return nil
}

func leakArraySkipFirst(d *device.Device, n int) error {
	var bufs [nStreams]*device.Buffer[float32]
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
	for i := 1; i < len(bufs); i++ {
		bufs[i].Free()
	}
	return nil // want `the buffers held in bufs from line 187 are not freed on the return at line 201`
}

func leakArrayOverwrite(d *device.Device, n int) error {
	var ws [2]*device.Buffer[float32]
	var err error
	if ws[0], err = device.Alloc[float32](d, n); err != nil {
		return err
	}
	if ws[0], err = device.Alloc[float32](d, 2*n); err != nil { // want `the buffer held in ws\[0\] is not freed before it is overwritten at line 210`
		return err
	}
	ws[0].Free()
	return nil
}

func leakArraySwapFreesOne(d *device.Device, xs []float32, steps int) ([]float32, error) {
	var buf [2]*device.Buffer[float32]
	var err error
	if buf[0], err = device.Upload(d, xs); err != nil {
		return nil, err
	}
	if buf[1], err = device.Alloc[float32](d, len(xs)); err != nil {
		buf[0].Free()
		return nil, err
	}
	for s := 0; s < steps; s++ {
		buf[0], buf[1] = buf[1], buf[0]
	}
	res, err := buf[0].Download()
	buf[0].Free()
	return res, err // want `the buffers held in buf from line 218 are not freed on the return at line 232`
}

func doubleFreeArrayLoopThenElem(d *device.Device, n int) error {
	var bufs [nStreams]*device.Buffer[float32]
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
	for _, b := range bufs {
		b.Free()
	}
	return bufs[0].Free() // want `an element of buffers bufs is freed twice`
}

func doubleFreeArrayDeferredLoop(d *device.Device, n int) error {
	var bufs [nStreams]*device.Buffer[float32]
	defer func() {
		for _, b := range bufs {
			if b != nil {
				b.Free()
			}
		}
	}()
	for i := range bufs {
		var err error
		if bufs[i], err = device.Alloc[float32](d, n); err != nil {
			return err
		}
	}
	return bufs[1].Free() // want `an element of buffers bufs is freed twice`
}

func doubleFreeArrayElemTwice(d *device.Device, n int) error {
	var ws [2]*device.Buffer[float32]
	var err error
	if ws[0], err = device.Alloc[float32](d, n); err != nil {
		return err
	}
	ws[0].Free()
	return ws[0].Free() // want `the buffer from device.Alloc is freed twice: Free at line 278 after Free at line 277`
}

func useAfterFreeArrayElem(d *device.Device, n int) error {
	var ws [2]*device.Buffer[float32]
	var err error
	if ws[0], err = device.Alloc[float32](d, n); err != nil {
		return err
	}
	ws[0].Free()
	_, err = ws[0].Download() // want `the buffer from device.Alloc is used by Download at line 288 after Free at line 287`
	return err
}

// Slices of buffers indexed as made (`bufs := make([]*Buffer[T], n)`,
// never reassigned): their elements named by constant indices are followed
// like an array's.

func okSliceConstFree(d *device.Device, n int) error {
	bufs := make([]*device.Buffer[float32], 2)
	var err error
	if bufs[0], err = device.Alloc[float32](d, n); err != nil {
		return err
	}
	if bufs[1], err = device.Alloc[float32](d, n); err != nil {
		bufs[0].Free()
		return err
	}
	bufs[0].Free()
	bufs[1].Free()
	return nil
}

func okSliceReplacedAfterFree(d *device.Device, k, n int) error {
	bufs := make([]*device.Buffer[float32], k)
	var err error
	if bufs[0], err = device.Alloc[float32](d, n); err != nil {
		return err
	}
	defer func() {
		for _, b := range bufs {
			if b != nil {
				b.Free()
			}
		}
	}()
	bufs[0].Free()
	bufs[0], err = device.Alloc[float32](d, 2*n)
	return err
}

func leakSliceOverwrite(d *device.Device, n int) error {
	bufs := make([]*device.Buffer[float32], 2)
	var err error
	if bufs[0], err = device.Alloc[float32](d, n); err != nil {
		return err
	}
	if bufs[0], err = device.Alloc[float32](d, 2*n); err != nil { // want `the buffer held in bufs\[0\] is not freed before it is overwritten`
		return err
	}
	for _, b := range bufs {
		if b != nil {
			b.Free()
		}
	}
	return nil
}

func leakSliceOverwriteVarLen(d *device.Device, k, n int) error {
	bufs := make([]*device.Buffer[float32], k)
	defer func() {
		for _, b := range bufs {
			if b != nil {
				b.Free()
			}
		}
	}()
	var err error
	if bufs[0], err = device.Alloc[float32](d, n); err != nil {
		return err
	}
	bufs[0], err = device.Alloc[float32](d, 2*n) // want `the buffer held in bufs\[0\] is not freed before it is overwritten`
	return err
}

func leakSliceAppendedNotFreed(d *device.Device, n int) error {
	bufs := make([]*device.Buffer[float32], 1)
	var err error
	if bufs[0], err = device.Alloc[float32](d, n); err != nil {
		return err
	}
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		bufs[0].Free()
		return err
	}
	more := append(bufs, b)
	bufs[0].Free()
	_ = more
	return nil // want `the buffers held in bufs from line \d+ are not freed on the return`
}
