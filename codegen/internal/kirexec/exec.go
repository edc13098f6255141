// Package kirexec interprets kernel IR on the CPU, with every memory access
// checked against the bounds of the buffer it points into. The codegen's
// tests use it to show that optimizations (bounds-check elimination above
// all) never let a kernel touch memory outside its buffers, and that they
// keep a kernel's traps and results; it follows the semantics the PTX
// emitter implements (Go's), not those of any one GPU.
package kirexec

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"sync"

	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/gpu/math32"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// Buffer is one allocation: device memory, a shared variable or a local.
type Buffer struct {
	Name string
	Data []byte
	// local marks a thread's local memory, which may hold pointers.
	local bool
}

// Arg is one entry-point parameter: a scalar's bits, a buffer (for a
// pointer), or the bytes of a struct.
type Arg struct {
	Bits  uint64
	Buf   *Buffer
	Bytes []byte
}

// Trap is the first trap of a run.
type Trap struct {
	Code          gpuabi.TrapCode
	Pos           int
	Block, Thread [3]int
}

// Fault is a memory access outside the buffer pointed into: what an
// unsound optimization would cause on a GPU.
type Fault struct{ Msg string }

func (f *Fault) Error() string { return f.Msg }

type ptr struct {
	buf *Buffer
	off int64
}

type val struct {
	bits uint64
	p    ptr
}

type run struct {
	f      *kir.Func
	args   []Arg
	grid   [3]int
	block  [3]int
	mu     sync.Mutex // atomics, the trap, the fault
	trap   *Trap
	fault  error
	budget int64
}

// Run executes f on a grid of blocks (blocks one after another, the threads
// of a block as goroutines with a real barrier). shared are the module's
// shared variables. It returns the first trap, or a *Fault, or an error
// when the step budget runs out (a kernel that does not end).
func Run(f *kir.Func, shared []kir.SharedVar, grid, block [3]int, args []Arg) (*Trap, error) {
	r := &run{f: f, args: args, grid: grid, block: block, budget: 50_000_000}
	for bz := 0; bz < grid[2]; bz++ {
		for by := 0; by < grid[1]; by++ {
			for bx := 0; bx < grid[0]; bx++ {
				r.runBlock([3]int{bx, by, bz}, shared)
				if r.fault != nil {
					return r.trap, r.fault
				}
			}
		}
	}
	return r.trap, nil
}

// barrier is a block-wide barrier that threads which ended no longer count
// towards, as on the GPU.
type barrier struct {
	mu      sync.Mutex
	cond    *sync.Cond
	live    int
	arrived int
	gen     int
}

func (b *barrier) wait() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.arrived++
	if b.arrived >= b.live {
		b.arrived = 0
		b.gen++
		b.cond.Broadcast()
		return
	}
	g := b.gen
	for g == b.gen {
		b.cond.Wait()
	}
}

func (b *barrier) leave() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.live--
	if b.arrived > 0 && b.arrived >= b.live {
		b.arrived = 0
		b.gen++
		b.cond.Broadcast()
	}
}

func (r *run) runBlock(bid [3]int, sharedVars []kir.SharedVar) {
	shared := make([]*Buffer, len(sharedVars))
	for i, s := range sharedVars {
		shared[i] = &Buffer{Name: "shared " + s.Name, Data: make([]byte, s.Size)}
	}
	n := r.block[0] * r.block[1] * r.block[2]
	bar := &barrier{live: n}
	bar.cond = sync.NewCond(&bar.mu)
	var wg sync.WaitGroup
	for tz := 0; tz < r.block[2]; tz++ {
		for ty := 0; ty < r.block[1]; ty++ {
			for tx := 0; tx < r.block[0]; tx++ {
				wg.Add(1)
				go func(tid [3]int) {
					defer wg.Done()
					defer bar.leave()
					t := &thread{r: r, bid: bid, tid: tid, shared: shared, bar: bar, vals: make([]val, r.f.NumValues()), locals: map[int]*Buffer{}, ptrs: map[ptrSlot]ptr{}}
					t.exec()
				}([3]int{tx, ty, tz})
			}
		}
	}
	wg.Wait()
}

// pollAfter is the interpreter's deadline: a thread's OpPoll reads a set
// stop word once it has run this many blocks, as if the host had set it,
// so a kernel that never ends traps with gpuabi.TrapDeadline where it
// polls (before the step limit of exec calls it a fault).
const pollAfter = 1_000_000

type thread struct {
	r        *run
	steps    int
	bid, tid [3]int
	shared   []*Buffer
	locals   map[int]*Buffer
	ptrs     map[ptrSlot]ptr // pointers stored in local memory (pointers.go)
	bar      *barrier
	vals     []val
}

func (t *thread) fail(format string, args ...any) {
	t.r.mu.Lock()
	if t.r.fault == nil {
		t.r.fault = &Fault{fmt.Sprintf("block %v thread %v: ", t.bid, t.tid) + fmt.Sprintf(format, args...)}
	}
	t.r.mu.Unlock()
}

func (t *thread) exec() {
	var prev *kir.Block
	b := t.r.f.Blocks[0]
	for ; ; t.steps++ {
		if t.steps > 5_000_000 {
			t.fail("no end after %d blocks", t.steps)
			return
		}
		// Phis read their values all at once, on entry.
		phis := b.Phis()
		if len(phis) > 0 {
			idx := -1
			for i, p := range b.Preds {
				if p == prev {
					idx = i
				}
			}
			in := make([]val, len(phis))
			for i, phi := range phis {
				in[i] = t.vals[phi.Args[idx].ID]
			}
			for i, phi := range phis {
				t.vals[phi.ID] = in[i]
			}
		}
		for _, v := range b.Values[len(phis):] {
			if !t.value(v) {
				return
			}
		}
		t.r.mu.Lock()
		faulted := t.r.fault != nil
		t.r.mu.Unlock()
		if faulted {
			return
		}
		switch b.Term {
		case kir.TermJump:
			prev, b = b, b.Succs[0]
		case kir.TermBranch:
			next := b.Succs[1]
			if t.vals[b.Cond.ID].bits&1 == 1 {
				next = b.Succs[0]
			}
			prev, b = b, next
		case kir.TermReturn:
			return
		case kir.TermTrap:
			t.r.mu.Lock()
			if t.r.trap == nil {
				t.r.trap = &Trap{Code: b.Trap.Code, Pos: b.Trap.Pos, Block: t.bid, Thread: t.tid}
			}
			t.r.mu.Unlock()
			return
		}
	}
}

// norm wraps x to kind k's width, sign- or zero-extended.
func norm(k kir.Kind, x uint64) uint64 {
	switch k {
	case kir.Bool:
		return x & 1
	case kir.I8:
		return uint64(int64(int8(x)))
	case kir.I16:
		return uint64(int64(int16(x)))
	case kir.I32:
		return uint64(int64(int32(x)))
	case kir.U8:
		return x & 0xFF
	case kir.U16:
		return x & 0xFFFF
	case kir.U32, kir.F32:
		return x & 0xFFFFFFFF
	}
	return x
}

func f32(x uint64) float64 { return float64(math.Float32frombits(uint32(x))) }
func f64(x uint64) float64 { return math.Float64frombits(x) }
func fbits(k kir.Kind, f float64) uint64 {
	if k == kir.F32 {
		return uint64(math.Float32bits(float32(f)))
	}
	return math.Float64bits(f)
}

func toFloat(k kir.Kind, x uint64) float64 {
	if k == kir.F32 {
		return f32(x)
	}
	return f64(x)
}

// value executes v; false ends the thread (a fault).
func (t *thread) value(v *kir.Value) bool {
	k := v.Type.Kind
	a := func(i int) uint64 { return t.vals[v.Args[i].ID].bits }
	set := func(x uint64) { t.vals[v.ID] = val{bits: norm(k, x)} }
	setf := func(f float64) { t.vals[v.ID] = val{bits: fbits(k, f)} }
	switch v.Op {
	case kir.OpConst:
		if k == kir.Ptr {
			t.vals[v.ID] = val{}
		} else {
			set(v.Imm)
		}
	case kir.OpParam:
		arg := t.r.args[v.Index]
		p := t.r.f.Params[v.Index]
		switch {
		case p.Bytes > 0:
			if int(v.Imm)+k.Size() > len(arg.Bytes) {
				t.fail("struct parameter read out of range")
				return false
			}
			x := readBits(arg.Bytes[v.Imm:], k)
			if k == kir.Bool {
				x = b2u(x != 0)
			}
			set(x)
		case k == kir.Ptr:
			t.vals[v.ID] = val{p: ptr{buf: arg.Buf}}
		default:
			set(arg.Bits)
		}
	case kir.OpSpecial:
		d := v.Index % 3
		switch v.Index / 3 {
		case 0:
			set(uint64(t.tid[d]))
		case 1:
			set(uint64(t.bid[d]))
		case 2:
			set(uint64(t.r.block[d]))
		default:
			set(uint64(t.r.grid[d]))
		}
	case kir.OpLocal:
		buf := t.locals[v.ID]
		if buf == nil {
			buf = &Buffer{Name: fmt.Sprintf("local v%d", v.ID), Data: make([]byte, v.Imm), local: true}
			t.locals[v.ID] = buf
		}
		t.vals[v.ID] = val{p: ptr{buf: buf}}
	case kir.OpShared:
		t.vals[v.ID] = val{p: ptr{buf: t.shared[v.Index]}}
	case kir.OpAdd, kir.OpSub, kir.OpMul, kir.OpDiv, kir.OpRem:
		if k.IsFloat() {
			x, y := toFloat(k, a(0)), toFloat(k, a(1))
			var r float64
			switch v.Op {
			case kir.OpAdd:
				r = x + y
			case kir.OpSub:
				r = x - y
			case kir.OpMul:
				r = x * y
			case kir.OpDiv:
				r = x / y
			}
			if k == kir.F32 {
				r = float64(float32(r))
			}
			setf(r)
			return true
		}
		x, y := a(0), a(1)
		switch v.Op {
		case kir.OpAdd:
			set(x + y)
		case kir.OpSub:
			set(x - y)
		case kir.OpMul:
			set(x * y)
		case kir.OpDiv, kir.OpRem:
			if norm(k, y) == 0 {
				t.fail("division by zero reached the hardware (no check before it)")
				return false
			}
			if k.IsSigned() {
				sx, sy := int64(x), int64(y)
				if sy == -1 {
					t.fail("signed division by -1 reached the hardware")
					return false
				}
				if v.Op == kir.OpDiv {
					set(uint64(sx / sy))
				} else {
					set(uint64(sx % sy))
				}
			} else if v.Op == kir.OpDiv {
				set(x / y)
			} else {
				set(x % y)
			}
		}
	case kir.OpAnd:
		set(a(0) & a(1))
	case kir.OpOr:
		set(a(0) | a(1))
	case kir.OpXor:
		set(a(0) ^ a(1))
	case kir.OpAndNot:
		set(a(0) &^ a(1))
	case kir.OpShl, kir.OpShr:
		x, c := a(0), a(1)
		w := uint64(k.Bits())
		switch {
		case v.Op == kir.OpShl:
			if c >= w {
				set(0)
			} else {
				set(x << c)
			}
		case k.IsSigned():
			set(uint64(int64(x) >> min(c, 63)))
		default:
			if c >= w {
				set(0)
			} else {
				set(norm(k, x) >> c)
			}
		}
	case kir.OpNeg:
		if k.IsFloat() {
			setf(-toFloat(k, a(0)))
		} else {
			set(-a(0))
		}
	case kir.OpNot:
		set(^a(0))
	case kir.OpFMA:
		if k == kir.F32 {
			setf(float64(math32.FMA(float32(f32(a(0))), float32(f32(a(1))), float32(f32(a(2)))))) // rounded once
		} else {
			setf(math.FMA(f64(a(0)), f64(a(1)), f64(a(2))))
		}
	case kir.OpMulHi:
		if w := k.Bits(); w < 64 {
			// The operands, sign- or zero-extended, multiply exactly in
			// 64 bits; the high half is the top w bits of 2w.
			p := norm(k, a(0)) * norm(k, a(1))
			if k.IsSigned() {
				set(uint64(int64(p) >> w))
			} else {
				set(p >> w)
			}
		} else if k.IsSigned() {
			hi, _ := bits.Mul64(a(0), a(1))
			// Signed correction of the unsigned high half.
			if int64(a(0)) < 0 {
				hi -= a(1)
			}
			if int64(a(1)) < 0 {
				hi -= a(0)
			}
			set(hi)
		} else {
			hi, _ := bits.Mul64(a(0), a(1))
			set(hi)
		}
	case kir.OpClz:
		w := v.Args[0].Type.Kind.Bits()
		set(uint64(bits.LeadingZeros64(norm(v.Args[0].Type.Kind.Unsigned(), a(0))) - (64 - w)))
	case kir.OpPopc:
		set(uint64(bits.OnesCount64(norm(v.Args[0].Type.Kind.Unsigned(), a(0)))))
	case kir.OpEq, kir.OpNe, kir.OpLt, kir.OpLe, kir.OpGt, kir.OpGe:
		set(b2u(t.compare(v)))
	case kir.OpConvert:
		t.convert(v)
	case kir.OpBitcast:
		set(a(0))
	case kir.OpSelect:
		if a(0)&1 == 1 {
			t.vals[v.ID] = t.vals[v.Args[1].ID]
		} else {
			t.vals[v.ID] = t.vals[v.Args[2].ID]
		}
	case kir.OpPtrAdd:
		p := t.vals[v.Args[0].ID].p
		t.vals[v.ID] = val{p: ptr{buf: p.buf, off: p.off + int64(a(1))}}
	case kir.OpLoad:
		p := t.vals[v.Args[0].ID].p
		size := memSize(k)
		if !t.check(p, size, "load") {
			return false
		}
		if k == kir.Ptr {
			x, ok := t.loadPtr(p)
			t.vals[v.ID] = val{p: x}
			return ok
		}
		x := readBits(p.buf.Data[p.off:], k)
		if k == kir.Bool {
			x = b2u(x != 0)
		}
		set(x)
	case kir.OpStore:
		p := t.vals[v.Args[0].ID].p
		x := v.Args[1]
		if x.Type.Kind == kir.Ptr {
			return t.storePtr(p, t.vals[x.ID].p)
		}
		if !t.check(p, memSize(x.Type.Kind), "store") {
			return false
		}
		t.overwrite(p, memSize(x.Type.Kind))
		writeBits(p.buf.Data[p.off:], x.Type.Kind, t.vals[x.ID].bits)
	case kir.OpAtomic:
		return t.atomic(v)
	case kir.OpBarrier:
		t.bar.wait()
	case kir.OpPoll:
		set(b2u(t.steps >= pollAfter))
	case kir.OpMath:
		t.math(v)
	default:
		t.fail("cannot interpret %v", v.Op)
		return false
	}
	return true
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func memSize(k kir.Kind) int {
	if k == kir.Bool {
		return 1
	}
	return k.Size()
}

func (t *thread) check(p ptr, size int, what string) bool {
	if p.buf == nil {
		t.fail("%s through a nil pointer", what)
		return false
	}
	if p.off < 0 || p.off+int64(size) > int64(len(p.buf.Data)) {
		t.fail("%s of %d bytes at offset %d of %s (%d bytes)", what, size, p.off, p.buf.Name, len(p.buf.Data))
		return false
	}
	return true
}

func readBits(b []byte, k kir.Kind) uint64 {
	switch memSize(k) {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func writeBits(b []byte, k kir.Kind, x uint64) {
	switch memSize(k) {
	case 1:
		b[0] = byte(x)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(x))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(x))
	default:
		binary.LittleEndian.PutUint64(b, x)
	}
}

func (t *thread) compare(v *kir.Value) bool {
	x, y := v.Args[0], v.Args[1]
	k := x.Type.Kind
	if k == kir.Ptr {
		px, py := t.vals[x.ID].p, t.vals[y.ID].p
		eq := px == py
		if v.Op == kir.OpEq {
			return eq
		}
		return !eq
	}
	xb, yb := t.vals[x.ID].bits, t.vals[y.ID].bits
	switch {
	case k.IsFloat():
		return compare(v.Op, toFloat(k, xb), toFloat(k, yb))
	case k.IsSigned():
		return compare(v.Op, int64(xb), int64(yb))
	}
	return compare(v.Op, norm(k, xb), norm(k, yb))
}

// compare applies comparison op with Go's operators, so that a float
// comparison with a NaN is false (and != true) as on the device.
func compare[T int64 | uint64 | float64](op kir.Op, x, y T) bool {
	switch op {
	case kir.OpEq:
		return x == y
	case kir.OpNe:
		return x != y
	case kir.OpLt:
		return x < y
	case kir.OpLe:
		return x <= y
	case kir.OpGt:
		return x > y
	}
	return x >= y
}

func (t *thread) convert(v *kir.Value) {
	x := v.Args[0]
	from, to := x.Type.Kind, v.Type.Kind
	xb := t.vals[x.ID].bits
	switch {
	case from == kir.Ptr:
		t.vals[v.ID] = t.vals[x.ID]
	case from.IsInt() && to.IsInt():
		t.vals[v.ID] = val{bits: norm(to, xb)}
	case from.IsInt() && to.IsFloat():
		var f float64
		if from.IsSigned() {
			f = float64(int64(xb))
			if to == kir.F32 {
				f = float64(float32(int64(xb)))
			}
		} else {
			f = float64(xb)
			if to == kir.F32 {
				f = float64(float32(xb))
			}
		}
		t.vals[v.ID] = val{bits: fbits(to, f)}
	case from.IsFloat() && to.IsInt():
		// Saturating, NaN to 0: what cvt.rzi does on the GPU.
		f := math.Trunc(toFloat(from, xb))
		lo, hi := float64(math.MinInt64), float64(math.MaxInt64)
		if !to.IsSigned() {
			lo, hi = 0, float64(math.MaxUint64)
		}
		if to.Bits() < 64 {
			if to.IsSigned() {
				lo, hi = -math.Ldexp(1, to.Bits()-1), math.Ldexp(1, to.Bits()-1)-1
			} else {
				hi = math.Ldexp(1, to.Bits()) - 1
			}
		}
		var r uint64
		switch {
		case math.IsNaN(f):
		case f <= lo && to.IsSigned():
			r = uint64(int64(lo))
		case f <= lo:
		case f >= hi && to.IsSigned():
			r = uint64(int64(hi))
		case f >= hi:
			r = uint64(hi)
			if to.Bits() == 64 {
				r = math.MaxUint64
			}
		case to.IsSigned():
			r = uint64(int64(f))
		default:
			r = uint64(f)
		}
		t.vals[v.ID] = val{bits: norm(to, r)}
	case from.IsFloat() && to.IsFloat():
		t.vals[v.ID] = val{bits: fbits(to, toFloat(from, xb))}
	}
}

func (t *thread) atomic(v *kir.Value) bool {
	k := v.Type.Kind
	p := t.vals[v.Args[0].ID].p
	if !t.check(p, k.Size(), "atomic") {
		return false
	}
	t.r.mu.Lock()
	defer t.r.mu.Unlock()
	mem := p.buf.Data[p.off:]
	old := norm(k, readBits(mem, k))
	x := t.vals[v.Args[1].ID].bits
	var nw uint64
	switch kir.AtomicOp(v.Index) {
	case kir.AtomicAdd:
		if k.IsFloat() {
			nw = fbits(k, toFloat(k, old)+toFloat(k, x))
		} else {
			nw = old + x
		}
	case kir.AtomicMin, kir.AtomicMax:
		less := int64(x) < int64(old)
		if !k.IsSigned() {
			less = norm(k, x) < old
		}
		if (kir.AtomicOp(v.Index) == kir.AtomicMin) == less && x != old {
			nw = x
		} else {
			nw = old
		}
	case kir.AtomicExchange:
		nw = x
	case kir.AtomicCAS:
		nw = old
		if old == norm(k, x) {
			nw = t.vals[v.Args[2].ID].bits
		}
	}
	writeBits(mem, k, nw)
	t.vals[v.ID] = val{bits: old}
	return true
}

func (t *thread) math(v *kir.Value) {
	k := v.Type.Kind
	arg := func(i int) float64 { x := v.Args[i]; return toFloat(x.Type.Kind, t.vals[x.ID].bits) }
	var r float64
	switch kir.MathFn(v.Index) {
	case kir.MathSqrt:
		r = math.Sqrt(arg(0))
	case kir.MathAbs:
		r = math.Abs(arg(0))
	case kir.MathFloor:
		r = math.Floor(arg(0))
	case kir.MathCeil:
		r = math.Ceil(arg(0))
	case kir.MathTrunc:
		r = math.Trunc(arg(0))
	case kir.MathRound:
		r = math.Round(arg(0))
	case kir.MathCopysign:
		r = math.Copysign(arg(0), arg(1))
	case kir.MathMin:
		r = min(arg(0), arg(1))
	case kir.MathMax:
		r = max(arg(0), arg(1))
	case kir.MathSignbit:
		t.vals[v.ID] = val{bits: b2u(math.Signbit(arg(0)))}
		return
	default:
		t.fail("cannot interpret math %v", kir.MathFn(v.Index))
		return
	}
	if k == kir.F32 {
		r = float64(float32(r))
	}
	t.vals[v.ID] = val{bits: fbits(k, r)}
}
