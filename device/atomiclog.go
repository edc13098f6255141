package device

import (
	"math"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gpukvet/gpukvet/internal/cpuexec"
)

// Float atomics under validation.
//
// Threads that add to one float with gpu.AtomicAdd add in an order no
// backend fixes, and float addition is not associative: a correct kernel
// gives sums that differ by rounding from run to run and from the GPU to
// the cpu backend. Validation therefore learns, while the cpu backend runs
// the launch, which elements of which buffers received float atomic
// additions, how many (n) and how large (the sum of |v| over the terms,
// and the largest |old| seen, which bounds |initial|). For such an
// element the device's value may differ from the cpu backend's by
//
//	2 · γ(n+ulps) · S,   γ(k) = k·u / (1 − k·u),   S = |initial| + Σ|v|,
//
// where u is the unit roundoff (2^-24 for float32, 2^-53 for float64):
// each order's sum lies within γ(n)·S of the exact one (Higham, Accuracy
// and Stability of Numerical Algorithms, 2nd ed., §4.2, recursive
// summation with n+1 operands), so two orders lie within twice that; the
// validation's own ULP bound widens it by that many roundings more, for
// terms that the device computed a few ULPs apart. S uses max|old| in
// place of |initial| (it is at least |initial|, and at most S), so the
// bound is sound and at most twice as loose. Elements no float atomic
// touched are compared as before.
//
// This knows what the cpu backend's run did, so it covers every kernel,
// with or without generated code, and atomics reached through device
// functions; it does not cover a value that a kernel derives from a float
// atomic's result and then stores (a block's partial sum in shared
// memory written out by one thread): those are compared with the ULP
// bound only.

// atomicLog records the float atomic additions into one buffer, in words
// of 4 bytes (a float64 is counted at its first word).
type atomicLog struct {
	base, end uintptr
	once      sync.Once
	count     []uint32 // additions per word
	sumAbs    []uint64 // float64 bits of Σ|v| per word
	maxOld    []uint64 // float64 bits of max |old| per word
}

// atomicLogs are the buffers whose float atomics are being recorded, an
// immutable slice replaced as a whole, so that the observer, which every
// float atomic of the process calls, reads it without a lock.
var (
	atomicLogsMu sync.Mutex
	atomicLogs   atomic.Pointer[[]*atomicLog]
)

// recordFloatAtomics starts recording the float atomic additions into the
// given cpu buffers (slices), and returns their logs (nil for a buffer
// without floats) and the function that stops recording.
func recordFloatAtomics(bufs []reflect.Value) ([]*atomicLog, func()) {
	logs := make([]*atomicLog, len(bufs))
	var mine []*atomicLog
	for i, b := range bufs {
		if !b.IsValid() || b.Len() == 0 || !hasFloat(b.Type().Elem()) {
			continue
		}
		base := uintptr(b.UnsafePointer())
		logs[i] = &atomicLog{base: base, end: base + uintptr(b.Len())*b.Type().Elem().Size()}
		mine = append(mine, logs[i])
	}
	if len(mine) == 0 {
		return logs, func() {}
	}
	atomicLogsMu.Lock()
	defer atomicLogsMu.Unlock()
	old := atomicLogs.Load()
	var next []*atomicLog
	if old != nil {
		next = append(next, *old...)
	}
	next = append(next, mine...)
	atomicLogs.Store(&next)
	cpuexec.ObserveFloatAdds(noteFloatAdd)
	return logs, func() { stopRecording(mine) }
}

// stopRecording removes logs from the recorded ones.
func stopRecording(logs []*atomicLog) {
	atomicLogsMu.Lock()
	defer atomicLogsMu.Unlock()
	var next []*atomicLog
	for _, l := range *atomicLogs.Load() {
		if !slices.Contains(logs, l) {
			next = append(next, l)
		}
	}
	if len(next) == 0 {
		cpuexec.ObserveFloatAdds(nil)
		atomicLogs.Store(nil)
		return
	}
	atomicLogs.Store(&next)
}

// hasFloat reports whether elements of type t hold a float.
func hasFloat(t reflect.Type) bool {
	return slices.ContainsFunc(scalarFields(t, 0, "", nil), scalarField.isFloat)
}

// noteFloatAdd is the observer: it records an addition into a recorded
// buffer and ignores every other.
func noteFloatAdd(a uintptr, old, v float64) {
	p := atomicLogs.Load()
	if p == nil {
		return
	}
	for _, l := range *p {
		if a >= l.base && a < l.end {
			l.note(int((a-l.base)/4), old, v)
			return
		}
	}
}

func (l *atomicLog) note(w int, old, v float64) {
	l.once.Do(func() {
		words := int(l.end-l.base+3) / 4
		l.count = make([]uint32, words)
		l.sumAbs = make([]uint64, words)
		l.maxOld = make([]uint64, words)
	})
	atomic.AddUint32(&l.count[w], 1)
	addFloat(&l.sumAbs[w], math.Abs(v))
	maxFloat(&l.maxOld[w], math.Abs(old))
}

func addFloat(p *uint64, x float64) {
	for {
		o := atomic.LoadUint64(p)
		if atomic.CompareAndSwapUint64(p, o, math.Float64bits(math.Float64frombits(o)+x)) {
			return
		}
	}
}

func maxFloat(p *uint64, x float64) {
	for {
		o := atomic.LoadUint64(p)
		if !(x > math.Float64frombits(o)) || atomic.CompareAndSwapUint64(p, o, math.Float64bits(x)) {
			return
		}
	}
}

// reorderBound is how far the float at byte offset off of the buffer may
// differ between two orders of its atomic additions, with ulps extra
// roundings (see above); 0 when no float atomic reached it.
func (l *atomicLog) reorderBound(off uintptr, single bool, ulps uint64) float64 {
	if l == nil || l.count == nil {
		return 0
	}
	w := off / 4
	n := atomic.LoadUint32(&l.count[w])
	if n == 0 {
		return 0
	}
	u := 0x1p-53
	if single {
		u = 0x1p-24
	}
	k := (float64(n) + float64(ulps)) * u
	if k >= 0.5 {
		return math.Inf(1) // more terms than the precision can bound
	}
	s := math.Float64frombits(l.sumAbs[w]) + math.Float64frombits(l.maxOld[w])
	return 2 * k / (1 - k) * s
}
