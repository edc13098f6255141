package replay

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A machine runs one kernel for one launch: its global memory, the shared
// memory of the block it runs, and the instruction budget left to its
// Runner.
type machine struct {
	fn     *ssa.Function
	launch Launch
	params []value               // the kernel's arguments (the gpu.Thread first)
	shared map[token.Pos]*object // the running block's Shared variables
	budget *int
	mem    int // the scalars its objects hold, at most maxLeaves (alloc)
	// Scratch space reused across instructions (the interpreter does not
	// recurse: a call pushes a frame).
	phiVals, args []value
	dims          [5]value // BlockDim's and GridDim's Dim3 (thread.index), made once
	frames        *frames  // the numbering of values and the frames to reuse, the Runner's

	ran    map[[3]int]bool     // the blocks run
	err    error               // why the run could not go on, once it could not
	events map[siteKey][]event // every access to shared and global memory
	traps  map[Thread]trap     // why threads stopped early
	paths  map[pathKey]int     // interned call paths (pathOf)
}

// A pathKey is a call path: the path of the caller's frame and the call.
type pathKey struct {
	parent int
	call   *ssa.Call
}

// A thread is one thread of the running block: its stack of frames, its
// barrier phase, and whether it waits at a barrier or is done.
type thread struct {
	idx, block [3]int
	stack      []*frame
	root       *frame // the kernel's frame, the first of stack
	phase      int
	waiting    bool
	done       bool
	indices    [5]value // the Dim3 of each index method, once asked (index)
}

// A frame is one call: the function, the values of its SSA values, and
// where it is.
type frame struct {
	fn    *ssa.Function
	vals  *values
	env   []value // by the values' numbers
	has   []bool  // which values env holds
	block *ssa.BasicBlock
	pc    int
	call  *ssa.Call // the call in the caller; nil for the kernel
	path  int       // the interned path of calls to the frame; 0 for the kernel
	// The instruction being executed: its operands and the number of the
	// value it defines (values.code).
	cur *instrCode
}

func (th *thread) id() Thread { return Thread{th.idx, th.block} }

// The values of a function are numbered once per machine, so that a
// frame holds them in a slice: frames are made per thread and per call,
// and maps made as often were most of the interpreter's time. Each
// instruction's operands are numbered too (code), so that reading one
// costs no lookup in index.
type values struct {
	index map[ssa.Value]int
	code  [][]instrCode // by block index, then instruction index
}

// instrCode is an instruction as the interpreter reads it: the number of
// the value it defines (−1: none) and its operands, in Operands' order.
type instrCode struct {
	dst int
	ops []operand
}

// An operand is a value an instruction reads: a numbered value (slot ≥ 0),
// a scalar constant computed once (slot −1: val and err), or anything
// else, which get looks up by the value itself (slot −2).
type operand struct {
	v    ssa.Value
	slot int
	val  value
	err  error
}

// frames is what the machines of one Runner share about frames: the
// numbering of each function's values, and the frames that returned or
// whose block finished, to reuse. A block makes a frame per thread and
// per call, and allocating each anew made most of a replay's garbage.
// The threads of the last block run are reused too (events and traps
// name a thread by its indices, not by its record).
type frames struct {
	funcs   map[*ssa.Function]*values
	free    map[*ssa.Function][]*frame
	threads []thread
	ptrs    []*thread
}

func newFrames() *frames {
	return &frames{funcs: map[*ssa.Function]*values{}, free: map[*ssa.Function][]*frame{}}
}

// valuesOf returns the numbering of fn's parameters and values.
func (m *machine) valuesOf(fn *ssa.Function) *values {
	if v, ok := m.frames.funcs[fn]; ok {
		return v
	}
	v := &values{index: map[ssa.Value]int{}}
	for _, p := range fn.Params {
		v.index[p] = len(v.index)
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if x, ok := in.(ssa.Value); ok {
				v.index[x] = len(v.index)
			}
		}
	}
	v.code = make([][]instrCode, len(fn.Blocks))
	var rands []*ssa.Value
	for _, b := range fn.Blocks {
		v.code[b.Index] = make([]instrCode, len(b.Instrs))
		for i, in := range b.Instrs {
			ic := &v.code[b.Index][i]
			ic.dst = -1
			if x, ok := in.(ssa.Value); ok {
				ic.dst = v.index[x]
			}
			rands = in.Operands(rands[:0])
			ic.ops = make([]operand, len(rands))
			for j, r := range rands {
				ic.ops[j] = v.operand(*r)
			}
		}
	}
	m.frames.funcs[fn] = v
	return v
}

// operand numbers x, an operand of one of the function's instructions.
func (v *values) operand(x ssa.Value) operand {
	if i, ok := v.index[x]; ok && x != nil {
		return operand{v: x, slot: i}
	}
	// A scalar constant: its value once (an aggregate's zero value is
	// made at each read, as get does).
	if c, ok := x.(*ssa.Const); ok && c.Value != nil {
		val, err := constValue(c.Value, c.Type())
		return operand{v: x, slot: -1, val: val, err: err}
	}
	return operand{v: x, slot: -2}
}

// newFrame returns a frame at the start of fn, made by call (nil for the
// kernel's) from a frame of call path parent.
func (m *machine) newFrame(fn *ssa.Function, call *ssa.Call, parent int) *frame {
	var fr *frame
	if free := m.frames.free[fn]; len(free) > 0 {
		fr = free[len(free)-1]
		m.frames.free[fn] = free[:len(free)-1]
		clear(fr.env)
		clear(fr.has)
		fr.pc, fr.path = 0, 0
	} else {
		vals := m.valuesOf(fn)
		fr = &frame{fn: fn, vals: vals, env: make([]value, len(vals.index)), has: make([]bool, len(vals.index))}
	}
	fr.block, fr.call = fn.Blocks[0], call
	if call != nil {
		fr.path = m.intern(parent, call)
	}
	return fr
}

// release gives back frame fr, which nothing uses any more, for
// newFrame to reuse.
func (m *machine) release(fr *frame) {
	m.frames.free[fr.fn] = append(m.frames.free[fr.fn], fr)
}

// set gives value v of fr's function the run-time value x.
func (fr *frame) set(v ssa.Value, x value) {
	fr.setSlot(fr.vals.index[v], x)
}

// setSlot gives the value numbered i the run-time value x.
func (fr *frame) setSlot(i int, x value) {
	fr.env[i], fr.has[i] = x, true
}

// errBudget ends a replay that ran out of instructions.
var errBudget = errors.New("the replay ran out of its instruction budget")

// alloc returns an object of n scalars for what names, or an error once the
// run's objects would hold more than maxLeaves scalars: a kernel may declare
// shared or local arrays, and a launch slices, far larger than a replay
// should hold in memory.
func (m *machine) alloc(n int, what string) (*object, error) {
	if n > maxLeaves-m.mem {
		return nil, fmt.Errorf("the memory of %s is too large to replay", what)
	}
	m.mem += n
	return newObject(n), nil
}

// newMachine allocates the launch's global memory and arguments.
func newMachine(fn *ssa.Function, l Launch, budget *int, fs *frames) (*machine, error) {
	m := &machine{fn: fn, launch: l, budget: budget, frames: fs, ran: map[[3]int]bool{},
		events: map[siteKey][]event{}, traps: map[Thread]trap{}, paths: map[pathKey]int{}}
	for i, p := range fn.Params {
		var v value
		switch t := p.Type().Underlying().(type) {
		case *types.Slice:
			n := l.Lens[i]
			if n < 0 || n > maxLeaves {
				return nil, fmt.Errorf("the launch's slices are too large to replay (%d elements of %s)", n, p.Name())
			}
			obj, err := m.alloc(n*leaves(t.Elem()), p.Name())
			if err != nil {
				return nil, err
			}
			fill(obj, t.Elem(), l.Data)
			obj.id, obj.named, obj.typ, obj.sliceLen = Object{Param: i}, true, p.Type(), n
			v = value{obj: obj, ln: n, cp: n}
		case *types.Basic:
			if t.Info()&types.IsInteger != 0 {
				v = value{n: wrap(l.Ints[i], t)}
			}
		default:
			v = zero(p.Type())
		}
		m.params = append(m.params, v)
	}
	return m, nil
}

// run runs block b, unless it ran already; it returns why the run could
// not go on, for this block or an earlier one.
func (m *machine) run(b [3]int) error {
	if m.err != nil || m.ran[b] {
		return m.err
	}
	m.ran[b] = true
	m.err = m.runBlock(b)
	return m.err
}

// pathOf returns the interned path of calls; ok is false when no frame
// was ever reached through it.
func (m *machine) pathOf(calls []*ssa.Call) (int, bool) {
	path := 0
	for _, c := range calls {
		p, ok := m.paths[pathKey{path, c}]
		if !ok {
			return 0, false
		}
		path = p
	}
	return path, true
}

// intern returns the path of a frame that call, in a frame of path
// parent, creates.
func (m *machine) intern(parent int, call *ssa.Call) int {
	key := pathKey{parent, call}
	p, ok := m.paths[key]
	if !ok {
		p = len(m.paths) + 1
		m.paths[key] = p
	}
	return p
}

// note records an access of th, at its top frame's current instruction,
// to leaves [lo, hi) of obj, if obj is shared or global memory.
func (m *machine) note(th *thread, obj *object, lo, hi int) {
	if !obj.named {
		return
	}
	top := th.stack[len(th.stack)-1]
	key := siteKey{top.block.Instrs[top.pc-1], top.path}
	m.events[key] = append(m.events[key], event{th.id(), obj, lo, hi, th.phase})
}

// runBlock runs every thread of block b, a phase at a time.
func (m *machine) runBlock(b [3]int) error {
	m.shared = map[token.Pos]*object{}
	bd := m.launch.Block
	n := bd[0] * bd[1] * bd[2]
	if n <= 0 || n > 1<<12 {
		return fmt.Errorf("block of %v threads", bd)
	}
	if cap(m.frames.threads) < n {
		m.frames.threads, m.frames.ptrs = make([]thread, n), make([]*thread, 0, n)
	}
	mem := m.frames.threads[:n]
	threads := m.frames.ptrs[:0]
	for z := 0; z < bd[2]; z++ {
		for y := 0; y < bd[1]; y++ {
			for x := 0; x < bd[0]; x++ {
				th := &mem[len(threads)]
				stack := th.stack[:0]
				*th = thread{idx: [3]int{x, y, z}, block: b}
				fr := m.newFrame(m.fn, nil, 0)
				for i := range m.fn.Params {
					fr.setSlot(i, m.params[i]) // parameters are numbered first
				}
				th.stack, th.root = append(stack, fr), fr
				threads = append(threads, th)
			}
		}
	}
	// Once the block has run (or stopped), its frames are dead: events
	// and traps name threads, not frames. (A thread that returned left
	// its kernel frame off its stack.)
	defer func() {
		for _, th := range threads {
			for _, fr := range th.stack {
				if fr != th.root {
					m.release(fr)
				}
			}
			m.release(th.root)
		}
	}()
	for {
		live := 0
		for _, th := range threads {
			if th.done {
				continue
			}
			if err := m.runThread(th); err != nil {
				return err
			}
			if !th.done {
				live++
			}
		}
		if live == 0 {
			return nil
		}
		// Every thread left waits at a barrier: it opens.
		for _, th := range threads {
			if !th.done {
				th.waiting = false
				th.phase++
			}
		}
	}
}

// runThread runs th until it waits at a barrier, returns or stops.
func (m *machine) runThread(th *thread) error {
	for !th.done && !th.waiting {
		if *m.budget--; *m.budget < 0 {
			return errBudget
		}
		fr := th.stack[len(th.stack)-1]
		in := fr.block.Instrs[fr.pc]
		fr.cur = &fr.vals.code[fr.block.Index][fr.pc]
		fr.pc++
		err := m.exec(th, fr, in)
		if err == nil {
			continue
		}
		// Only past here: the pointer errors.As fills escapes, one
		// allocation per instruction run when it was asked of every one.
		var tr *trap
		if errors.As(err, &tr) {
			th.done = true
			m.traps[th.id()] = trap{why: fmt.Sprintf("%s: %s", m.where(in), tr.why), oob: tr.oob}
			continue
		}
		return fmt.Errorf("%s: %v", m.where(in), err)
	}
	return nil
}

// A trap stops its thread: an index out of range, a division by zero, a
// nil dereference or a panic.
type trap struct {
	why string
	oob bool
}

func (t *trap) Error() string { return t.why }

// where names the line of instruction in.
func (m *machine) where(in ssa.Instruction) string {
	pos := in.Pos()
	if v, ok := in.(ssa.Value); ok && !pos.IsValid() {
		pos = v.Pos()
	}
	if !pos.IsValid() {
		pos = in.Parent().Pos()
	}
	p := m.fn.Prog.Fset.Position(pos)
	return fmt.Sprintf("line %d", p.Line)
}

// get returns the value of v, an operand of fr's current instruction, in
// frame fr.
func (m *machine) get(fr *frame, v ssa.Value) (value, error) {
	for i := range fr.cur.ops {
		if o := &fr.cur.ops[i]; o.v == v {
			return m.read(fr, o)
		}
	}
	return m.lookup(fr, v)
}

// read returns the value of operand o in frame fr.
func (m *machine) read(fr *frame, o *operand) (value, error) {
	switch o.slot {
	case -1:
		return o.val, o.err
	case -2:
		return m.lookup(fr, o.v)
	}
	if !fr.has[o.slot] {
		return value{}, fmt.Errorf("%s has no value", o.v.Name())
	}
	return fr.env[o.slot], nil
}

// lookup returns the value of v in frame fr by v itself.
func (m *machine) lookup(fr *frame, v ssa.Value) (value, error) {
	switch v := v.(type) {
	case *ssa.Const:
		return constValue(v.Value, v.Type())
	case *ssa.Function, *ssa.Global, *ssa.Builtin:
		return value{}, fmt.Errorf("%s is not a value the replay knows", v.Name())
	}
	i, ok := fr.vals.index[v]
	if !ok || !fr.has[i] {
		return value{}, fmt.Errorf("%s has no value", v.Name())
	}
	return fr.env[i], nil
}

// jump moves fr to block to from its current block, giving to's phis the
// values of the edge taken.
func (m *machine) jump(fr *frame, to *ssa.BasicBlock) error {
	edge := -1
	for i, p := range to.Preds {
		if p == fr.block {
			edge = i
			break
		}
	}
	// The phis take their values at once: read every edge value first.
	vals := m.phiVals[:0]
	code := fr.vals.code[to.Index]
	for i, in := range to.Instrs {
		if _, ok := in.(*ssa.Phi); !ok {
			break
		}
		v, err := m.read(fr, &code[i].ops[edge])
		if err != nil {
			return err
		}
		vals = append(vals, v)
	}
	m.phiVals = vals
	for i, v := range vals {
		fr.setSlot(code[i].dst, v)
	}
	fr.block, fr.pc = to, len(vals)
	return nil
}

// fill sets every leaf of global object obj, an array of elem, to the
// launch's data value.
func fill(obj *object, elem types.Type, data int64) {
	if data == 0 {
		return
	}
	var kinds []types.Type
	var walk func(t types.Type)
	walk = func(t types.Type) {
		switch u := t.Underlying().(type) {
		case *types.Array:
			for range u.Len() {
				walk(u.Elem())
			}
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				walk(u.Field(i).Type())
			}
		default:
			kinds = append(kinds, t)
		}
	}
	walk(elem)
	for i := range obj.nums {
		t := kinds[i%len(kinds)]
		switch {
		case isFloat(t):
			obj.nums[i] = scalar{f: float64(data)}
		case basic(t) != nil:
			obj.nums[i] = scalar{n: wrap(data, t)}
		}
	}
}
