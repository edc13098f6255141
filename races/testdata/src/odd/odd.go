// Package odd holds unusual kernels the races check must handle without
// crashing or hanging: recursion, pointer phis, struct fields, whole-array
// copies, device functions with several returns, switches and gotos.
package odd

import "github.com/gpukvet/gpukvet/gpu"

type pair struct {
	a, b float32
}

func recurse(t gpu.Thread, sh *[256]float32, n int) {
	if n > 0 {
		sh[t.ThreadIdx().X] = float32(n)
		recurse(t, sh, n-1)
	}
}

//gpu:kernel block=256
func Recursion(t gpu.Thread, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	recurse(t, sh, 3)
	t.Barrier()
	out[t.GlobalIdx().X] = sh[t.ThreadIdx().X]
}

//gpu:kernel block=256
func StructFields(t gpu.Thread, out []float32) {
	sh := gpu.Shared[[256]pair](t)
	i := t.ThreadIdx().X
	sh[i].a = 1
	sh[i].b = 2
	t.Barrier()
	out[t.GlobalIdx().X] = sh[255-i].a + sh[i].b
}

//gpu:kernel block=256
func StructFieldsRace(t gpu.Thread, out []float32) {
	sh := gpu.Shared[[256]pair](t)
	i := t.ThreadIdx().X
	sh[i].a = 1
	out[t.GlobalIdx().X] = sh[255-i].a // want `data race on shared sh`
}

//gpu:kernel block=256
func WholeArrayCopy(t gpu.Thread, out []float32) {
	sh := gpu.Shared[[4]float32](t)
	if t.ThreadIdx().X == 0 {
		sh[1] = 3
	}
	t.Barrier()
	local := *sh
	out[t.GlobalIdx().X] = local[1]
}

//gpu:kernel block=256
func PointerPhi(t gpu.Thread, out []float32) {
	a := gpu.Shared[[256]float32](t)
	b := gpu.Shared[[256]float32](t)
	p := a
	if t.BlockIdx().X > 0 {
		p = b
	}
	p[t.ThreadIdx().X] = 1
	t.Barrier()
	out[t.GlobalIdx().X] = p[t.ThreadIdx().X]
}

func pick(i, n int) int {
	switch {
	case i < 0:
		return 0
	case i >= n:
		return n - 1
	}
	return i
}

//gpu:kernel block=256
func MultiReturn(t gpu.Thread, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	i := pick(t.ThreadIdx().X, 256)
	sh[i] = 1
	t.Barrier()
	out[t.GlobalIdx().X] = sh[min(i+1, 255)]
}

//gpu:kernel block=256
func Goto(t gpu.Thread, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	i := t.ThreadIdx().X
	k := 0
loop:
	sh[i] += float32(k)
	k++
	if k < 3 {
		goto loop
	}
	t.Barrier()
	out[t.GlobalIdx().X] = sh[255-i]
}

//gpu:kernel block=256
func HugeConstants(t gpu.Thread, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	i := t.ThreadIdx().X
	j := (i*1000000007*1000000007 + 4611686018427387903) & 255
	sh[j] = 1 // want `possible data race on shared sh`
	t.Barrier()
	out[t.GlobalIdx().X] = sh[i]
}

func deep1(t gpu.Thread, sh *[256]float32) { deep2(t, sh); deep2(t, sh) }
func deep2(t gpu.Thread, sh *[256]float32) { deep3(t, sh); deep3(t, sh) }
func deep3(t gpu.Thread, sh *[256]float32) { deep4(t, sh); deep4(t, sh) }
func deep4(t gpu.Thread, sh *[256]float32) {
	sh[t.ThreadIdx().X] += 1
	t.Barrier()
}

//gpu:kernel block=256
func DeepCalls(t gpu.Thread, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	deep1(t, sh)
	out[t.GlobalIdx().X] = sh[255-t.ThreadIdx().X]
}

// GridStrideFreeBlock is race-free with any block shape: the product bound
// BlockIdx·BlockDim + BlockDim ≤ GridDim·BlockDim keeps blocks apart.
//
//gpu:kernel
func GridStrideFreeBlock(t gpu.Thread, in, out []float32, n int) {
	for i := t.GlobalIdx().X; i < n; i += t.BlockDim().X * t.GridDim().X {
		out[i] = in[i] * 2
	}
}

// TwoDNoGuard races when the grid is wider than w: nothing keeps g.X < w.
//
//gpu:kernel
func TwoDNoGuard(t gpu.Thread, w int, out []int32) {
	g := t.GlobalIdx()
	out[g.Y*w+g.X] = int32(g.X + g.Y) // want `data race on global out: thread \(0,1\) and thread \(1,0\) both write out\[1\]`
}

//gpu:kernel
func TwoDGuard(t gpu.Thread, w int, out []int32) {
	g := t.GlobalIdx()
	if g.X < w {
		out[g.Y*w+g.X] = int32(g.X + g.Y)
	}
}

// flat3 takes a Dim3 by value and keeps another in a local variable.
func flat3(t gpu.Thread, g gpu.Dim3) int {
	d := t.GridDim()
	b := t.BlockDim()
	return (g.Z*d.Y*b.Y+g.Y)*d.X*b.X + g.X
}

// ThreeDFlat is race-free, but proving it needs the product of four free
// extents to bound the z term: a known false positive (with block= fixed
// it is proven).
//
//gpu:kernel
func ThreeDFlat(t gpu.Thread, out []int32) {
	g := t.GlobalIdx()
	out[flat3(t, g)] = 1 // want `possible data race on global out`
}

func store[T int32 | float32](t gpu.Thread, p *[256]T, i int, v T) {
	p[i] = v
}

func peek[T int32 | float32](t gpu.Thread, p *[256]T, i int) T {
	return p[i]
}

//gpu:kernel block=256
func GenericDeviceRace(t gpu.Thread, out []float32) {
	sh := gpu.Shared[[256]float32](t)
	i := t.ThreadIdx().X
	store(t, sh, i, 1)
	out[t.GlobalIdx().X] = peek(t, sh, 255-i) // want `data race on shared sh: thread 255 writes sh\[255\] \(line 172 in store\) while thread 0 reads sh\[255\] \(line 176 in peek\)`
}

//gpu:kernel block=256
func GenericDeviceClean(t gpu.Thread, out []int32) {
	sh := gpu.Shared[[256]int32](t)
	i := t.ThreadIdx().X
	store(t, sh, i, 1)
	t.Barrier()
	out[t.GlobalIdx().X] = peek(t, sh, 255-i)
}
