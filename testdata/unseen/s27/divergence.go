package s27

import "github.com/gpukvet/gpukvet/gpu"

// KmeansReduceEarlyReturn: a Rodinia-kmeans-style block reduction whose
// out-of-range threads return before the reduction's barriers.
// verdict: divergent
//
//gpu:kernel block=128
func KmeansReduceEarlyReturn(t gpu.Thread, in, out []float32) {
	s := gpu.Shared[[128]float32](t)
	tid := t.ThreadIdx().X
	i := t.GlobalIdx().X
	if i >= len(in) {
		return
	}
	s[tid] = in[i]
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

// LudPerimeterDiag: Rodinia lud_perimeter's shape: threads of the first
// half load a diagonal tile row, the others a column, and only the first
// half waits at the barrier inside its branch.
// verdict: divergent
//
//gpu:kernel block=32
func LudPerimeterDiag(t gpu.Thread, m []float32, offset int) {
	dia := gpu.Shared[[16]float32](t)
	tid := t.ThreadIdx().X
	if tid < 16 {
		if offset+tid < len(m) {
			dia[tid] = m[offset+tid]
		}
		t.Barrier()
		if offset+tid < len(m) {
			m[offset+tid] = dia[15-tid]
		}
	}
}
