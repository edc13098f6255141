// Package silent holds correct kernels in the forms people write: memspace
// must report nothing here.
package silent

import (
	"math"

	"github.com/gpukvet/gpukvet/gpu"
)

const tile = 16

type Params struct {
	N     int
	Alpha float32
	Clamp bool
}

type vec3 struct{ x, y, z float32 }

func (v vec3) add(w vec3) vec3  { return vec3{v.x + w.x, v.y + w.y, v.z + w.z} }
func (v *vec3) scale(s float32) { v.x *= s; v.y *= s; v.z *= s }

func sum[T int32 | float32 | float64](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func index(t gpu.Thread) int { return t.GlobalIdx().X }

func divmod(a, b int) (q, r int) { return a / b, a % b }

//gpu:kernel
func Saxpy(t gpu.Thread, p Params, x, y []float32) {
	i := index(t)
	if i >= p.N || i >= len(y) {
		return
	}
	v := p.Alpha*x[i] + y[i]
	if p.Clamp {
		v = min(max(v, -1), 1)
	}
	y[i] = v
}

//gpu:kernel block=256
func Reduce(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	s[tid] = 0
	if i < len(in) {
		s[tid] = in[i]
	}
	t.Barrier()
	for stride := t.BlockDim().X / 2; stride > 0; stride >>= 1 {
		if tid < stride {
			s[tid] += s[tid+stride]
		}
		t.Barrier()
	}
	if tid == 0 {
		gpu.AtomicAdd(&out[0], s[0])
	}
}

//gpu:kernel block=256
func Histogram(t gpu.Thread, data []uint8, bins []uint32) {
	local := gpu.Shared[[256]uint32](t)
	tid := t.ThreadIdx().X
	local[tid] = 0
	t.Barrier()
	for i := t.GlobalIdx().X; i < len(data); i += t.GridDim().X * t.BlockDim().X {
		gpu.AtomicAdd(&local[data[i]], 1)
	}
	t.Barrier()
	gpu.AtomicAdd(&bins[tid], local[tid])
}

//gpu:kernel block=16,16
func MatMul(t gpu.Thread, n int, a, b, c []float32) {
	as := gpu.Shared[[tile][tile + 1]float32](t)
	bs := gpu.Shared[[tile][tile + 1]float32](t)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	row := t.BlockIdx().Y*tile + ty
	col := t.BlockIdx().X*tile + tx
	var acc float32
	for k := 0; k < n; k += tile {
		as[ty][tx] = a[row*n+k+tx]
		bs[ty][tx] = b[(k+ty)*n+col]
		t.Barrier()
		for j := range tile {
			acc += as[ty][j] * bs[j][tx]
		}
		t.Barrier()
	}
	c[row*n+col] = acc
}

//gpu:kernel
func Mixed(t gpu.Thread, out []float64, pts []vec3, ints []int32) {
	i := index(t)
	var buf [8]float64
	for j := range buf {
		buf[j] = math.Sqrt(float64(j)) + math.Pi
	}
	p := &buf[2]
	*p = math.Floor(*p)
	v := pts[i].add(vec3{1, 2, 3})
	v.scale(2)
	pts[i] = v
	q, r := divmod(i, 3)
	seg := out[i : i+1]
	seg[0] = sum(buf[:]) + float64(q+r) + float64(sum(ints[:2]))
	switch {
	case q > 10:
		seg[0] = 0
	case r == 1:
		seg[0] = -seg[0]
	default:
	}
outer:
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			if a*b > 4 {
				break outer
			}
			if b == a {
				continue
			}
		}
	}
	if math.IsNaN(seg[0]) {
		panic("NaN")
	}
	old := gpu.AtomicCompareAndSwap(&ints[0], 0, 1)
	_ = gpu.AtomicMax(&ints[1], old)
	const name = "mixed"
	_ = len(name)
}
