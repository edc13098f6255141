package kir

// ReadOnlyLoads finds the loads of f that may go through the GPU's
// non-coherent (read-only) data cache, what `const T* __restrict__` gives
// nvcc: loads from global memory whose address derives only from pointer
// parameters that f never writes through (no store or atomic whose
// address may derive from them). It returns those loads and the parameter
// slots they read, in order.
//
// The answer holds only for launches in which no buffer the kernel writes
// overlaps one of those parameters' buffers: the kernel cannot see
// through its parameters that another parameter's buffer changed, but the
// non-coherent cache would return stale data if it had. A runtime that
// knows the buffers at launch picks the variant compiled with it only
// then. An address whose origin is not a parameter (none in the dialect
// today) written through makes every parameter count as written.
func ReadOnlyLoads(f *Func) (loads map[*Value]bool, slots []int) {
	memo := map[*Value][]int{}
	unknown := map[*Value]bool{}
	written := map[int]bool{}
	everything := false
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if (v.Op != OpStore && v.Op != OpAtomic) || !global(v.Args[0]) {
				continue
			}
			ps, ok := paramOrigins(v.Args[0], memo, unknown)
			if !ok {
				everything = true
			}
			for _, p := range ps {
				written[p] = true
			}
		}
	}
	if everything {
		return nil, nil
	}
	loads = map[*Value]bool{}
	read := map[int]bool{}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Op != OpLoad || !global(v.Args[0]) {
				continue
			}
			ps, ok := paramOrigins(v.Args[0], memo, unknown)
			if !ok || len(ps) == 0 {
				continue
			}
			ro := true
			for _, p := range ps {
				if written[p] {
					ro = false
				}
			}
			if ro {
				loads[v] = true
				for _, p := range ps {
					read[p] = true
				}
			}
		}
	}
	for i := range f.Params {
		if read[i] {
			slots = append(slots, i)
		}
	}
	return loads, slots
}

func global(p *Value) bool { return p.Type.Kind == Ptr && p.Type.Space == Global }

// paramOrigins returns the parameter slots pointer p may derive from
// (through pointer additions, phis and selects), or ok false when it may
// derive from something else.
func paramOrigins(p *Value, memo map[*Value][]int, unknown map[*Value]bool) (slots []int, ok bool) {
	if s, done := memo[p]; done {
		return s, !unknown[p]
	}
	seen := map[*Value]bool{}
	set := map[int]bool{}
	bad := false
	work := []*Value{p}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[v] {
			continue
		}
		seen[v] = true
		switch v.Op {
		case OpParam:
			if v.Type.Kind != Ptr {
				bad = true
			}
			set[v.Index] = true
		case OpPtrAdd:
			work = append(work, v.Args[0])
		case OpPhi:
			work = append(work, v.Args...)
		case OpSelect:
			work = append(work, v.Args[1], v.Args[2])
		default:
			bad = true
		}
	}
	for s := range set {
		slots = append(slots, s)
	}
	memo[p] = slots
	unknown[p] = bad
	return slots, !bad
}
