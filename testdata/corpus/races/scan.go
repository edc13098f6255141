package racecorpus

import "github.com/gpukvet/gpukvet/gpu"

// ScanHillisSteeleDouble is the naive inclusive scan of GPU Gems 3 ch. 39
// with double buffering: each step reads one half and writes the other.
// verdict: clean
//
//gpu:kernel block=256
func ScanHillisSteeleDouble(t gpu.Thread, in, out []float32) {
	temp := gpu.Shared[[512]float32](t)
	tid := t.ThreadIdx().X
	pout, pin := 0, 1
	temp[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for off := 1; off < 256; off *= 2 {
		pout = 1 - pout
		pin = 1 - pout
		if tid >= off {
			temp[pout*256+tid] = temp[pin*256+tid] + temp[pin*256+tid-off]
		} else {
			temp[pout*256+tid] = temp[pin*256+tid]
		}
		t.Barrier()
	}
	out[t.GlobalIdx().X] = temp[pout*256+tid]
}

// ScanHillisSteeleSingle scans in place in one buffer: a thread reads
// temp[tid-off] while its neighbour writes it in the same step.
// verdict: race
//
//gpu:kernel block=256
func ScanHillisSteeleSingle(t gpu.Thread, in, out []float32) {
	temp := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	temp[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for off := 1; off < 256; off *= 2 {
		if tid >= off {
			temp[tid] += temp[tid-off]
		}
		t.Barrier()
	}
	out[t.GlobalIdx().X] = temp[tid]
}

// ScanHillisSteeleSingleTwoBarriers reads into a register, waits, then
// writes: the single-buffer scan made correct.
// verdict: clean
//
//gpu:kernel block=256
func ScanHillisSteeleSingleTwoBarriers(t gpu.Thread, in, out []float32) {
	temp := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	temp[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for off := 1; off < 256; off *= 2 {
		var x float32
		if tid >= off {
			x = temp[tid-off]
		}
		t.Barrier()
		if tid >= off {
			temp[tid] += x
		}
		t.Barrier()
	}
	out[t.GlobalIdx().X] = temp[tid]
}

// ScanDoubleNoBarrier double-buffers but has no barrier per step, so the
// next step reads a half that neighbours are still writing.
// verdict: race
//
//gpu:kernel block=256
func ScanDoubleNoBarrier(t gpu.Thread, in, out []float32) {
	temp := gpu.Shared[[512]float32](t)
	tid := t.ThreadIdx().X
	pout, pin := 0, 1
	temp[tid] = in[t.GlobalIdx().X]
	t.Barrier()
	for off := 1; off < 256; off *= 2 {
		pout = 1 - pout
		pin = 1 - pout
		if tid >= off {
			temp[pout*256+tid] = temp[pin*256+tid] + temp[pin*256+tid-off]
		} else {
			temp[pout*256+tid] = temp[pin*256+tid]
		}
	}
	t.Barrier()
	out[t.GlobalIdx().X] = temp[pout*256+tid]
}

// ScanBlelloch is the work-efficient exclusive scan (GPU Gems 3 ch. 39,
// the SDK's scan): up-sweep and down-sweep over a tree with offsets.
// verdict: clean
//
//gpu:kernel block=128
func ScanBlelloch(t gpu.Thread, in, out []float32) {
	temp := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	base := t.BlockIdx().X * 256
	temp[2*tid] = in[base+2*tid]
	temp[2*tid+1] = in[base+2*tid+1]
	offset := 1
	for d := 128; d > 0; d >>= 1 {
		t.Barrier()
		if tid < d {
			ai := offset*(2*tid+1) - 1
			bi := offset*(2*tid+2) - 1
			temp[bi] += temp[ai]
		}
		offset *= 2
	}
	if tid == 0 {
		temp[255] = 0
	}
	for d := 1; d < 256; d *= 2 {
		offset >>= 1
		t.Barrier()
		if tid < d {
			ai := offset*(2*tid+1) - 1
			bi := offset*(2*tid+2) - 1
			x := temp[ai]
			temp[ai] = temp[bi]
			temp[bi] += x
		}
	}
	t.Barrier()
	out[base+2*tid] = temp[2*tid]
	out[base+2*tid+1] = temp[2*tid+1]
}

// ScanBlellochNoUpBarrier drops the barrier of the up-sweep.
// verdict: race
//
//gpu:kernel block=128
func ScanBlellochNoUpBarrier(t gpu.Thread, in, out []float32) {
	temp := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	base := t.BlockIdx().X * 256
	temp[2*tid] = in[base+2*tid]
	temp[2*tid+1] = in[base+2*tid+1]
	t.Barrier()
	offset := 1
	for d := 128; d > 0; d >>= 1 {
		if tid < d {
			ai := offset*(2*tid+1) - 1
			bi := offset*(2*tid+2) - 1
			temp[bi] += temp[ai]
		}
		offset *= 2
	}
	t.Barrier()
	out[base+2*tid] = temp[2*tid]
	out[base+2*tid+1] = temp[2*tid+1]
}

// ScanBlellochNoDownBarrier drops the barrier of the down-sweep: in step
// d=2 thread 1 swaps temp[255], which thread 0 wrote in step d=1.
// verdict: race
//
//gpu:kernel block=128
func ScanBlellochNoDownBarrier(t gpu.Thread, in, out []float32) {
	temp := gpu.Shared[[256]float32](t)
	tid := t.ThreadIdx().X
	base := t.BlockIdx().X * 256
	temp[2*tid] = in[base+2*tid]
	temp[2*tid+1] = in[base+2*tid+1]
	t.Barrier()
	if tid == 0 {
		temp[255] = 0
	}
	t.Barrier()
	offset := 256
	for d := 1; d < 256; d *= 2 {
		offset >>= 1
		if tid < d {
			ai := offset*(2*tid+1) - 1
			bi := offset*(2*tid+2) - 1
			x := temp[ai]
			temp[ai] = temp[bi]
			temp[bi] += x
		}
	}
	t.Barrier()
	out[base+2*tid] = temp[2*tid]
	out[base+2*tid+1] = temp[2*tid+1]
}
