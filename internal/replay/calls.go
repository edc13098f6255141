package replay

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// call executes a call: of package gpu, of a builtin, of a device function
// (a new frame) or of a math function.
func (m *machine) call(th *thread, fr *frame, in *ssa.Call) error {
	c := &in.Call
	if c.IsInvoke() {
		return fmt.Errorf("a method call through an interface")
	}
	args := m.args[:0]
	for _, a := range c.Args {
		v, err := m.get(fr, a)
		if err != nil {
			return err
		}
		args = append(args, v)
	}
	m.args = args
	if k := gpuapi.Call(c); k != gpuapi.None {
		v, err := m.gpuCall(th, in, k, args)
		fr.setSlot(fr.cur.dst, v)
		return err
	}
	switch callee := c.Value.(type) {
	case *ssa.Builtin:
		if callee.Name() == "copy" {
			v, err := m.copySlice(th, c.Args, args)
			fr.set(in, v)
			return err
		}
		v, err := builtin(callee.Name(), c.Args, args)
		fr.setSlot(fr.cur.dst, v)
		return err
	case *ssa.Function:
		if len(callee.Blocks) > 0 {
			if len(th.stack) > 64 {
				return fmt.Errorf("calls nested more than 64 deep")
			}
			callFr := m.newFrame(callee, in, fr.path)
			for i := range callee.Params {
				callFr.setSlot(i, args[i]) // parameters are numbered first
			}
			th.stack = append(th.stack, callFr)
			return nil
		}
		if callee.Pkg != nil {
			if v, ok := mathCall(callee.Pkg.Pkg.Path(), callee.Name(), args, in.Type()); ok {
				fr.setSlot(fr.cur.dst, v)
				return nil
			}
		}
		return fmt.Errorf("a call of %s, which the replay does not run", callee.String())
	}
	return fmt.Errorf("a call of a function value")
}

// gpuCall executes a call of package gpu.
func (m *machine) gpuCall(th *thread, in *ssa.Call, k gpuapi.Kind, args []value) (value, error) {
	if k.IsThreadIndex() {
		return th.index(m, k), nil
	}
	switch k {
	case gpuapi.Barrier:
		th.waiting = true
		return value{}, nil
	case gpuapi.Shared:
		obj, err := m.sharedObject(in)
		return value{obj: obj}, err
	}
	return m.atomic(th, in, k, args)
}

// index returns the gpu.Dim3 that index method k gives th. Each is made
// once per thread: nothing writes into an aggregate value in place, so
// one can be shared.
func (th *thread) index(m *machine, k gpuapi.Kind) value {
	i := k - gpuapi.ThreadIdx
	if v := th.indices[i]; v.agg != nil {
		return v
	}
	var d [3]int
	switch k {
	case gpuapi.ThreadIdx:
		d = th.idx
	case gpuapi.BlockIdx:
		d = th.block
	case gpuapi.BlockDim, gpuapi.GridDim:
		// One for the launch: every thread's is the same.
		if m.dims[i].agg == nil {
			d = m.launch.Block
			if k == gpuapi.GridDim {
				d = m.launch.Grid
			}
			m.dims[i] = dim3Value(d)
		}
		th.indices[i] = m.dims[i]
		return th.indices[i]
	default: // GlobalIdx
		for i := range d {
			d[i] = th.block[i]*m.launch.Block[i] + th.idx[i]
		}
	}
	th.indices[i] = dim3Value(d)
	return th.indices[i]
}

// dim3Value returns d as a gpu.Dim3.
func dim3Value(d [3]int) value {
	return value{agg: []value{{n: int64(d[0])}, {n: int64(d[1])}, {n: int64(d[2])}}}
}

// sharedObject returns the running block's variable of Shared call in,
// zeroed when first met.
func (m *machine) sharedObject(in *ssa.Call) (*object, error) {
	if obj, ok := m.shared[in.Pos()]; ok {
		return obj, nil
	}
	elem := in.Type().Underlying().(*types.Pointer).Elem()
	obj, err := m.alloc(leaves(elem), "a gpu.Shared array")
	if err != nil {
		return nil, err
	}
	obj.id, obj.named, obj.typ = Object{Shared: in.Pos()}, true, elem
	m.shared[in.Pos()] = obj
	return obj, nil
}

// atomic executes an atomic read-modify-write; it returns the old value.
func (m *machine) atomic(th *thread, in *ssa.Call, k gpuapi.Kind, args []value) (value, error) {
	if len(args) < 2 || args[0].obj == nil {
		return value{}, &trap{why: "a nil dereference"}
	}
	p := args[0]
	t := in.Type()
	m.noteAt(th, p, t)
	old := p.obj.leaf(p.off)
	nv := args[1]
	switch k {
	case gpuapi.AtomicAdd:
		if isFloat(t) {
			nv = value{f: round(old.f+nv.f, t)}
		} else {
			nv = value{n: wrap(old.n+nv.n, t)}
		}
	case gpuapi.AtomicMin, gpuapi.AtomicMax:
		c := compare(isUnsigned(t), nv.n, old.n)
		if k == gpuapi.AtomicMin && c >= 0 || k == gpuapi.AtomicMax && c <= 0 {
			nv = old
		}
	case gpuapi.AtomicCompareAndSwap:
		if len(args) < 3 {
			return value{}, fmt.Errorf("AtomicCompareAndSwap with %d arguments", len(args))
		}
		nv = old
		if old.n == args[1].n {
			nv = args[2]
		}
	}
	p.obj.setLeaf(p.off, nv)
	return old, nil
}

// builtin executes a call of a builtin function kernels use.
func builtin(name string, argVals []ssa.Value, args []value) (value, error) {
	switch name {
	case "len":
		if _, ok := argVals[0].Type().Underlying().(*types.Slice); ok {
			return value{n: int64(args[0].ln)}, nil
		}
	case "cap":
		if _, ok := argVals[0].Type().Underlying().(*types.Slice); ok {
			return value{n: int64(args[0].cp)}, nil
		}
	case "min", "max":
		return minMax(name == "min", argVals[0].Type(), args), nil
	case "ssa:wrapnilchk":
		if args[0].obj == nil {
			return value{}, &trap{why: "a nil dereference"}
		}
		return args[0], nil
	}
	return value{}, fmt.Errorf("builtin %s", name)
}

// copySlice executes copy(dst, src) between two slices: the shorter
// length's elements, as Go's memmove does when they overlap, noted as a
// read of src and a write of dst at the call (lavaMD's copy of a
// particle's four coordinates into shared memory).
func (m *machine) copySlice(th *thread, argVals []ssa.Value, args []value) (value, error) {
	st, ok := argVals[1].Type().Underlying().(*types.Slice)
	if !ok {
		return value{}, fmt.Errorf("builtin copy from a string")
	}
	dst, src := args[0], args[1]
	n := min(dst.ln, src.ln)
	if n == 0 {
		return value{}, nil
	}
	k := n * leaves(st.Elem())
	m.note(th, src.obj, src.off, src.off+k)
	m.note(th, dst.obj, dst.off, dst.off+k)
	// Read every leaf before writing one: the slices may overlap.
	moved := make([]value, k)
	for i := range moved {
		moved[i] = src.obj.leaf(src.off + i)
	}
	for i, v := range moved {
		dst.obj.setLeaf(dst.off+i, v)
	}
	return value{n: int64(n)}, nil
}

func minMax(isMin bool, t types.Type, args []value) value {
	best := args[0]
	for _, a := range args[1:] {
		var less bool
		if isFloat(t) {
			less = a.f < best.f
		} else {
			less = compare(isUnsigned(t), a.n, best.n) < 0
		}
		if less == isMin && (a.n != best.n || a.f != best.f) {
			best = a
		}
	}
	return best
}
