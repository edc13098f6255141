package owner // want package:"ownership: buffer API"

import (
	"errors"

	"github.com/gpukvet/gpukvet/device"
)

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
		return nil, err // want `buffer from device.Alloc at line 51 is not freed on the return at line 57`
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
		return err // want `Pair value from NewPair at line 72 is not closed by Close on the return at line 77`
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
} // want `Pair value from Pair literal at line 87 is not closed by Close before the function ends at line 89`

func useAfterClose(d *device.Device) {
	p, err := NewPair(d, 8)
	if err != nil {
		return
	}
	p.Close()
	p.Close() // want `Pair value p is freed twice: Close at line 97 after Close at line 96`
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
			return err // want `Pool value from Pool literal at line 126 is not closed by Release on the return at line 130`
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
} // want `Pool variable pool declared at line 139 is not closed by Release before the function ends at line 145`

func okMethodValue(d *device.Device) {
	b, err := device.Alloc[int32](d, 16)
	if err != nil {
		return
	}
	free := b.Free
	free()
}
