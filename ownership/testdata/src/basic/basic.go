package basic // want package:"ownership: buffer API"

import (
	"errors"
	"log"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func Scale(t gpu.Thread, a float32, x []float32) {}

var g = gpu.Dim3{X: 1, Y: 1, Z: 1}

// --- leaks ---

func leakOnLaunchError(d *device.Device) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	if err := d.Launch(Scale, g, g, float32(2), b); err != nil {
		return err // want `buffer from device.Alloc at line 19 is not freed on the return at line 24`
	}
	return b.Free()
}

func leakAtEnd(d *device.Device) {
	b, err := device.Upload(d, []float32{1, 2})
	if err != nil {
		return
	}
	_ = d.Launch(Scale, g, g, float32(2), b)
} // want `buffer from device.Upload at line 30 is not freed before the function ends at line 35`

func leakDiscarded(d *device.Device) error {
	_, err := device.Alloc[int32](d, 4)
	return err // want `buffer from device.Alloc at line 38 is not freed on the return at line 39`
}

func leakOneBranch(d *device.Device, c bool) {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return
	}
	if c {
		b.Free()
		return
	}
} // want `buffer from device.Alloc at line 43 is not freed before the function ends at line 51`

func leakSecondOnError(d *device.Device) error {
	a, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	defer a.Free()
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	if err := d.Sync(); err != nil {
		return err // want `buffer from device.Alloc at line 59 is not freed on the return at line 64`
	}
	return b.Free()
}

// --- silent twins ---

func okDefer(d *device.Device) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	defer b.Free()
	return d.Launch(Scale, g, g, float32(2), b)
}

func okDeferClosure(d *device.Device) (err error) {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	defer func() {
		if ferr := b.Free(); err == nil {
			err = ferr
		}
	}()
	return d.Launch(Scale, g, g, float32(2), b)
}

func okFreeEveryBranch(d *device.Device, c bool) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	if c {
		if err := b.Free(); err != nil {
			return err
		}
		return nil
	}
	if err := d.Launch(Scale, g, g, float32(2), b); err != nil {
		b.Free()
		return err
	}
	return b.Free()
}

func okReturned(d *device.Device) (*device.Buffer[float32], error) { // want okReturned:`ownership: returns new \[0\]`
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return nil, err
	}
	if err := d.Launch(Scale, g, g, float32(2), b); err != nil {
		b.Free()
		return nil, err
	}
	return b, nil
}

func okNilCheck(d *device.Device) {
	b, _ := device.Alloc[float32](d, 10)
	if b == nil {
		return
	}
	b.Free()
}

func okPanic(d *device.Device) {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		panic(err)
	}
	if b.Len() != 10 {
		panic("short buffer")
	}
	if err := d.Sync(); err != nil {
		log.Fatal(err)
	}
	b.Free()
}

func okErrorsIs(d *device.Device) error {
	b, err := device.Alloc[float32](d, 10)
	if err == nil {
		defer b.Free()
		return d.Sync()
	}
	return errors.Join(err, errors.New("no buffer"))
}

// --- use after free, double free ---

func useAfterFree(d *device.Device) {
	x, err := device.Alloc[float32](d, 10)
	if err != nil {
		return
	}
	x.Free()
	x.Download() // want `buffer x is used by Download at line 162 after Free at line 161`
}

func launchAfterFree(d *device.Device, c bool) {
	x, err := device.Alloc[float32](d, 10)
	if err != nil {
		return
	}
	if c {
		x.Free()
	} else {
		defer x.Free()
	}
	d.Launch(Scale, g, g, float32(1), x) // want `buffer x is used by Launch at line 175 after Free at line 171`
}

func doubleFree(d *device.Device) {
	x, err := device.Alloc[float32](d, 10)
	if err != nil {
		return
	}
	x.Free()
	x.Free() // want `buffer x is freed twice: Free at line 184 after Free at line 183`
}

func doubleFreeDeferred(d *device.Device) {
	x, err := device.Alloc[float32](d, 10)
	if err != nil {
		return
	}
	defer x.Free()
	x.Free() // want `buffer x is freed twice: Free at line 193, and again by the deferred Free at line 192`
}

func okUseBeforeFree(d *device.Device) {
	x, err := device.Alloc[float32](d, 10)
	if err != nil {
		return
	}
	x.Download()
	_ = x.Len()
	x.Free()
}

func returnedButDeferredFree(d *device.Device) (*device.Buffer[float32], error) {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return nil, err
	}
	defer b.Free()
	return b, d.Sync() // want `buffer b is returned at line 212, but the deferred Free at line 211 frees it after the return`
}

func okFreeEarlyThenNil(d *device.Device) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	defer func() {
		if b != nil {
			b.Free()
		}
	}()
	if err := d.Sync(); err != nil {
		return err
	}
	b.Free()
	b = nil
	return d.Sync()
}

func doubleFreeEarlyNoNil(d *device.Device) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	defer func() {
		if b != nil {
			b.Free()
		}
	}()
	b.Free() // want `buffer b is freed twice: Free at line 243, and again by the deferred Free at line 238`
	return d.Sync()
}

func leakNilledWithoutFree(d *device.Device) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	defer func() {
		if b != nil {
			b.Free()
		}
	}()
	b = nil
	return d.Sync() // want `buffer from device.Alloc at line 248 is not freed on the return at line 258`
}

func deferredUseAfterFree(d *device.Device) ([]float32, error) {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return nil, err
	}
	var out []float32
	defer func() { out, _ = b.Download() }() // want `buffer b is used by a function literal deferred at line 267, which runs after Free at line 268`
	b.Free()
	return out, nil
}

func okDeferredUseBeforeDeferredFree(d *device.Device) (out []float32, err error) {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return nil, err
	}
	defer b.Free()
	defer func() { out, err = b.Download() }()
	return nil, d.Sync()
}

func okDeferredUseGuarded(d *device.Device) error {
	b, err := device.Alloc[float32](d, 10)
	if err != nil {
		return err
	}
	defer func() {
		if b != nil {
			_ = b.Len()
		}
	}()
	b.Free()
	b = nil
	return nil
}
