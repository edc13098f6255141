package vulkan

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
)

// envBarrierSemantics narrows the memory semantics of every barrier in
// the modules the backend loads, for measuring what the driver makes of
// them: GPUKVET_VK_BARRIER_SEMANTICS=workgroup leaves each OpControlBarrier
// ordering Workgroup (shared) memory only, without the UniformMemory the
// emitter gives it so that it also orders global memory reached through
// buffer addresses, as CUDA's __syncthreads does. For measurement only: a
// kernel whose threads communicate through global memory across a barrier
// (one thread writes an element, another reads it after the barrier) may
// then read a stale value, which Go's semantics (DIALECT.md) forbid;
// Info().Deviations says so while it is set. Applied when a module is
// loaded, so the same generated code is measured with and without it.
const envBarrierSemantics = "GPUKVET_VK_BARRIER_SEMANTICS"

// barrierClasses are the values of envBarrierSemantics, each with the
// storage classes of memory semantics it keeps.
var barrierClasses = map[string]uint32{"workgroup": semWorkgroupMemory}

// barrierKeep is the storage classes envBarrierSemantics keeps in every
// barrier's memory semantics, and whether it is set.
func barrierKeep() (uint32, bool, error) {
	v := os.Getenv(envBarrierSemantics)
	if v == "" {
		return 0, false, nil
	}
	keep, ok := barrierClasses[strings.TrimSpace(v)]
	if !ok {
		known := strings.Join(slices.Sorted(maps.Keys(barrierClasses)), ", ")
		return 0, false, fmt.Errorf("vulkan: %s=%q: no such barrier semantics (known: %s)", envBarrierSemantics, v, known)
	}
	return keep, true, nil
}

// barrierDeviation is the Info().Deviations entry while
// envBarrierSemantics is set.
func barrierDeviation() []string {
	if _, set, err := barrierKeep(); err != nil || !set {
		return nil
	}
	return []string{fmt.Sprintf("%s=%s: barriers order Workgroup (shared) memory only, so a kernel whose threads communicate through global memory across a barrier may read stale values (for measurement only)",
		envBarrierSemantics, os.Getenv(envBarrierSemantics))}
}
