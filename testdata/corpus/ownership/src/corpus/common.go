// Package corpus is the ownership verdict corpus: each function marked
// "verdict: leak", "verdict: uaf", "verdict: doublefree" or "verdict: clean"
// is one program; the buggy ones hold exactly that bug.
package corpus

import (
	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func Scale(t gpu.Thread, a float32, x []float32) {
	if i := t.GlobalIdx().X; i < len(x) {
		x[i] *= a
	}
}

//gpu:kernel
func Add(t gpu.Thread, x, y, out []float32) {
	if i := t.GlobalIdx().X; i < len(out) {
		out[i] = x[i] + y[i]
	}
}

var one = gpu.Dim3{X: 1, Y: 1, Z: 1}

func grid(n int) gpu.Dim3 { return gpu.Dim3{X: (n + 255) / 256, Y: 1, Z: 1} }

var block = gpu.Dim3{X: 256, Y: 1, Z: 1}

// Holder owns one buffer; Close frees it.
type Holder struct {
	buf  *device.Buffer[float32]
	name string
}

func (h *Holder) Close() error { return h.buf.Free() }

// Pool owns buffers in a slice; Release frees each.
type Pool struct{ bufs []*device.Buffer[float32] }

func (p *Pool) Release() {
	for _, b := range p.bufs {
		b.Free()
	}
	p.bufs = nil
}

func (p *Pool) Add(b *device.Buffer[float32]) { p.bufs = append(p.bufs, b) }

// newScratch returns a new buffer (a constructor in this package).
func newScratch(d *device.Device, n int) (*device.Buffer[float32], error) {
	b, err := device.Alloc[float32](d, n)
	if err != nil {
		return nil, err
	}
	if err := d.Launch(Scale, grid(n), block, float32(0), b); err != nil {
		b.Free()
		return nil, err
	}
	return b, nil
}

// release frees b (a function that takes ownership).
func release(b *device.Buffer[float32]) {
	_ = b.Free()
}

// peek reads b and keeps nothing.
func peek(b *device.Buffer[float32]) int { return b.Len() }
