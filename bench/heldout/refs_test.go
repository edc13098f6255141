package heldout

// Plain Go references: what each kernel computes, written as loops over
// the whole problem, not over threads and blocks.

import "slices"

// refs maps a case's name to its reference: the expected outputs (in the
// order of the case's Outs) from the case's arguments, which it does not
// modify.
var refs = map[string]func(a []any) []any{
	"Gemm": func(a []any) []any {
		ni, nj, nk, alpha, beta := a[0].(int), a[1].(int), a[2].(int), a[3].(float32), a[4].(float32)
		x, y, c := a[5].([]float32), a[6].([]float32), slices.Clone(a[7].([]float32))
		for i := range ni {
			for j := range nj {
				c[i*nj+j] *= beta
				for k := range nk {
					c[i*nj+j] += alpha * x[i*nk+k] * y[k*nj+j]
				}
			}
		}
		return []any{c}
	},
	"Atax1": func(a []any) []any {
		return []any{matVec(a[0].(int), a[1].(int), a[2].([]float32), a[3].([]float32), a[4].([]float32), false)}
	},
	"Atax2": func(a []any) []any {
		return []any{matVec(a[0].(int), a[1].(int), a[2].([]float32), a[4].([]float32), a[3].([]float32), true)}
	},
	"Bicg1": func(a []any) []any {
		nx, ny := a[0].(int), a[1].(int)
		return []any{matVec(nx, ny, a[2].([]float32), a[3].([]float32), make([]float32, ny), true)}
	},
	"Bicg2": func(a []any) []any {
		nx, ny := a[0].(int), a[1].(int)
		return []any{matVec(nx, ny, a[2].([]float32), a[3].([]float32), make([]float32, nx), false)}
	},
	"Gesummv": func(a []any) []any {
		n, alpha, beta := a[0].(int), a[1].(float32), a[2].(float32)
		tmp := matVec(n, n, a[3].([]float32), a[6].([]float32), a[5].([]float32), false)
		y := matVec(n, n, a[4].([]float32), a[6].([]float32), a[7].([]float32), false)
		for i := range y {
			y[i] = alpha*tmp[i] + beta*y[i]
		}
		return []any{tmp, y}
	},
	"Mvt1": func(a []any) []any {
		n := a[0].(int)
		return []any{matVec(n, n, a[1].([]float32), a[3].([]float32), a[2].([]float32), false)}
	},
	"Jacobi2D": func(a []any) []any {
		n, x, y := a[0].(int), a[1].([]float32), slices.Clone(a[2].([]float32))
		for i := 1; i < n-1; i++ {
			for j := 1; j < n-1; j++ {
				y[i*n+j] = 0.2 * (x[i*n+j] + x[i*n+j-1] + x[i*n+j+1] + x[(i+1)*n+j] + x[(i-1)*n+j])
			}
		}
		return []any{y}
	},
	"Conv2D": func(a []any) []any {
		ni, nj, x, y := a[0].(int), a[1].(int), a[2].([]float32), slices.Clone(a[3].([]float32))
		w := [3][3]float32{{0.2, 0.5, -0.8}, {-0.3, 0.6, -0.9}, {0.4, 0.7, 0.10}} // [row offset+1][column offset+1]
		for i := 1; i < ni-1; i++ {
			for j := 1; j < nj-1; j++ {
				var s float32
				for di := -1; di <= 1; di++ {
					for dj := -1; dj <= 1; dj++ {
						s += w[di+1][dj+1] * x[(i+di)*nj+j+dj]
					}
				}
				y[i*nj+j] = s
			}
		}
		return []any{y}
	},
	"TransposeCoalesced": refTranspose,
	"TransposeDiagonal":  refTranspose,
	"ConvolutionRows": func(a []any) []any {
		return []any{convolve(a[1].([]float32), a[2].([]float32), a[3].(int), a[4].(int), 1, 0)}
	},
	"ConvolutionColumns": func(a []any) []any {
		return []any{convolve(a[1].([]float32), a[2].([]float32), a[3].(int), a[4].(int), 0, 1)}
	},
	"Hotspot":       refHotspot,
	"LudInternal":   refLud,
	"AdjustWeights": refAdjustWeights,
	"Sgemm": func(a []any) []any {
		x, m, y, n, c, k := a[0].([]float32), a[1].(int), a[2].([]float32), a[3].(int), slices.Clone(a[4].([]float32)), a[6].(int)
		alpha, beta := a[7].(float32), a[8].(float32)
		for col := range n {
			for row := range m {
				var s float32
				for i := range k {
					s += x[row+i*m] * y[col+i*n]
				}
				c[row+col*m] = c[row+col*m]*beta + alpha*s
			}
		}
		return []any{c}
	},
	"SpmvJDS": func(a []any) []any {
		data, index, perm, x, dim := a[1].([]float32), a[2].([]int32), a[3].([]int32), a[4].([]float32), a[5].(int)
		jdsPtr, zcnt := a[6].([]int32), a[7].([]int32)
		y := make([]float32, dim)
		for ix := range dim {
			var s float32
			for k := range int(zcnt[ix/32]) {
				j := int(jdsPtr[k]) + ix
				s += data[j] * x[index[j]]
			}
			y[perm[ix]] = s
		}
		return []any{y}
	},
	"Reduce": func(a []any) []any {
		return []any{refPartials(a[0].([]float32), len(a[1].([]float32)))}
	},
	"MDForce": refMD,
	"Dot": func(a []any) []any {
		x, y, out := a[0].([]float32), a[1].([]float32), make([]float32, len(a[2].([]float32)))
		for i := range x {
			out[i/dotBlock%len(out)] += x[i] * y[i]
		}
		return []any{out}
	},
	"MatMul32": func(a []any) []any {
		n, x, y := a[0].(int), a[1].([]float32), a[2].([]float32)
		c := make([]float32, n*n)
		for i := range n {
			for j := range n {
				var s float32
				for k := range n {
					s += x[i*n+k] * y[k*n+j]
				}
				c[i*n+j] = s
			}
		}
		return []any{c}
	},
	"Reduce3": func(a []any) []any {
		in, out := a[0].([]float32), make([]float32, len(a[1].([]float32)))
		for i, v := range in {
			out[i/(2*reduce3Block)] += v
		}
		return []any{out}
	},
	"PathRow": func(a []any) []any {
		cols, wall, src := a[0].(int), a[1].([]int32), a[2].([]int32)
		dst := make([]int32, cols)
		for x := range cols {
			m := src[x]
			if x > 0 {
				m = min(m, src[x-1])
			}
			if x+1 < cols {
				m = min(m, src[x+1])
			}
			dst[x] = wall[x] + m
		}
		return []any{dst}
	},
}

// matVec returns acc plus A·x (A nx×ny) or, if transposed, acc plus Aᵀ·x;
// acc is not modified.
func matVec(nx, ny int, a, x, acc []float32, transposed bool) []float32 {
	y := slices.Clone(acc)
	for i := range nx {
		for j := range ny {
			if transposed {
				y[j] += a[i*ny+j] * x[i]
			} else {
				y[i] += a[i*ny+j] * x[j]
			}
		}
	}
	return y
}

func refTranspose(a []any) []any {
	in, w, h := a[1].([]float32), a[2].(int), a[3].(int)
	out := make([]float32, w*h)
	for y := range h {
		for x := range w {
			out[x*h+y] = in[y*w+x]
		}
	}
	return []any{out}
}

// convolve applies the 17-tap filter kern along x (dx=1) or y (dy=1) of
// the w×h image, zero outside it.
func convolve(src, kern []float32, w, h, dx, dy int) []float32 {
	dst := make([]float32, w*h)
	for y := range h {
		for x := range w {
			var s float32
			for j := -kernelRadius; j <= kernelRadius; j++ {
				xx, yy := x+j*dx, y+j*dy
				var v float32
				if xx >= 0 && xx < w && yy >= 0 && yy < h {
					v = src[yy*w+xx]
				}
				s += kern[kernelRadius-j] * v
			}
			dst[y*w+x] = s
		}
	}
	return dst
}

// refHotspot runs iteration steps of the thermal simulation on the whole
// grid, with the edge cells' missing neighbours replaced by the cell itself
// (what the tiles' clamped N, S, W, E do at the grid's edges).
func refHotspot(a []any) []any {
	it, power, temp := a[0].(int), a[1].([]float32), slices.Clone(a[2].([]float32))
	cols, rows := a[4].(int), a[5].(int)
	capac, rx, ry, rz, step := a[8].(float32), a[9].(float32), a[10].(float32), a[11].(float32), a[12].(float32)
	stepDivCap, rx1, ry1, rz1 := step/capac, 1/rx, 1/ry, 1/rz
	next := make([]float32, len(temp))
	for range it {
		for y := range rows {
			for x := range cols {
				c := temp[y*cols+x]
				n, s := temp[max(y-1, 0)*cols+x], temp[min(y+1, rows-1)*cols+x]
				w, e := temp[y*cols+max(x-1, 0)], temp[y*cols+min(x+1, cols-1)]
				next[y*cols+x] = c + stepDivCap*(power[y*cols+x]+(s+n-2*c)*ry1+(e+w-2*c)*rx1+(80-c)*rz1)
			}
		}
		temp, next = next, temp
	}
	return []any{temp}
}

func refLud(a []any) []any {
	m, dim, off := slices.Clone(a[0].([]float32)), a[1].(int), a[2].(int)
	for r := off + ludBlock; r < dim; r++ {
		for c := off + ludBlock; c < dim; c++ {
			var s float32
			for i := range ludBlock {
				s += m[r*dim+off+i] * m[(off+i)*dim+c]
			}
			m[r*dim+c] -= s
		}
	}
	return []any{m}
}

func refAdjustWeights(a []any) []any {
	delta, hid, ly, in := a[0].([]float32), a[1].(int), a[2].([]float32), a[3].(int)
	w, oldw := slices.Clone(a[4].([]float32)), slices.Clone(a[5].([]float32))
	for k := 1; k <= in; k++ {
		for j := 1; j <= bpHeight; j++ {
			i := k*(hid+1) + j
			nw := eta*delta[j]*ly[k] + momentum*oldw[i]
			w[i] += nw
			oldw[i] = nw
		}
	}
	for j := 1; j <= bpHeight; j++ {
		nw := eta*delta[j] + momentum*oldw[j]
		w[j] += nw
		oldw[j] = nw
	}
	return []any{w, oldw}
}

// refPartials sums in into the partial sums of SHOC's reduce with n
// blocks of 256 threads: block b adds elements b·512 + t + k·n·512 and the
// ones 256 after them.
func refPartials(in []float32, n int) []float32 {
	out := make([]float32, n)
	for i, v := range in {
		out[i/(2*reduceBlock)%n] += v
	}
	return out
}

func refMD(a []any) []any {
	pos, neigh, list := a[1].([]float32), a[2].(int), a[3].([]int32)
	cutsq, lj1, lj2, inum := a[4].(float32), a[5].(float32), a[6].(float32), a[7].(int)
	f := make([]float32, 4*inum)
	for i := range inum {
		for j := range neigh {
			k := int(list[j*inum+i])
			var d [3]float32
			var r2 float32
			for c := range 3 {
				d[c] = pos[4*i+c] - pos[4*k+c]
				r2 += d[c] * d[c]
			}
			if r2 < cutsq {
				r2inv := 1 / r2
				r6inv := r2inv * r2inv * r2inv
				fc := r2inv * r6inv * (lj1*r6inv - lj2)
				for c := range 3 {
					f[4*i+c] += d[c] * fc
				}
			}
		}
	}
	return []any{f}
}
