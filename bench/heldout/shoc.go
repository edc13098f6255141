package heldout

import "github.com/gpukvet/gpukvet/gpu"

// SHOC (CUDA, level 1): reduction and md.

// reduceBlock is the block size SHOC's reduction is instantiated with.
const reduceBlock = 256

// Reduce is SHOC's reduce<float, 256>: each thread sums pairs of elements
// a grid apart into shared memory, then the block sums its 256 partial
// sums. SHOC does the last six steps warp-synchronously on a volatile
// array without barriers; Go has no warp-synchronous shared memory, so
// here every step ends with a barrier.
//
//gpu:kernel block=256
func Reduce(t gpu.Thread, in, out []float32) {
	sdata := gpu.Shared[[reduceBlock]float32](t)
	tid := t.ThreadIdx().X
	i := t.BlockIdx().X*(t.BlockDim().X*2) + tid
	gridSize := t.BlockDim().X * 2 * t.GridDim().X
	sdata[tid] = 0
	for i < len(in) {
		sdata[tid] += in[i] + in[i+reduceBlock]
		i += gridSize
	}
	t.Barrier()
	for s := reduceBlock / 2; s > 0; s >>= 1 {
		if tid < s {
			sdata[tid] += sdata[tid+s]
		}
		t.Barrier()
	}
	if tid == 0 {
		out[t.BlockIdx().X] = sdata[0]
	}
}

// MDForce is SHOC's compute_lj_force (no texture): the Lennard-Jones
// force on each atom from its neighCount neighbours (neighList holds
// neighbour j of atom i at j*inum+i), within the cut-off. Positions and
// forces are 4 floats per atom (SHOC's float4).
//
//gpu:kernel block=256
func MDForce(t gpu.Thread, force, position []float32, neighCount int, neighList []int32, cutsq, lj1, lj2 float32, inum int) {
	idx := t.GlobalIdx().X
	ix, iy, iz := position[4*idx], position[4*idx+1], position[4*idx+2]
	var fx, fy, fz float32
	for j := 0; j < neighCount; j++ {
		jidx := int(neighList[j*inum+idx])
		jx, jy, jz := position[4*jidx], position[4*jidx+1], position[4*jidx+2]
		delx, dely, delz := ix-jx, iy-jy, iz-jz
		r2inv := delx*delx + dely*dely + delz*delz
		// If the distance is within the cut-off, add the force.
		if r2inv < cutsq {
			r2inv = 1 / r2inv
			r6inv := r2inv * r2inv * r2inv
			forceC := r2inv * r6inv * (lj1*r6inv - lj2)
			fx += delx * forceC
			fy += dely * forceC
			fz += delz * forceC
		}
	}
	force[4*idx], force[4*idx+1], force[4*idx+2], force[4*idx+3] = fx, fy, fz, 0
}
