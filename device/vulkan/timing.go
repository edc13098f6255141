package vulkan

import (
	"errors"
	"fmt"
	"time"
	"unsafe"
)

// maxTimed is the number of dispatches one Time call can time: its
// timestamp query pool holds two queries per dispatch.
const maxTimed = 1024

// ErrNoTimestamps is Time's error on a device whose compute queue family
// writes no timestamps (timestampValidBits is 0).
var ErrNoTimestamps = errors.New("vulkan: the device's compute queue has no timestamp support (timestampValidBits = 0)")

// Timing is the GPU time of the dispatches that one Time call ran, read
// from timestamps the GPU wrote before and after each dispatch
// (vkCmdWriteTimestamp at the bottom of the pipe: the first when all
// earlier work has finished, the second when the dispatch has), scaled by
// the device's timestampPeriod.
type Timing struct {
	// Span is from the first dispatch's first timestamp to the last
	// one's second: the dispatches and the gaps between them, what CUDA
	// events around the same launches measure.
	Span time.Duration
	// Kernels is each dispatch's own time, in launch order.
	Kernels []time.Duration
}

// Total is the sum of Kernels: the time the GPU spent in the dispatches,
// without the gaps between them.
func (t Timing) Total() time.Duration {
	var s time.Duration
	for _, k := range t.Kernels {
		s += k
	}
	return s
}

// timer is Time's state: its query pool (created on first use), whether
// a Time call runs, and the number of dispatches it has given timestamps.
type timer struct {
	pool vkHandle
	on   bool
	n    int // dispatches timed in this call, including any past maxTimed
}

// Time runs f, which launches kernels on b, with timestamps written on the
// GPU around each dispatch it launches, waits for the GPU, and returns
// their times. It returns ErrNoTimestamps where the device cannot time,
// and an error when f launches more than 1024 kernels. Benchmarks use it,
// as they use device/cuda's Time with CUDA events.
func (b *Backend) Time(f func() error) (Timing, error) {
	if b.closed {
		return Timing{}, errors.New("vulkan: the device is closed")
	}
	if b.tsBits == 0 {
		return Timing{}, ErrNoTimestamps
	}
	if b.timer.on {
		return Timing{}, errors.New("vulkan: Time called inside Time")
	}
	if b.timer.pool == 0 {
		ci := &queryPoolCreateInfo{sType: stQueryPoolCreateInfo, queryType: queryTypeTimestamp, queryCount: 2 * maxTimed}
		if err := call("vkCreateQueryPool", b.l.createQueryPool, uintptr(b.dev), uintptr(unsafe.Pointer(ci)), 0, uintptr(unsafe.Pointer(&b.timer.pool))); err != nil {
			return Timing{}, fmt.Errorf("vulkan: %w", err)
		}
	}
	b.timer.on, b.timer.n = true, 0
	err := f()
	b.timer.on = false
	if err != nil {
		return Timing{}, err
	}
	if b.timer.n > maxTimed {
		return Timing{}, fmt.Errorf("vulkan: Time: %d dispatches, more than the %d one call can time", b.timer.n, maxTimed)
	}
	if err := b.waitIdle(); err != nil {
		return Timing{}, fmt.Errorf("vulkan: %w", err)
	}
	return b.readTimestamps(b.timer.n)
}

// stampDispatch records a timestamp (after resetting the two queries of
// this dispatch) when a Time call runs, and returns the index of the
// dispatch's second query, or -1 when it is not timed.
func (b *Backend) stampDispatch(cb vkCommandBuffer) int {
	if !b.timer.on {
		return -1
	}
	i := b.timer.n
	b.timer.n++
	if i >= maxTimed {
		return -1
	}
	void(b.l.cmdResetQueryPool, uintptr(cb), uintptr(b.timer.pool), uintptr(2*i), 2)
	void(b.l.cmdWriteTimestamp, uintptr(cb), pipeBottomOfPipe, uintptr(b.timer.pool), uintptr(2*i))
	return 2*i + 1
}

// stampDone records the timestamp after a dispatch stampDispatch timed.
func (b *Backend) stampDone(cb vkCommandBuffer, query int) {
	if query >= 0 {
		void(b.l.cmdWriteTimestamp, uintptr(cb), pipeBottomOfPipe, uintptr(b.timer.pool), uintptr(query))
	}
}

// readTimestamps reads the 2n timestamps of n timed dispatches, which
// have finished: without waiting for them, since a launch that failed to
// submit after its dispatch was counted never writes its timestamps.
func (b *Backend) readTimestamps(n int) (Timing, error) {
	if n == 0 {
		return Timing{}, nil
	}
	ts := make([]uint64, 2*n)
	r, err := callResult("vkGetQueryPoolResults", b.l.getQueryPoolResults, uintptr(b.dev), uintptr(b.timer.pool), 0, uintptr(2*n),
		uintptr(8*len(ts)), uintptr(unsafe.Pointer(&ts[0])), 8, queryResult64)
	if err != nil {
		return Timing{}, fmt.Errorf("vulkan: reading timestamps: %w", err)
	}
	if r == vkNotReady {
		return Timing{}, errors.New("vulkan: Time: a timed launch did not run (its timestamps were never written)")
	}
	t := Timing{Span: b.ticks(ts[0], ts[2*n-1])}
	for i := range n {
		t.Kernels = append(t.Kernels, b.ticks(ts[2*i], ts[2*i+1]))
	}
	return t, nil
}

// ticks is the time from timestamp start to timestamp end: the difference
// in the counter's valid bits (it may wrap) times timestampPeriod
// nanoseconds.
func (b *Backend) ticks(start, end uint64) time.Duration {
	mask := ^uint64(0)
	if b.tsBits < 64 {
		mask = 1<<b.tsBits - 1
	}
	return time.Duration(float64((end-start)&mask) * float64(b.props.limits.timestampPeriod))
}
