package heldout

import (
	"math/rand/v2"

	th "github.com/gpukvet/gpukvet/bench/internal/twinharness"
)

// blocks is the number of blocks of b threads that cover n.
func blocks(n, b int) int { return (n + b - 1) / b }

// cases returns every pair; big selects the timing sizes, otherwise sizes
// the cpu backend checks in seconds.
func cases(big bool) []th.Case {
	r := rand.New(rand.NewPCG(22, 2))
	pick := func(small, large int) int {
		if big {
			return large
		}
		return small
	}
	var out []th.Case
	add := func(cs ...th.Case) { out = append(out, cs...) }
	add(polybenchCases(r, pick)...)
	add(samplesCases(r, pick)...)
	add(rodiniaCases(r, pick)...)
	add(parboilCases(r, pick)...)
	add(shocCases(r, pick)...)
	add(outsideCases(r, pick)...)
	return out
}

type picker func(small, large int) int

func polybenchCases(r *rand.Rand, pick picker) []th.Case {
	nm, nv, ns := pick(64, 1024), pick(256, 4096), pick(128, 4096)
	d2 := func(n int) th.Case { return th.Case{Grid: th.Dim(n/32, n/8, 1), Block: th.Dim(32, 8, 1)} }
	d1 := th.Case{Grid: th.Dim(blocks(nv, 256), 1, 1), Block: th.Dim(256, 1, 1)}
	rf := func(n int) []float32 { return th.RandF32(r, n) }
	with := func(shape th.Case, c th.Case) th.Case { c.Grid, c.Block = shape.Grid, shape.Block; return c }
	return []th.Case{
		with(d2(nm), th.Case{Name: "Gemm", Fn: Gemm, Args: []any{nm, nm, nm, float32(1.5), float32(1.2), rf(nm * nm), rf(nm * nm), rf(nm * nm)},
			Twin: []any{int64(nm), int64(nm), int64(nm), float32(1.5), float32(1.2), th.Ref(5), th.Ref(6), th.Ref(7)}, Outs: []int{7}, Tol: 1e-4}),
		with(d1, th.Case{Name: "Atax1", Fn: Atax1, Args: []any{nv, nv, rf(nv * nv), rf(nv), make([]float32, nv)},
			Twin: []any{int64(nv), int64(nv), th.Ref(2), th.Ref(3), th.Ref(4)}, Outs: []int{4}, Tol: 1e-4}),
		with(d1, th.Case{Name: "Atax2", Fn: Atax2, Args: []any{nv, nv, rf(nv * nv), make([]float32, nv), rf(nv)},
			Twin: []any{int64(nv), int64(nv), th.Ref(2), th.Ref(3), th.Ref(4)}, Outs: []int{3}, Tol: 1e-4}),
		with(d1, th.Case{Name: "Bicg1", Fn: Bicg1, Args: []any{nv, nv, rf(nv * nv), rf(nv), make([]float32, nv)},
			Twin: []any{int64(nv), int64(nv), th.Ref(2), th.Ref(3), th.Ref(4)}, Outs: []int{4}, Tol: 1e-4}),
		with(d1, th.Case{Name: "Bicg2", Fn: Bicg2, Args: []any{nv, nv, rf(nv * nv), rf(nv), make([]float32, nv)},
			Twin: []any{int64(nv), int64(nv), th.Ref(2), th.Ref(3), th.Ref(4)}, Outs: []int{4}, Tol: 1e-4}),
		with(d1, th.Case{Name: "Gesummv", Fn: Gesummv, Args: []any{nv, float32(1.5), float32(1.2), rf(nv * nv), rf(nv * nv), make([]float32, nv), rf(nv), make([]float32, nv)},
			Twin: []any{int64(nv), float32(1.5), float32(1.2), th.Ref(3), th.Ref(4), th.Ref(5), th.Ref(6), th.Ref(7)}, Outs: []int{5, 7}, Tol: 1e-4}),
		with(d1, th.Case{Name: "Mvt1", Fn: Mvt1, Args: []any{nv, rf(nv * nv), rf(nv), rf(nv)},
			Twin: []any{int64(nv), th.Ref(1), th.Ref(2), th.Ref(3)}, Outs: []int{2}, Tol: 1e-4}),
		with(d2(ns), th.Case{Name: "Jacobi2D", Fn: Jacobi2D, Args: []any{ns, rf(ns * ns), make([]float32, ns*ns)},
			Twin: []any{int64(ns), th.Ref(1), th.Ref(2)}, Outs: []int{2}, Tol: 1e-5}),
		with(d2(ns), th.Case{Name: "Conv2D", Fn: Conv2D, Args: []any{ns, ns, rf(ns * ns), make([]float32, ns*ns)},
			Twin: []any{int64(ns), int64(ns), th.Ref(2), th.Ref(3)}, Outs: []int{3}, Tol: 1e-5}),
	}
}

func samplesCases(r *rand.Rand, pick picker) []th.Case {
	w, h := pick(128, 8192), pick(64, 8192) // the small size is not square: TransposeDiagonal's other branch
	cw, ch := pick(256, 4096), pick(64, 4096)
	kern := th.RandF32(r, kernelLength)
	return []th.Case{
		{Name: "TransposeCoalesced", Fn: TransposeCoalesced, Args: []any{make([]float32, w*h), th.RandF32(r, w*h), w, h},
			Twin: []any{th.Ref(0), th.Ref(1), int64(w), int64(h)}, Grid: th.Dim(w/32, h/32, 1), Block: th.Dim(32, 8, 1), Outs: []int{0}},
		{Name: "TransposeDiagonal", Fn: TransposeDiagonal, Args: []any{make([]float32, w*h), th.RandF32(r, w*h), w, h},
			Twin: []any{th.Ref(0), th.Ref(1), int64(w), int64(h)}, Grid: th.Dim(w/32, h/32, 1), Block: th.Dim(32, 8, 1), Outs: []int{0}},
		{Name: "ConvolutionRows", Fn: ConvolutionRows, Args: []any{make([]float32, cw*ch), th.RandF32(r, cw*ch), kern, cw, ch, cw},
			Twin: []any{th.Ref(0), th.Ref(1), th.Ref(2), int64(cw), int64(ch), int64(cw)}, Grid: th.Dim(cw/128, ch/4, 1), Block: th.Dim(16, 4, 1), Outs: []int{0}, Tol: 1e-5},
		{Name: "ConvolutionColumns", Fn: ConvolutionColumns, Args: []any{make([]float32, cw*ch), th.RandF32(r, cw*ch), kern, cw, ch, cw},
			Twin: []any{th.Ref(0), th.Ref(1), th.Ref(2), int64(cw), int64(ch), int64(cw)}, Grid: th.Dim(cw/16, ch/64, 1), Block: th.Dim(16, 8, 1), Outs: []int{0}, Tol: 1e-5},
	}
}

// hotspotParams returns Rodinia hotspot's Cap, Rx, Ry, Rz and step for a
// rows×cols grid on its 16 mm chip.
func hotspotParams(rows, cols int) (capacitance, rx, ry, rz, step float32) {
	const (
		tChip, chipHeight, chipWidth = 0.0005, 0.016, 0.016
		factorChip, specHeatSI, kSI  = 0.5, 1.75e6, 100
		maxPD, precision             = 3.0e6, 0.001
	)
	gh, gw := chipHeight/float64(rows), chipWidth/float64(cols)
	maxSlope := maxPD / (factorChip * tChip * specHeatSI)
	return float32(factorChip * specHeatSI * tChip * gw * gh), float32(gw / (2 * kSI * tChip * gh)),
		float32(gh / (2 * kSI * tChip * gw)), float32(tChip / (kSI * gh * gw)), float32(precision / maxSlope)
}

func rodiniaCases(r *rand.Rand, pick picker) []th.Case {
	hs, it := pick(64, 4096), 2
	temp, power := make([]float32, hs*hs), make([]float32, hs*hs)
	for i := range temp {
		temp[i], power[i] = 320+10*r.Float32(), 1e-3*r.Float32()
	}
	capac, rx, ry, rz, step := hotspotParams(hs, hs)
	hb := blocks(hs, hotspotBlock-2*it)
	ld, off := pick(64, 4096), pick(16, 0)
	lg := (ld-off)/ludBlock - 1
	hid, in := 16, pick(256, 1<<19)
	return []th.Case{
		{Name: "Hotspot", Fn: Hotspot, Args: []any{it, power, temp, make([]float32, hs*hs), hs, hs, it, it, capac, rx, ry, rz, step},
			Twin: []any{int64(it), th.Ref(1), th.Ref(2), th.Ref(3), int64(hs), int64(hs), int64(it), int64(it), capac, rx, ry, rz, step},
			Grid: th.Dim(hb, hb, 1), Block: th.Dim(16, 16, 1), Outs: []int{3}, Tol: 1e-5},
		{Name: "LudInternal", Fn: LudInternal, Args: []any{th.RandF32(r, ld*ld), ld, off},
			Twin: []any{th.Ref(0), int64(ld), int64(off)}, Grid: th.Dim(lg, lg, 1), Block: th.Dim(16, 16, 1), Outs: []int{0}, Tol: 1e-5},
		{Name: "AdjustWeights", Fn: AdjustWeights, Args: []any{th.RandF32(r, hid+1), hid, th.RandF32(r, in+1), in, th.RandF32(r, (in+1)*(hid+1)), th.RandF32(r, (in+1)*(hid+1))},
			Twin: []any{th.Ref(0), int64(hid), th.Ref(2), int64(in), th.Ref(4), th.Ref(5)}, Grid: th.Dim(1, in/bpHeight, 1), Block: th.Dim(16, 16, 1), Outs: []int{4, 5}, Tol: 1e-5},
	}
}

// jds builds a dim×dim sparse matrix of 1..maxNNZ entries per row in
// Parboil's jagged diagonal storage: rows sorted by length (perm), entry k
// of sorted row ix at jdsPtr[k]+ix, zcnt the longest row of each 32.
func jds(r *rand.Rand, dim, maxNNZ int) (data []float32, index, perm, jdsPtr, zcnt []int32) {
	nnz := make([]int, dim)
	for i := range nnz {
		nnz[i] = 1 + r.IntN(maxNNZ)
	}
	perm = make([]int32, dim)
	for i := range perm {
		perm[i] = int32(i)
	}
	// Longest rows first (insertion by counting, stable).
	byLen := make([][]int32, maxNNZ+1)
	for i, n := range nnz {
		byLen[n] = append(byLen[n], int32(i))
	}
	perm = perm[:0]
	for n := maxNNZ; n >= 1; n-- {
		perm = append(perm, byLen[n]...)
	}
	data, index = make([]float32, dim*maxNNZ), make([]int32, dim*maxNNZ)
	jdsPtr = make([]int32, maxNNZ)
	for k := range jdsPtr {
		jdsPtr[k] = int32(k * dim)
	}
	for ix, row := range perm {
		for k := range nnz[row] {
			data[k*dim+ix] = r.Float32()*2 - 1
			index[k*dim+ix] = int32(r.IntN(dim))
		}
	}
	zcnt = make([]int32, blocks(dim, 32))
	for ix, row := range perm {
		zcnt[ix/32] = max(zcnt[ix/32], int32(nnz[row]))
	}
	return data, index, perm, jdsPtr, zcnt
}

func parboilCases(r *rand.Rand, pick picker) []th.Case {
	mn := pick(128, 2048)
	dim, maxNNZ := pick(4096, 1<<18), pick(32, 48)
	data, index, perm, jdsPtr, zcnt := jds(r, dim, maxNNZ)
	return []th.Case{
		{Name: "Sgemm", Fn: Sgemm, Args: []any{th.RandF32(r, mn*mn), mn, th.RandF32(r, mn*mn), mn, th.RandF32(r, mn*mn), mn, mn, float32(1.5), float32(1.2)},
			Twin: []any{th.Ref(0), int64(mn), th.Ref(2), int64(mn), th.Ref(4), int64(mn), int64(mn), float32(1.5), float32(1.2)},
			Grid: th.Dim(mn/tileM, mn/tileN, 1), Block: th.Dim(16, 8, 1), Outs: []int{4}, Tol: 1e-4},
		{Name: "SpmvJDS", Fn: SpmvJDS, Args: []any{make([]float32, dim), data, index, perm, th.RandF32(r, dim), dim, jdsPtr, zcnt},
			Twin: []any{th.Ref(0), th.Ref(1), th.Ref(2), th.Ref(3), th.Ref(4), int64(dim), th.Ref(6), th.Ref(7)},
			Grid: th.Dim(blocks(dim, 256), 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{0}, Tol: 1e-5},
	}
}

// mdSystem places side³ atoms on a jittered unit lattice (4 floats each)
// and gives each the same neighCount lattice offsets within 3 cells,
// wrapped at the box's edges.
func mdSystem(r *rand.Rand, side, neighCount int) (position []float32, neighList []int32) {
	inum := side * side * side
	position = make([]float32, 4*inum)
	for i := range inum {
		x, y, z := i%side, i/side%side, i/(side*side)
		for d, c := range []int{x, y, z} {
			position[4*i+d] = float32(c) + 0.4*(r.Float32()-0.5)
		}
	}
	var offs [][3]int
	for _, p := range r.Perm(7 * 7 * 7) {
		o := [3]int{p%7 - 3, p/7%7 - 3, p/49 - 3}
		if o != [3]int{} && len(offs) < neighCount {
			offs = append(offs, o)
		}
	}
	neighList = make([]int32, neighCount*inum)
	wrap := func(c int) int { return (c + side) % side }
	for i := range inum {
		x, y, z := i%side, i/side%side, i/(side*side)
		for j, o := range offs {
			neighList[j*inum+i] = int32(wrap(x+o[0]) + wrap(y+o[1])*side + wrap(z+o[2])*side*side)
		}
	}
	return position, neighList
}

func shocCases(r *rand.Rand, pick picker) []th.Case {
	n := pick(1<<16, 1<<24)
	side, neigh := pick(16, 48), 128
	inum := side * side * side
	position, neighList := mdSystem(r, side, neigh)
	return []th.Case{
		{Name: "Reduce", Fn: Reduce, Args: []any{th.RandF32(r, n), make([]float32, 64)},
			Twin: []any{th.Ref(0), th.Ref(1), th.LenOf(0)}, Grid: th.Dim(64, 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{1}, Tol: 1e-4},
		{Name: "MDForce", Fn: MDForce, Args: []any{make([]float32, 4*inum), position, neigh, neighList, float32(16), float32(1.5), float32(2), inum},
			Twin: []any{th.Ref(0), th.Ref(1), int64(neigh), th.Ref(3), float32(16), float32(1.5), float32(2), int64(inum)},
			Grid: th.Dim(inum/256, 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{0}, Tol: 1e-3},
	}
}

func outsideCases(r *rand.Rand, pick picker) []th.Case {
	n, mm, cols := pick(1<<16, 1<<24), pick(128, 4096), pick(10000, 1<<22)
	wall, src := make([]int32, cols), make([]int32, cols)
	for i := range wall {
		wall[i], src[i] = int32(r.IntN(10)), int32(r.IntN(1000))
	}
	return []th.Case{
		{Name: "Dot", Fn: Dot, Args: []any{th.RandF32(r, n), th.RandF32(r, n), make([]float32, 256)},
			Twin: []any{th.Ref(0), th.Ref(1), th.Ref(2), th.LenOf(0)}, Grid: th.Dim(256, 1, 1), Block: th.Dim(1024, 1, 1), Outs: []int{2}, Tol: 1e-4},
		{Name: "MatMul32", Fn: MatMul32, Args: []any{mm, th.RandF32(r, mm*mm), th.RandF32(r, mm*mm), make([]float32, mm*mm)},
			Twin: []any{int64(mm), th.Ref(1), th.Ref(2), th.Ref(3)}, Grid: th.Dim(mm/32, mm/32, 1), Block: th.Dim(32, 32, 1), Outs: []int{3}, Tol: 1e-4},
		{Name: "Reduce3", Fn: Reduce3, Args: []any{th.RandF32(r, n), make([]float32, n/512)},
			Twin: []any{th.Ref(0), th.Ref(1), th.LenOf(0)}, Grid: th.Dim(n/512, 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{1}, Tol: 1e-4},
		{Name: "PathRow", Fn: PathRow, Args: []any{cols, wall, src, make([]int32, cols)},
			Twin: []any{int64(cols), th.Ref(1), th.Ref(2), th.Ref(3)}, Grid: th.Dim(blocks(cols, 256), 1, 1), Block: th.Dim(256, 1, 1), Outs: []int{3}},
	}
}
