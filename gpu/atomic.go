package gpu

import (
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/gpukvet/gpukvet/internal/cpuexec"
)

// AtomicAdd atomically adds v to *addr and returns the old value.
func AtomicAdd[T int32 | uint32 | int64 | uint64 | float32 | float64](addr *T, v T) T {
	switch p := any(addr).(type) {
	case *int32:
		return T(atomic.AddInt32(p, int32(v)) - int32(v))
	case *uint32:
		return T(atomic.AddUint32(p, uint32(v)) - uint32(v))
	case *int64:
		return T(atomic.AddInt64(p, int64(v)) - int64(v))
	case *uint64:
		return T(atomic.AddUint64(p, uint64(v)) - uint64(v))
	case *float32:
		old := rmw32(p, func(old float32) float32 { return old + float32(v) })
		cpuexec.FloatAdded(uintptr(unsafe.Pointer(p)), float64(old), float64(v))
		return T(old)
	case *float64:
		old := rmw64(p, func(old float64) float64 { return old + float64(v) })
		cpuexec.FloatAdded(uintptr(unsafe.Pointer(p)), old, float64(v))
		return T(old)
	}
	panic("unreachable")
}

// AtomicMin atomically stores min(*addr, v) in *addr and returns the old value.
func AtomicMin[T int32 | uint32 | int64 | uint64](addr *T, v T) T {
	return minMax(addr, v, func(old, v T) bool { return v < old })
}

// AtomicMax atomically stores max(*addr, v) in *addr and returns the old value.
func AtomicMax[T int32 | uint32 | int64 | uint64](addr *T, v T) T {
	return minMax(addr, v, func(old, v T) bool { return v > old })
}

func minMax[T int32 | uint32 | int64 | uint64](addr *T, v T, better func(old, v T) bool) T {
	for {
		old := AtomicAdd(addr, 0)
		if !better(old, v) || AtomicCompareAndSwap(addr, old, v) == old {
			return old
		}
	}
}

// AtomicExchange atomically stores v in *addr and returns the old value.
func AtomicExchange[T int32 | uint32 | int64 | uint64 | float32 | float64](addr *T, v T) T {
	switch p := any(addr).(type) {
	case *int32:
		return T(atomic.SwapInt32(p, int32(v)))
	case *uint32:
		return T(atomic.SwapUint32(p, uint32(v)))
	case *int64:
		return T(atomic.SwapInt64(p, int64(v)))
	case *uint64:
		return T(atomic.SwapUint64(p, uint64(v)))
	case *float32:
		return T(math.Float32frombits(atomic.SwapUint32((*uint32)(unsafe.Pointer(p)), math.Float32bits(float32(v)))))
	case *float64:
		return T(math.Float64frombits(atomic.SwapUint64((*uint64)(unsafe.Pointer(p)), math.Float64bits(float64(v)))))
	}
	panic("unreachable")
}

// AtomicCompareAndSwap atomically stores new in *addr if *addr == old, and
// returns the value *addr held before.
func AtomicCompareAndSwap[T int32 | uint32 | int64 | uint64](addr *T, old, new T) T {
	for {
		var cur T
		var swapped bool
		switch p := any(addr).(type) {
		case *int32:
			cur = T(atomic.LoadInt32(p))
			swapped = cur == old && atomic.CompareAndSwapInt32(p, int32(old), int32(new))
		case *uint32:
			cur = T(atomic.LoadUint32(p))
			swapped = cur == old && atomic.CompareAndSwapUint32(p, uint32(old), uint32(new))
		case *int64:
			cur = T(atomic.LoadInt64(p))
			swapped = cur == old && atomic.CompareAndSwapInt64(p, int64(old), int64(new))
		case *uint64:
			cur = T(atomic.LoadUint64(p))
			swapped = cur == old && atomic.CompareAndSwapUint64(p, uint64(old), uint64(new))
		}
		// A failed swap after a matching load means another thread changed
		// *addr in between: retry so that the returned value is the one the
		// swap was decided on, as a hardware CAS would return.
		if cur != old || swapped {
			return cur
		}
	}
}

func rmw32(p *float32, f func(float32) float32) float32 {
	u := (*uint32)(unsafe.Pointer(p))
	for {
		oldBits := atomic.LoadUint32(u)
		old := math.Float32frombits(oldBits)
		if atomic.CompareAndSwapUint32(u, oldBits, math.Float32bits(f(old))) {
			return old
		}
	}
}

func rmw64(p *float64, f func(float64) float64) float64 {
	u := (*uint64)(unsafe.Pointer(p))
	for {
		oldBits := atomic.LoadUint64(u)
		old := math.Float64frombits(oldBits)
		if atomic.CompareAndSwapUint64(u, oldBits, math.Float64bits(f(old))) {
			return old
		}
	}
}
