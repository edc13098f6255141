package misc // want package:"ownership: buffer API"

import (
	"fmt"
	"sync"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

// upload is a generic constructor.
func upload[T any](d *device.Device, xs []T) (*device.Buffer[T], error) { // want upload:`ownership: returns new \[0\]`
	return device.Upload(d, xs)
}

func leakGeneric(d *device.Device) {
	b, err := upload(d, []int32{1, 2})
	if err != nil {
		return
	}
	_ = b.Len()
} // want `buffer from upload at line 17 is not freed before the function ends at line 22`

func okGeneric(d *device.Device) {
	b, err := upload(d, []int32{1, 2})
	if err != nil {
		return
	}
	defer b.Free()
}

// freeAll frees buffers of any element type.
func freeAll[T any](bs ...*device.Buffer[T]) { // want freeAll:`ownership: frees \[0\], takes \[0\]`
	for _, b := range bs {
		b.Free()
	}
}

func okVariadicHelper(d *device.Device) {
	a, err := device.Alloc[float32](d, 1)
	if err != nil {
		return
	}
	b, err := device.Alloc[float32](d, 1)
	if err != nil {
		a.Free()
		return
	}
	freeAll(a, b)
}

func okInterfaceHolder(d *device.Device, m *sync.Map) {
	b, err := device.Alloc[float32](d, 1)
	if err != nil {
		return
	}
	m.Store("b", b)
}

func okPrinted(d *device.Device) {
	b, err := device.Alloc[float32](d, 1)
	if err != nil {
		return
	}
	fmt.Println(b.Len())
	b.Free()
}

func okRecover(d *device.Device) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	b, err := device.Alloc[float32](d, 1)
	if err != nil {
		return err
	}
	defer b.Free()
	if b.Len() == 0 {
		panic("empty")
	}
	return nil
}

func okLabeledLoop(d *device.Device, rows [][]float32) error {
outer:
	for _, row := range rows {
		for _, x := range row {
			if x < 0 {
				continue outer
			}
		}
		b, err := device.Upload(d, row)
		if err != nil {
			return err
		}
		if err := b.Free(); err != nil {
			break outer
		}
	}
	return nil
}

func okGoto(d *device.Device) error {
	b, err := device.Alloc[float32](d, 1)
	if err != nil {
		goto fail
	}
	return b.Free()
fail:
	return err
}

type bufs struct {
	list []*device.Buffer[float32]
	m    map[int]*device.Buffer[float32]
}

func (s *bufs) okAppendField(d *device.Device) error {
	b, err := device.Alloc[float32](d, 1)
	if err != nil {
		return err
	}
	s.list = append(s.list, b)
	return nil
}

func (s *bufs) okMapField(d *device.Device, k int) error {
	b, err := device.Alloc[float32](d, 1)
	if err != nil {
		return err
	}
	s.m[k] = b
	return nil
}

func okArrayElement(d *device.Device, out *[2]*device.Buffer[float32]) error {
	b, err := device.Alloc[float32](d, 1)
	if err != nil {
		return err
	}
	out[0] = b
	return nil
}

func okPointerOut(d *device.Device, out **device.Buffer[float32]) error {
	b, err := device.Alloc[float32](d, 1)
	if err != nil {
		return err
	}
	*out = b
	return nil
}

func okAddressTaken(d *device.Device) error {
	b, err := device.Alloc[float32](d, 1)
	if err != nil {
		return err
	}
	p := &b
	return (*p).Free()
}

func okLaunchArgsSlice(d *device.Device) error {
	b, err := device.Alloc[float32](d, 1)
	if err != nil {
		return err
	}
	defer b.Free()
	args := []any{float32(1), b}
	return d.Launch(nil, one, one, args...)
}

var one = oneDim()

func leakInFuncLit(d *device.Device) func() {
	return func() {
		b, err := device.Alloc[float32](d, 1)
		if err != nil {
			return
		}
		_ = b
	} // want `buffer from device.Alloc at line 179 is not freed before the function ends at line 184`
}

func oneDim() gpu.Dim3 { return gpu.Dim3{X: 1, Y: 1, Z: 1} }

// newLaunched frees its buffer only when it fails.
func newLaunched(d *device.Device) (b *device.Buffer[float32], err error) { // want newLaunched:`ownership: returns new \[0\]`
	b, err = device.Alloc[float32](d, 4)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			b.Free()
			b = nil
		}
	}()
	err = d.Launch(nil, one, one, b)
	return b, err
}

func okNamedResults(d *device.Device) error {
	b, err := newLaunched(d)
	if err != nil {
		return err
	}
	return b.Free()
}

func leakNamedResults(d *device.Device) error {
	b, err := newLaunched(d)
	if err != nil {
		return err
	}
	_ = b.Len()
	return nil // want `buffer from newLaunched at line 214 is not freed on the return at line 219`
}

type pair struct{ x, y *device.Buffer[float32] }

func okLocalStructFields(d *device.Device) error {
	x, err := device.Alloc[float32](d, 1)
	if err != nil {
		return err
	}
	y, err := device.Alloc[float32](d, 1)
	if err != nil {
		x.Free()
		return err
	}
	p := pair{x: x, y: y}
	p.x.Free()
	y.Free()
	return nil
}

func leakLocalStructField(d *device.Device) error {
	x, err := device.Alloc[float32](d, 1)
	if err != nil {
		return err
	}
	y, err := device.Alloc[float32](d, 1)
	if err != nil {
		x.Free()
		return err
	}
	p := pair{x: x, y: y}
	q := p
	q.x.Free()
	return nil // want `buffer from device.Alloc at line 245 is not freed on the return at line 253`
}

func doubleFreeLocalStructField(d *device.Device) {
	x, err := device.Alloc[float32](d, 1)
	if err != nil {
		return
	}
	p := &pair{x: x}
	p.x.Free()
	x.Free() // want `buffer x is freed twice: Free at line 263 after Free at line 262`
}
