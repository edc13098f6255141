package owner // want package:"ownership: buffer API"

import (
	"errors"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

func oneDim() gpu.Dim3 { return gpu.Dim3{X: 1, Y: 1, Z: 1} }

// Pair owns two buffers and frees them in Close.
type Pair struct { // want Pair:`ownership: owns fields \[0 1\], released by Close`
	a, b *device.Buffer[float32]
	n    int
}

func (p *Pair) Close() error {
	return errors.Join(p.a.Free(), p.b.Free())
}

// Pool owns a slice of buffers and frees each in a loop.
type Pool struct { // want Pool:`ownership: owns fields \[0\], released by Release`
	bufs []*device.Buffer[int32]
}

func (p *Pool) Release() {
	for _, b := range p.bufs {
		b.Free()
	}
	p.bufs = nil
}

// Add hands b to the pool.
func (p *Pool) Add(b *device.Buffer[int32]) { // want Add:`ownership: takes \[1\], fills \[0\]`
	p.bufs = append(p.bufs, b)
}

// NewPair is a constructor: callers must Close the Pair.
func NewPair(d *device.Device, n int) (*Pair, error) { // want NewPair:`ownership: returns new \[0\]`
	a, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, err
	}
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		a.Free()
		return nil, err
	}
	return &Pair{a: a, b: b, n: n}, nil
}

func badConstructor(d *device.Device, n int) (*Pair, error) { // want badConstructor:`ownership: returns new \[0\]`
	a, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, err
	}
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, err // want `buffer from device.Alloc at line 54 is not freed on the return at line 60`
	}
	return &Pair{a: a, b: b, n: n}, nil
}

func okUsePair(d *device.Device) error {
	p, err := NewPair(d, 8)
	if err != nil {
		return err
	}
	defer p.Close()
	return d.Sync()
}

func leakPair(d *device.Device) error {
	p, err := NewPair(d, 8)
	if err != nil {
		return err
	}
	if err := d.Sync(); err != nil {
		return err // want `Pair value from NewPair at line 75 is not closed by Close on the return at line 80`
	}
	return p.Close()
}

func leakLiteral(d *device.Device) {
	a, err := device.Alloc[float32](d, 4)
	if err != nil {
		return
	}
	p := &Pair{a: a}
	_ = p.n
} // want `Pair value from Pair literal at line 90 is not closed by Close before the function ends at line 92`

func useAfterClose(d *device.Device) {
	p, err := NewPair(d, 8)
	if err != nil {
		return
	}
	p.Close()
	p.Close() // want `Pair value p is freed twice: Close at line 100 after Close at line 99`
}

func okPool(d *device.Device) {
	var pool Pool
	defer pool.Release()
	for i := 0; i < 4; i++ {
		b, err := device.Alloc[int32](d, 16)
		if err != nil {
			return
		}
		pool.Add(b)
	}
}

func okPoolAppend(d *device.Device) error {
	pool := &Pool{}
	defer pool.Release()
	for i := 0; i < 4; i++ {
		b, err := device.Alloc[int32](d, 16)
		if err != nil {
			return err
		}
		pool.bufs = append(pool.bufs, b)
	}
	return nil
}

func leakPool(d *device.Device) error {
	pool := &Pool{}
	for i := 0; i < 4; i++ {
		b, err := device.Alloc[int32](d, 16)
		if err != nil {
			return err // want `Pool value from Pool literal at line 129 is not closed by Release on the return at line 133`
		}
		pool.bufs = append(pool.bufs, b)
	}
	pool.Release()
	return nil
}

func leakPoolAdd(d *device.Device) {
	var pool Pool
	b, err := device.Alloc[int32](d, 16)
	if err != nil {
		return
	}
	pool.Add(b)
} // want `Pool variable pool declared at line 142 is not closed by Release before the function ends at line 148`

func okMethodValue(d *device.Device) {
	b, err := device.Alloc[int32](d, 16)
	if err != nil {
		return
	}
	free := b.Free
	free()
}

func useFieldAfterClose(d *device.Device) int {
	p, err := NewPair(d, 8)
	if err != nil {
		return 0
	}
	p.Close()
	return p.a.Len() // want `Pair value p is used by Len at line 165 after Close at line 164`
}

func launchFieldAfterClose(d *device.Device) error {
	p, err := NewPair(d, 8)
	if err != nil {
		return err
	}
	p.Close()
	return d.Launch(nil, one, one, p.b) // want `Pair value p is used by Launch at line 174 after Close at line 173`
}

var one = oneDim()

// Model frees its buffers through a helper of this package.
type Model struct { // want Model:`ownership: owns fields \[0 1\], released by Close`
	w, b *device.Buffer[float32]
}

func freeAll(bs ...*device.Buffer[float32]) { // want freeAll:`ownership: frees \[0\], takes \[0\]`
	for _, b := range bs {
		b.Free()
	}
}

func (m *Model) Close() error {
	freeAll(m.w, m.b)
	return nil
}

// Tensor frees its buffer through a one-parameter helper.
type Tensor struct { // want Tensor:`ownership: owns fields \[1\], released by Release`
	shape []int
	data  *device.Buffer[float32]
}

func drop(b *device.Buffer[float32]) { // want drop:`ownership: frees \[0\], takes \[0\]`
	_ = b.Free()
}

func (t Tensor) Release() { drop(t.data) }
