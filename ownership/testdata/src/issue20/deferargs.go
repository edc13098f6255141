package issue20

import "github.com/gpukvet/gpukvet/device"

// A deferred call evaluates its arguments when the defer statement runs: a
// slice passed then holds only the buffers appended before it, and a struct
// passed by value holds the fields it had then. A deferred literal, or a
// pointer, sees the values at exit.

func freeSlice(bufs []*device.Buffer[float32]) { // want freeSlice:`ownership: frees \[0\], takes \[0\]`
	for _, b := range bufs {
		b.Free()
	}
}

func deferFreeSliceBeforeAppend(d *device.Device, parts [][]float32) error {
	var bufs []*device.Buffer[float32]
	defer freeSlice(bufs)
	for _, p := range parts {
		b, err := device.Upload(d, p)
		if err != nil {
			return err // want `the buffers held in bufs from line 24 are not freed on the return at line 22`
		}
		bufs = append(bufs, b)
	}
	return nil // want `the buffers held in bufs from line 24 are not freed on the return at line 26`
}

func deferFreeMadeSliceBeforeAppend(d *device.Device, n int) error {
	bufs := make([]*device.Buffer[float32], 0, n)
	defer freeSlice(bufs)
	for i := 0; i < n; i++ {
		b, err := device.Alloc[float32](d, 16)
		if err != nil {
			return err // want `the buffers held in bufs from line 30 are not freed on the return at line 35`
		}
		bufs = append(bufs, b)
	}
	return d.Sync() // want `the buffers held in bufs from line 30 are not freed on the return at line 39`
}

func deferLiteralWithSliceArg(d *device.Device, parts [][]float32) error {
	var bufs []*device.Buffer[float32]
	defer func(bs []*device.Buffer[float32]) { freeSlice(bs) }(bufs)
	for _, p := range parts {
		b, err := device.Upload(d, p)
		if err != nil {
			return err // want `the buffers held in bufs from line 50 are not freed on the return at line 48`
		}
		bufs = append(bufs, b)
	}
	return nil // want `the buffers held in bufs from line 50 are not freed on the return at line 52`
}

func okDeferLiteralReadsSlice(d *device.Device, parts [][]float32) error {
	var bufs []*device.Buffer[float32]
	defer func() { freeSlice(bufs) }()
	for _, p := range parts {
		b, err := device.Upload(d, p)
		if err != nil {
			return err
		}
		bufs = append(bufs, b)
	}
	return nil
}

func okDeferFreeSliceAfterAppends(d *device.Device, parts [][]float32) error {
	var bufs []*device.Buffer[float32]
	for _, p := range parts {
		b, err := device.Upload(d, p)
		if err != nil {
			freeSlice(bufs)
			return err
		}
		bufs = append(bufs, b)
	}
	defer freeSlice(bufs)
	return d.Sync()
}

func okDeferFreeSliceFilledByIndex(d *device.Device, n int) error {
	bufs := make([]*device.Buffer[float32], n)
	defer freeSlice(bufs) // shares the backing array: it sees the stores
	for i := range bufs {
		b, err := device.Alloc[float32](d, 16)
		if err != nil {
			return err
		}
		bufs[i] = b
	}
	return d.Sync()
}

// plan is a per-stream plan of two buffers; it has no Close of its own.
type plan struct {
	in, out *device.Buffer[float32]
}

func freePlan(p plan) {
	if p.in != nil {
		p.in.Free()
	}
	if p.out != nil {
		p.out.Free()
	}
}

func freePlanPtr(p *plan) {
	if p.in != nil {
		p.in.Free()
	}
	if p.out != nil {
		p.out.Free()
	}
}

func deferFreePlanByValue(d *device.Device, xs []float32) error {
	var p plan
	defer freePlan(p)
	var err error
	p.in, err = device.Upload(d, xs)
	if err != nil {
		return err
	}
	p.out, err = device.Alloc[float32](d, len(xs))
	if err != nil {
		return err // want `buffer from device.Upload at line 122 is not freed on the return at line 128`
	}
	return d.Launch(nil, one, one, p.in, p.out) // want `buffer from device.Upload at line 122 is not freed on the return at line 130` `buffer from device.Alloc at line 126 is not freed on the return at line 130`
}

func okDeferFreePlanByPointer(d *device.Device, xs []float32) error {
	var p plan
	defer freePlanPtr(&p)
	var err error
	p.in, err = device.Upload(d, xs)
	if err != nil {
		return err
	}
	p.out, err = device.Alloc[float32](d, len(xs))
	if err != nil {
		return err
	}
	return d.Launch(nil, one, one, p.in, p.out)
}
