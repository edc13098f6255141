package lib // want package:"ownership: buffer API"

import "github.com/gpukvet/gpukvet/device"

// NewBuf returns a new buffer that the caller must free.
func NewBuf(d *device.Device, n int) (*device.Buffer[float32], error) { // want NewBuf:`ownership: returns new \[0\]`
	return device.Alloc[float32](d, n)
}

// Release frees b.
func Release(b *device.Buffer[float32]) { // want Release:`ownership: frees \[0\], takes \[0\]`
	if err := b.Free(); err != nil {
		panic(err)
	}
}

var kept []*device.Buffer[float32]

// Keep stores b for later.
func Keep(b *device.Buffer[float32]) { // want Keep:`ownership: takes \[0\]`
	kept = append(kept, b)
}

// Sum only reads b.
func Sum(b *device.Buffer[float32]) float32 {
	xs, _ := b.Download()
	var s float32
	for _, x := range xs {
		s += x
	}
	return s
}

// releaseVia frees b through Release.
func ReleaseVia(b *device.Buffer[float32]) { // want ReleaseVia:`ownership: frees \[0\], takes \[0\]`
	Release(b)
}

// Holder owns a buffer.
type Holder struct { // want Holder:`ownership: owns fields \[0\], released by Close`
	buf *device.Buffer[float32]
}

func (h *Holder) Close() error { return h.buf.Free() }

// NewHolder returns a Holder the caller must Close.
func NewHolder(d *device.Device) (*Holder, error) { // want NewHolder:`ownership: returns new \[0\]`
	b, err := device.Alloc[float32](d, 4)
	if err != nil {
		return nil, err
	}
	return &Holder{buf: b}, nil
}

// Open opens a device for packages that do not import device.
func Open() (*device.Device, error) { return device.Open() }
