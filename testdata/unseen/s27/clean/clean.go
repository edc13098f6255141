// Package clean holds the kernels of package s27 whose verdict is clean,
// built by gpukvet gen and run on every backend by clean_test.go against
// the cpu backend (see ../../README.md).
package clean

//go:generate go tool gpukvet gen

import "github.com/gpukvet/gpukvet/gpu"

const accumN = 256

// ScalarProd: CUDA samples scalarProd: each thread accumulates strided
// products of one vector pair into its own shared slot, a barrier, then a
// tree reduction with a barrier per step; thread 0 writes the result.
// verdict: clean
//
//gpu:kernel block=256
func ScalarProd(t gpu.Thread, d []float32, a, b []float32, vectorN, elementN int) {
	accum := gpu.Shared[[accumN]float32](t)
	tid := t.ThreadIdx().X
	for vec := t.BlockIdx().X; vec < vectorN; vec += t.GridDim().X {
		vecStart := vec * elementN
		vecEnd := vecStart + elementN
		for iAccum := tid; iAccum < accumN; iAccum += t.BlockDim().X {
			var sum float32
			for pos := vecStart + iAccum; pos < vecEnd && pos < len(a) && pos < len(b); pos += accumN {
				sum += a[pos] * b[pos]
			}
			accum[iAccum] = sum
		}
		for stride := accumN / 2; stride > 0; stride >>= 1 {
			t.Barrier()
			for iAccum := tid; iAccum < stride; iAccum += t.BlockDim().X {
				accum[iAccum] += accum[stride+iAccum]
			}
		}
		t.Barrier()
		if tid == 0 && vec < len(d) {
			d[vec] = accum[0]
		}
		t.Barrier()
	}
}

// ScalarProdNoFinalBarrier: ScalarProd without the barrier at the end of
// the vector loop. Written as a race (a fast thread's next vector writes
// accum while thread 0 reads accum[0]); on a second reading it is clean:
// each thread writes only its own slots accum[tid+k*BlockDim], thread 0
// alone writes accum[0], and the next reduction starts with a barrier. The
// analysis said clean first (README: the verdict was corrected after).
// verdict: clean
//
//gpu:kernel block=256
func ScalarProdNoFinalBarrier(t gpu.Thread, d []float32, a, b []float32, vectorN, elementN int) {
	accum := gpu.Shared[[accumN]float32](t)
	tid := t.ThreadIdx().X
	for vec := t.BlockIdx().X; vec < vectorN; vec += t.GridDim().X {
		vecStart := vec * elementN
		vecEnd := vecStart + elementN
		for iAccum := tid; iAccum < accumN; iAccum += t.BlockDim().X {
			var sum float32
			for pos := vecStart + iAccum; pos < vecEnd && pos < len(a) && pos < len(b); pos += accumN {
				sum += a[pos] * b[pos]
			}
			accum[iAccum] = sum
		}
		for stride := accumN / 2; stride > 0; stride >>= 1 {
			t.Barrier()
			for iAccum := tid; iAccum < stride; iAccum += t.BlockDim().X {
				accum[iAccum] += accum[stride+iAccum]
			}
		}
		t.Barrier()
		if tid == 0 && vec < len(d) {
			d[vec] = accum[0]
		}
	}
}

// Triad: SHOC's Triad: c = a + s*b over a grid-stride loop.
// verdict: clean
//
//gpu:kernel
func Triad(t gpu.Thread, a, b, c []float32, s float32) {
	for i := t.GlobalIdx().X; i < len(c) && i < len(a) && i < len(b); i += t.BlockDim().X * t.GridDim().X {
		c[i] = a[i] + s*b[i]
	}
}

// MriQ: Parboil mri-q ComputeQ: each thread sums the contributions of all
// k-space samples (read by every thread) to its own voxel.
// verdict: clean
//
//gpu:kernel block=256
func MriQ(t gpu.Thread, numK int, kx, ky, kz, phiMag []float32, x, y, z, qr, qi []float32) {
	i := t.GlobalIdx().X
	if i >= len(x) || i >= len(y) || i >= len(z) || i >= len(qr) || i >= len(qi) {
		return
	}
	xi, yi, zi := x[i], y[i], z[i]
	var sr, si float32
	for k := 0; k < numK && k < len(kx) && k < len(ky) && k < len(kz) && k < len(phiMag); k++ {
		arg := 6.2831853 * (kx[k]*xi + ky[k]*yi + kz[k]*zi)
		// a polynomial stand-in for cos/sin keeps the kernel in float32
		c := 1 - arg*arg/2
		s := arg - arg*arg*arg/6
		sr += phiMag[k] * c
		si += phiMag[k] * s
	}
	qr[i] += sr
	qi[i] += si
}

// Gesummv: PolyBench-ACC gesummv: y = alpha*A*x + beta*B*x, a row a thread.
// verdict: clean
//
//gpu:kernel
func Gesummv(t gpu.Thread, n int, alpha, beta float32, A, B, x, y, tmp []float32) {
	i := t.GlobalIdx().X
	if i >= n || i >= len(y) || i >= len(tmp) {
		return
	}
	var s, u float32
	for j := 0; j < n; j++ {
		s += A[i*n+j] * x[j]
		u += B[i*n+j] * x[j]
	}
	tmp[i] = s
	y[i] = alpha*s + beta*u
}

// Mvt1: PolyBench-ACC mvt kernel 1: x1[i] += A[i][j]*y1[j], a row a thread.
// verdict: clean
//
//gpu:kernel
func Mvt1(t gpu.Thread, n int, A, x1, y1 []float32) {
	i := t.GlobalIdx().X
	if i < n && i < len(x1) {
		for j := 0; j < n; j++ {
			x1[i] += A[i*n+j] * y1[j]
		}
	}
}

// BlellochScan: GPU Gems 3 ch. 39 work-efficient scan of one block of 2*256
// elements: up-sweep and down-sweep with a barrier at every level.
// verdict: clean
//
//gpu:kernel block=256
func BlellochScan(t gpu.Thread, g []float32) {
	temp := gpu.Shared[[512]float32](t)
	tid := t.ThreadIdx().X
	base := t.BlockIdx().X * 512
	if base+2*tid+1 < len(g) {
		temp[2*tid] = g[base+2*tid]
		temp[2*tid+1] = g[base+2*tid+1]
	}
	offset := 1
	for d := 512 >> 1; d > 0; d >>= 1 {
		t.Barrier()
		if tid < d {
			ai := offset*(2*tid+1) - 1
			bi := offset*(2*tid+2) - 1
			temp[bi] += temp[ai]
		}
		offset *= 2
	}
	if tid == 0 {
		temp[511] = 0
	}
	for d := 1; d < 512; d *= 2 {
		offset >>= 1
		t.Barrier()
		if tid < d {
			ai := offset*(2*tid+1) - 1
			bi := offset*(2*tid+2) - 1
			v := temp[ai]
			temp[ai] = temp[bi]
			temp[bi] += v
		}
	}
	t.Barrier()
	if base+2*tid+1 < len(g) {
		g[base+2*tid] = temp[2*tid]
		g[base+2*tid+1] = temp[2*tid+1]
	}
}

// CfdStepFactor: Rodinia cfd compute_step_factor: an elementwise step
// from each cell's density, momentum and energy.
// verdict: clean
//
//gpu:kernel
func CfdStepFactor(t gpu.Thread, nelr int, density, mx, my, energy, areas, stepFactors []float32) {
	i := t.GlobalIdx().X
	if i >= nelr || i >= len(density) || i >= len(mx) || i >= len(my) || i >= len(energy) || i >= len(areas) || i >= len(stepFactors) {
		return
	}
	rho := density[i]
	vx, vy := mx[i]/rho, my[i]/rho
	speed2 := vx*vx + vy*vy
	pressure := 0.4 * (energy[i] - 0.5*rho*speed2)
	c2 := 1.4 * pressure / rho
	if c2 < 0 {
		c2 = 0
	}
	// a Newton step stands in for sqrt, keeping the kernel to float32 ops
	s := speed2 + c2 + 1
	for k := 0; k < 8; k++ {
		s = 0.5 * (s + (speed2+c2)/s)
	}
	stepFactors[i] = 0.5 / (areas[i] * s)
}

// ScaleFromParam: the same scale passed as a device slice.
// verdict: clean
//
//gpu:kernel
func ScaleFromParam(t gpu.Thread, x, scale3 []float32) {
	i := t.GlobalIdx().X
	if i < len(x) && len(scale3) == 3 {
		x[i] *= scale3[i%3]
	}
}

// KmeansReduceGuarded: the same reduction with out-of-range threads
// contributing zero instead of returning.
// verdict: clean
//
//gpu:kernel block=128
func KmeansReduceGuarded(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[128]float32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	var v float32
	if i < len(in) {
		v = in[i]
	}
	s[tid] = v
	t.Barrier()
	for st := 64; st > 0; st >>= 1 {
		if tid < st {
			s[tid] += s[tid+st]
		}
		t.Barrier()
	}
	if tid == 0 && t.BlockIdx().X < len(out) {
		out[t.BlockIdx().X] = s[0]
	}
}
