package cpuexec

import "sync/atomic"

// floatAdds is the observer of float atomic additions, nil when there is
// none: package device sets one while validation runs a launch on the
// cpu backend, to learn how many terms each float reached and how large
// they were, so that it can bound how far a reordered sum may differ.
var floatAdds atomic.Pointer[func(addr uintptr, old, v float64)]

// FloatAdded is called by gpu.AtomicAdd on a float32 or float64 after it
// added v to the float at address addr, which held old. It costs one load
// when nobody observes. The address is a uintptr, compared and never
// dereferenced, so that it does not make the float escape to the heap (a
// pointer would: an atomic on a local float would allocate it).
func FloatAdded(addr uintptr, old, v float64) {
	if f := floatAdds.Load(); f != nil {
		(*f)(addr, old, v)
	}
}

// ObserveFloatAdds makes f the observer of float atomic additions (nil:
// none). f must be safe to call from many goroutines at once.
func ObserveFloatAdds(f func(addr uintptr, old, v float64)) {
	if f == nil {
		floatAdds.Store(nil)
		return
	}
	floatAdds.Store(&f)
}
