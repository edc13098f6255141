package replay

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// exec executes instruction in of thread th's top frame fr, whose pc is
// already past it.
func (m *machine) exec(th *thread, fr *frame, in ssa.Instruction) error {
	switch in := in.(type) {
	case *ssa.DebugRef:
		return nil
	case *ssa.Jump:
		return m.jump(fr, fr.block.Succs[0])
	case *ssa.If:
		c, err := m.get(fr, in.Cond)
		if err != nil {
			return err
		}
		if c.n != 0 {
			return m.jump(fr, fr.block.Succs[0])
		}
		return m.jump(fr, fr.block.Succs[1])
	case *ssa.Return:
		return m.ret(th, fr, in)
	case *ssa.Panic:
		return &trap{why: "a panic"}
	case *ssa.Store:
		return m.store(th, fr, in)
	case *ssa.Call:
		return m.call(th, fr, in)
	case ssa.Value:
		v, err := m.value(th, fr, in)
		if err != nil {
			return err
		}
		fr.setSlot(fr.cur.dst, v)
		return nil
	}
	return fmt.Errorf("instruction %T is outside the replay's subset", in)
}

// value computes the value instruction in defines.
func (m *machine) value(th *thread, fr *frame, in ssa.Value) (value, error) {
	switch in := in.(type) {
	case *ssa.Alloc:
		elem := in.Type().(*types.Pointer).Elem()
		obj, err := m.alloc(leaves(elem), "local variable "+in.Comment)
		return value{obj: obj}, err
	case *ssa.BinOp:
		x, err := m.get(fr, in.X)
		if err != nil {
			return value{}, err
		}
		y, err := m.get(fr, in.Y)
		if err != nil {
			return value{}, err
		}
		if (in.Op == token.SHL || in.Op == token.SHR) && !isUnsigned(in.Y.Type()) && y.n < 0 {
			// Go panics on a negative signed count; it is not a huge
			// unsigned one.
			return value{}, &trap{why: fmt.Sprintf("a negative shift count %d", y.n)}
		}
		v, err := binop(in.Op, in.X.Type(), x, y)
		if err == errDivZero {
			return value{}, &trap{why: err.Error()}
		}
		return v, err
	case *ssa.UnOp:
		x, err := m.get(fr, in.X)
		if err != nil {
			return value{}, err
		}
		if in.Op == token.MUL {
			return m.load(th, x, in.Type())
		}
		return unop(in.Op, in.X.Type(), x)
	case *ssa.Convert:
		x, err := m.get(fr, in.X)
		return convert(x, in.X.Type(), in.Type()), err
	case *ssa.ChangeType:
		return m.get(fr, in.X)
	case *ssa.IndexAddr:
		return m.indexAddr(fr, in)
	case *ssa.FieldAddr:
		x, err := m.get(fr, in.X)
		if err != nil {
			return value{}, err
		}
		if x.obj == nil {
			return value{}, &trap{why: "a nil dereference"}
		}
		st := in.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		return value{obj: x.obj, off: x.off + fieldOffset(st, in.Field)}, nil
	case *ssa.Index:
		x, err := m.get(fr, in.X)
		if err != nil {
			return value{}, err
		}
		i, err := m.get(fr, in.Index)
		if err != nil {
			return value{}, err
		}
		if x.agg == nil || i.n < 0 || i.n >= int64(len(x.agg)) {
			return value{}, &trap{why: fmt.Sprintf("index %d out of range", i.n), oob: true}
		}
		return x.agg[i.n], nil
	case *ssa.Field:
		x, err := m.get(fr, in.X)
		if err != nil || x.agg == nil {
			return value{}, fmt.Errorf("field of a value the replay does not hold")
		}
		return x.agg[in.Field], nil
	case *ssa.Extract:
		x, err := m.get(fr, in.Tuple)
		if err != nil || x.agg == nil {
			return value{}, fmt.Errorf("result of a call the replay did not make")
		}
		return x.agg[in.Index], nil
	case *ssa.Slice:
		return m.slice(fr, in)
	case *ssa.MakeInterface:
		// The argument of a precondition's panic("…"): the panic traps
		// next, and nothing else in the subset reads an interface.
		return value{}, nil
	case *ssa.SliceToArrayPointer:
		x, err := m.get(fr, in.X)
		if err != nil {
			return value{}, err
		}
		if n := in.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array).Len(); int64(x.ln) < n {
			return value{}, &trap{why: "a slice shorter than its array", oob: true}
		}
		return value{obj: x.obj, off: x.off}, nil
	}
	return value{}, fmt.Errorf("instruction %T is outside the replay's subset", in)
}

// indexAddr computes &x[i] for a slice or a pointer to an array, trapping
// on an index out of range.
func (m *machine) indexAddr(fr *frame, in *ssa.IndexAddr) (value, error) {
	x, err := m.get(fr, in.X)
	if err != nil {
		return value{}, err
	}
	i, err := m.get(fr, in.Index)
	if err != nil {
		return value{}, err
	}
	idx := i.n
	if isUnsigned(in.Index.Type()) && idx < 0 {
		idx = 1 << 62 // a huge unsigned index: out of range
	}
	var n int64
	var elem types.Type
	switch t := in.X.Type().Underlying().(type) {
	case *types.Slice:
		n, elem = int64(x.ln), t.Elem()
	case *types.Pointer:
		arr := t.Elem().Underlying().(*types.Array)
		n, elem = arr.Len(), arr.Elem()
		if x.obj == nil {
			return value{}, &trap{why: "a nil dereference"}
		}
	default:
		return value{}, fmt.Errorf("indexing %s", in.X.Type())
	}
	if idx < 0 || idx >= n {
		return value{}, &trap{why: fmt.Sprintf("index %d out of range [0, %d)", i.n, n), oob: true}
	}
	return value{obj: x.obj, off: x.off + int(idx)*leaves(elem)}, nil
}

// slice computes x[lo:hi:max] of a slice or a pointer to an array.
func (m *machine) slice(fr *frame, in *ssa.Slice) (value, error) {
	x, err := m.get(fr, in.X)
	if err != nil {
		return value{}, err
	}
	var elem types.Type
	ln, cp := x.ln, x.cp
	switch t := in.X.Type().Underlying().(type) {
	case *types.Slice:
		elem = t.Elem()
	case *types.Pointer:
		arr := t.Elem().Underlying().(*types.Array)
		elem, ln, cp = arr.Elem(), int(arr.Len()), int(arr.Len())
	default:
		return value{}, fmt.Errorf("slicing %s", in.X.Type())
	}
	bound := func(v ssa.Value, def int) (int, error) {
		if v == nil {
			return def, nil
		}
		b, err := m.get(fr, v)
		return int(b.n), err
	}
	lo, err1 := bound(in.Low, 0)
	hi, err2 := bound(in.High, ln)
	mx, err3 := bound(in.Max, cp)
	for _, e := range []error{err1, err2, err3} {
		if e != nil {
			return value{}, e
		}
	}
	if lo < 0 || lo > hi || hi > mx || mx > cp {
		return value{}, &trap{why: fmt.Sprintf("slice bounds [%d:%d:%d] out of range (capacity %d)", lo, hi, mx, cp), oob: true}
	}
	return value{obj: x.obj, off: x.off + lo*leaves(elem), ln: hi - lo, cp: mx - lo}, nil
}

// load reads a value of type t through pointer p, noting the access.
func (m *machine) load(th *thread, p value, t types.Type) (value, error) {
	if p.obj == nil {
		return value{}, &trap{why: "a nil dereference"}
	}
	m.noteAt(th, p, t)
	return load(p.obj, p.off, t), nil
}

// store executes a store, noting the access.
func (m *machine) store(th *thread, fr *frame, in *ssa.Store) error {
	p, err := m.get(fr, in.Addr)
	if err != nil {
		return err
	}
	v, err := m.get(fr, in.Val)
	if err != nil {
		return err
	}
	if p.obj == nil {
		return &trap{why: "a nil dereference"}
	}
	t := in.Val.Type()
	m.noteAt(th, p, t)
	store(p.obj, p.off, t, v)
	return nil
}

// noteAt records an access of th through p to a value of type t.
func (m *machine) noteAt(th *thread, p value, t types.Type) {
	m.note(th, p.obj, p.off, p.off+leaves(t))
}

// ret returns from fr: the thread is done, or the caller gets the results.
func (m *machine) ret(th *thread, fr *frame, in *ssa.Return) error {
	var res []value
	for _, r := range in.Results {
		v, err := m.get(fr, r)
		if err != nil {
			return err
		}
		res = append(res, v)
	}
	th.stack = th.stack[:len(th.stack)-1]
	if len(th.stack) == 0 {
		th.done = true
		return nil
	}
	caller := th.stack[len(th.stack)-1]
	switch len(res) {
	case 0:
	case 1:
		caller.set(fr.call, res[0])
	default:
		caller.set(fr.call, value{agg: res})
	}
	m.release(fr)
	return nil
}
