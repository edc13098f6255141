package tickets

import "github.com/gpukvet/gpukvet/gpu"

// ---- per-thread tickets plus a block base claimed with the count ----
//
// Stream compaction and worklist pushes: each kept element takes a ticket
// from a block counter, the leader claims the block's range of the output
// with one global add of the count, and every thread writes at base +
// ticket. Each clean kernel has a racy twin whose claim or whose writes
// leave the block's range.

// Separate count and base cells (LonestarGPU's and Gunrock's block-
// aggregated push).
//
//gpu:kernel block=256
func CountedTickets(t gpu.Thread, out, total, in []int32) {
	count := gpu.Shared[[1]int32](t)
	base := gpu.Shared[[1]int32](t)
	tx := t.ThreadIdx().X
	if tx == 0 {
		count[0] = 0
	}
	t.Barrier()
	i := t.GlobalIdx().X
	keep := i < len(in) && in[i] > 0
	var ticket int32
	if keep {
		ticket = gpu.AtomicAdd(&count[0], 1)
	}
	t.Barrier()
	if tx == 0 {
		base[0] = gpu.AtomicAdd(&total[0], count[0])
	}
	t.Barrier()
	if keep {
		out[base[0]+ticket] = in[i]
	}
}

// Two cells per kept element, claimed one per element.
//
//gpu:kernel block=256
func CountedTicketsPairs(t gpu.Thread, out, total, in []int32) {
	count := gpu.Shared[[1]int32](t)
	base := gpu.Shared[[1]int32](t)
	tx := t.ThreadIdx().X
	if tx == 0 {
		count[0] = 0
	}
	t.Barrier()
	i := t.GlobalIdx().X
	keep := i < len(in) && in[i] > 0
	var ticket int32
	if keep {
		ticket = gpu.AtomicAdd(&count[0], 1)
	}
	t.Barrier()
	if tx == 0 {
		base[0] = gpu.AtomicAdd(&total[0], count[0])
	}
	t.Barrier()
	if keep {
		out[2*(base[0]+ticket)] = in[i]
		out[2*(base[0]+ticket)+1] = in[i]
	}
}

//gpu:kernel block=256
func CountedTicketsDoubleStride(t gpu.Thread, out, total, in []int32) {
	count := gpu.Shared[[1]int32](t)
	base := gpu.Shared[[1]int32](t)
	tx := t.ThreadIdx().X
	if tx == 0 {
		count[0] = 0
	}
	t.Barrier()
	i := t.GlobalIdx().X
	keep := i < len(in) && in[i] > 0
	var ticket int32
	if keep {
		ticket = gpu.AtomicAdd(&count[0], 1)
	}
	t.Barrier()
	if tx == 0 {
		base[0] = gpu.AtomicAdd(&total[0], count[0])
	}
	t.Barrier()
	if keep {
		out[base[0]+2*ticket] = in[i] // want `data race on global out`
	}
}

//gpu:kernel block=256
func CountedTicketsShortClaim(t gpu.Thread, out, total, in []int32) {
	count := gpu.Shared[[1]int32](t)
	base := gpu.Shared[[1]int32](t)
	tx := t.ThreadIdx().X
	if tx == 0 {
		count[0] = 0
	}
	t.Barrier()
	i := t.GlobalIdx().X
	keep := i < len(in) && in[i] > 0
	var ticket int32
	if keep {
		ticket = gpu.AtomicAdd(&count[0], 1)
	}
	t.Barrier()
	if tx == 0 {
		base[0] = gpu.AtomicAdd(&total[0], count[0]-1)
	}
	t.Barrier()
	if keep {
		out[base[0]+ticket] = in[i] // want `data race on global out`
	}
}

// The count's cell reused for the base (a filter with a block counter):
// the leader replaces the count with the claimed base.
//
//gpu:kernel
func CountedTicketsReuse(t gpu.Thread, dst, total, src []int32) {
	ln := gpu.Shared[[1]int32](t)
	if t.ThreadIdx().X == 0 {
		ln[0] = 0
	}
	t.Barrier()
	i := t.GlobalIdx().X
	var d, pos int32
	if i < len(src) {
		d = src[i]
		if d > 0 {
			pos = gpu.AtomicAdd(&ln[0], 1)
		}
	}
	t.Barrier()
	if t.ThreadIdx().X == 0 {
		ln[0] = gpu.AtomicAdd(&total[0], ln[0])
	}
	t.Barrier()
	if i < len(src) && d > 0 {
		dst[pos+ln[0]] = d
	}
}

// Without the reset, the count starts from whatever the cell held.
//
//gpu:kernel
func CountedTicketsReuseNoReset(t gpu.Thread, dst, total, src []int32) {
	ln := gpu.Shared[[1]int32](t)
	i := t.GlobalIdx().X
	var d, pos int32
	if i < len(src) {
		d = src[i]
		if d > 0 {
			pos = gpu.AtomicAdd(&ln[0], 1)
		}
	}
	t.Barrier()
	if t.ThreadIdx().X == 0 {
		ln[0] = gpu.AtomicAdd(&total[0], ln[0])
	}
	t.Barrier()
	if i < len(src) && d > 0 {
		dst[pos+ln[0]] = d // want `data race on global dst`
	}
}

// The claim under a test that can fail in every block (an empty total):
// the base is never stored, the cell is undefined, and blocks' first
// tickets meet.
//
//gpu:kernel block=256
func CountedTicketsGuardedClaim(t gpu.Thread, out, total, in []int32) {
	count := gpu.Shared[[1]int32](t)
	base := gpu.Shared[[1]int32](t)
	tx := t.ThreadIdx().X
	if tx == 0 {
		count[0] = 0
	}
	t.Barrier()
	i := t.GlobalIdx().X
	keep := i < len(in) && in[i] > 0
	var ticket int32
	if keep {
		ticket = gpu.AtomicAdd(&count[0], 1)
	}
	t.Barrier()
	if tx == 0 && len(total) > 0 {
		base[0] = gpu.AtomicAdd(&total[0], count[0])
	}
	t.Barrier()
	if keep {
		out[base[0]+ticket] = in[i] // want `data race on global out`
	}
}
