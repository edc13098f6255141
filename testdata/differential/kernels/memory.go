package kernels

import "github.com/gpukvet/gpukvet/gpu"

// Params is a struct parameter with mixed field sizes and padding.
type Params struct {
	Scale float32
	Shift int64
	Flip  bool
	Small int8
	Inner Inner
}

// Inner is nested in Params.
type Inner struct {
	A uint16
	B float64
}

// StructParam: a struct passed by value, nested struct included.
//
//gpu:kernel
func StructParam(t gpu.Thread, p Params, x []float32, out []float64) {
	i := t.GlobalIdx().X
	if i < len(x) {
		v := float64(x[i]*p.Scale) + float64(p.Shift) + float64(p.Small) + float64(p.Inner.A)*p.Inner.B
		if p.Flip {
			v = -v
		}
		out[i] = v
	}
}

// Particle is a slice element struct.
type Particle struct {
	X, Y, VX, VY float32
	ID           int32
	Alive        bool
}

// StructSlice: reading and writing fields of slice elements.
//
//gpu:kernel
func StructSlice(t gpu.Thread, ps []Particle, dt float32) {
	i := t.GlobalIdx().X
	if i < len(ps) {
		p := &ps[i]
		if p.Alive {
			p.X += p.VX * dt
			p.Y += p.VY * dt
			p.ID = -p.ID
		}
		if p.Y < 0 {
			p.Alive = false
		}
	}
}

// LocalArray: a fixed-size local array indexed by computed values.
//
//gpu:kernel
func LocalArray(t gpu.Thread, x []int32, out []int32) {
	i := t.GlobalIdx().X
	if i < len(x) {
		var a [8]int32
		for k := range a {
			a[k] = x[i] * int32(k+1)
		}
		s := int32(0)
		for k := 0; k < 8; k++ {
			s += a[(k*3+int(x[i]&7))%8] * int32(k)
		}
		out[i] = s
	}
}

// localSum is a device function taking a pointer to a local array.
func localSum(a *[4]float64) float64 {
	return a[0] + a[1] + a[2] + a[3]
}

// PointerLocal: pointers to local variables and to slice elements.
//
//gpu:kernel
func PointerLocal(t gpu.Thread, x []float64, out []float64) {
	i := t.GlobalIdx().X
	if i < len(x) {
		a := [4]float64{x[i], 1, 2, 3}
		v := 0.0
		p := &v
		*p = localSum(&a)
		q := &out[i]
		*q = v * 2
	}
}

// SharedReverse: reverses each block's slice through shared memory.
//
//gpu:kernel block=128
func SharedReverse(t gpu.Thread, x []float32, out []float32) {
	tile := gpu.Shared[[128]float32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	if i < len(x) {
		tile[tid] = x[i]
	}
	t.Barrier()
	j := t.BlockIdx().X*128 + 127 - tid
	if i < len(out) && j < len(x) {
		out[i] = tile[127-tid]
	}
}

// BlockSum: a tree reduction in shared memory, one barrier per step.
//
//gpu:kernel block=256
func BlockSum(t gpu.Thread, x []int64, out []int64) {
	s := gpu.Shared[[256]int64](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	v := int64(0)
	if i < len(x) {
		v = x[i]
	}
	s[tid] = v
	t.Barrier()
	for step := 128; step > 0; step >>= 1 {
		if tid < step {
			s[tid] += s[tid+step]
		}
		t.Barrier()
	}
	if tid == 0 && t.BlockIdx().X < len(out) {
		out[t.BlockIdx().X] = s[0]
	}
}

// Shared2D: a 2-D shared tile with padding, as in a transpose.
//
//gpu:kernel block=16,16
func Shared2D(t gpu.Thread, in []float32, out []float32, n int) {
	tile := gpu.Shared[[16][17]float32](t)
	x := t.BlockIdx().X*16 + t.ThreadIdx().X
	y := t.BlockIdx().Y*16 + t.ThreadIdx().Y
	if x < n && y < n {
		tile[t.ThreadIdx().Y][t.ThreadIdx().X] = in[y*n+x]
	}
	t.Barrier()
	x = t.BlockIdx().Y*16 + t.ThreadIdx().X
	y = t.BlockIdx().X*16 + t.ThreadIdx().Y
	if x < n && y < n {
		out[y*n+x] = tile[t.ThreadIdx().X][t.ThreadIdx().Y]
	}
}

// Slicing: sub-slices, their lengths, and three-index slices.
//
//gpu:kernel
func Slicing(t gpu.Thread, x []int32, out []int32) {
	i := t.GlobalIdx().X
	if i < len(out) {
		lo := i % 5
		s := x[lo : lo+8]
		u := s[2:5:6]
		out[i] = int32(len(s)*100+len(u)*10+cap(u)) + s[7] + u[2]
	}
}

// Indexes: the launch geometry as each thread sees it, in 3-D.
//
//gpu:kernel
func Indexes(t gpu.Thread, out []int32) {
	g := t.GlobalIdx()
	gd, bd := t.GridDim(), t.BlockDim()
	nx, ny := gd.X*bd.X, gd.Y*bd.Y
	i := (g.Z*ny+g.Y)*nx + g.X
	if i*6+5 < len(out) {
		v := [6]int32{
			int32(t.ThreadIdx().X + 10*t.ThreadIdx().Y + 100*t.ThreadIdx().Z),
			int32(t.BlockIdx().X + 10*t.BlockIdx().Y + 100*t.BlockIdx().Z),
			int32(bd.X + 10*bd.Y + 100*bd.Z),
			int32(gd.X + 10*gd.Y + 100*gd.Z),
			int32(g.X + 10*g.Y),
			int32(g.Z),
		}
		for k := range v {
			//gpukvet:ignore races i is the thread's linear 3-D index, so out[i*6+k] is private; the races check cannot prove it yet
			out[i*6+k] = v[k]
		}
	}
}

// ManyParams takes 328 bytes of parameters (a struct, sixteen slices,
// narrow scalars and the trap address), more than any Vulkan device's push
// constants (128 on lavapipe, 256 on NVIDIA), so on Vulkan they come
// through the argument buffer: every parameter, the struct's fields among
// them, must arrive intact.
//
//gpu:kernel
func ManyParams(t gpu.Thread, p Params, a, b, c, d, e, f, g, h, i2, j, k, l, m, n []int32, small int8, flag bool, scale float64, u16 uint16, out []float64, lens []int64) {
	i := t.GlobalIdx().X
	if i < len(out) && i < len(a) && i < len(n) {
		s := int64(a[i]) + int64(b[i%len(b)]) + int64(c[i%len(c)]) + int64(d[i%len(d)]) + int64(e[i%len(e)]) + int64(f[i%len(f)]) +
			int64(g[i%len(g)]) + int64(h[i%len(h)]) + int64(i2[i%len(i2)]) + int64(j[i%len(j)]) + int64(k[i%len(k)]) +
			int64(l[i%len(l)]) + int64(m[i%len(m)]) + int64(n[i])
		v := float64(s)*scale + float64(small) + float64(u16) + float64(p.Scale) + float64(p.Shift) + float64(p.Small) + float64(p.Inner.A)*p.Inner.B
		if flag != p.Flip {
			v = -v
		}
		out[i] = v
	}
	if i == 0 && len(lens) >= 15 {
		lens[0], lens[1], lens[2], lens[3], lens[4] = int64(len(a)), int64(len(b)), int64(len(c)), int64(len(d)), int64(len(e))
		lens[5], lens[6], lens[7], lens[8], lens[9] = int64(len(f)), int64(len(g)), int64(len(h)), int64(len(i2)), int64(len(j))
		lens[10], lens[11], lens[12], lens[13], lens[14] = int64(len(k)), int64(len(l)), int64(len(m)), int64(len(n)), int64(len(out))
	}
}
