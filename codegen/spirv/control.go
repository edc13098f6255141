package spirv

import (
	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// funcEmitter emits one kernel.
type funcEmitter struct {
	mod   *kir.Module
	f     *kir.Func
	b     *builder
	p     *plan
	feats map[string]bool
	// floats records the float widths (32, 64) the kernel computes in,
	// which get float-controls execution modes.
	floats map[int]bool
	// contract are the float products and sums that may fuse into an
	// FMA (kir.Contractible, on the plan's copy of the kernel); every
	// other float add, sub and mul is NoContraction.
	contract map[*kir.Value]bool
	// fused are the contractible sums emitted as one GLSL.std.450 Fma
	// (kir.Fusions), and folded the products and negations only those
	// sums use, which are not emitted apart.
	fused  map[*kir.Value]kir.Fusion
	folded map[*kir.Value]bool

	fnID    uint32
	val     []uint32 // id of each value
	start   map[*kir.Block]uint32
	end     map[*kir.Block]uint32 // label of the SPIR-V block that ends each kir block
	code    []uint32              // the function body
	cur     uint32                // label of the block being emitted
	patches []phiPatch

	push        pushBlock
	sharedVar   uint32 // Workgroup array of u32 words (0 if none)
	sharedOff   map[int]int
	sharedBytes int
	localVar    uint32 // Function array of u32 words (0 if none)
	trapped     uint32 // Function bool: this invocation trapped (0 if no trap resumes)
	localOff    map[*kir.Value]int
	localBytes  int
	interfaces  []uint32
	blockDim    [3]uint32
	err         error
}

type phiPatch struct {
	at   int // index into code of the label operand
	pred *kir.Block
}

// emit adds the kernel's entry point and function to the builder.
func (e *funcEmitter) emit() error {
	p, err := structurize(e.f)
	if err != nil {
		se := err.(*structError)
		return &Error{Entry: e.f.Name, TokPos: se.pos, Msg: se.msg}
	}
	e.p = p
	f := p.f
	e.contract = kir.Contractible(f)
	e.fuse(f)
	b := e.b
	e.val = make([]uint32, f.NumValues())
	e.start = map[*kir.Block]uint32{}
	e.end = map[*kir.Block]uint32{}
	for _, blk := range f.Blocks {
		e.start[blk] = b.id()
		for _, v := range blk.Values {
			e.val[v.ID] = b.id()
		}
	}
	e.layoutMemory()
	e.declarePush()
	for _, bi := range []uint32{biLocalInvocationID, biWorkgroupID, biNumWorkgroups} {
		e.interfaces = append(e.interfaces, b.builtin(bi))
	}
	if f.Block[0] != 0 {
		for i := range 3 {
			e.blockDim[i] = b.constU32(uint32(f.Block[i]))
		}
	} else {
		e.blockDim = b.workgroupSize()
	}
	if e.sharedBytes > 0 {
		arr := b.tArray(b.tInt(32), e.sharedBytes/4, 0)
		pt := b.tPtr(scWorkgroup, arr)
		e.sharedVar = b.id()
		inst(&b.globals, opVariable, pt, e.sharedVar, scWorkgroup)
		e.interfaces = append(e.interfaces, e.sharedVar)
	}

	// Body.
	e.fnID = b.id()
	entry := b.id()
	e.label(entry)
	if e.localBytes > 0 {
		arr := b.tArray(b.tInt(32), e.localBytes/4, 0)
		pt := b.tPtr(scFunction, arr)
		e.localVar = b.id()
		inst(&e.code, opVariable, pt, e.localVar, scFunction)
	}
	if len(p.resume) > 0 {
		e.trapped = b.id()
		inst(&e.code, opVariable, b.tPtr(scFunction, b.tBool()), e.trapped, scFunction, b.constBool(false))
	}
	if e.trapped != 0 {
		// Also stored, not only initialized: the store is what every
		// driver is sure to honour.
		e.ins(opStore, e.trapped, b.constBool(false))
	}
	e.branch(e.start[f.Blocks[0]])
	for _, blk := range p.order {
		e.block(blk)
		if e.err != nil {
			return e.err
		}
	}
	for _, pt := range e.patches {
		e.code[pt.at] = e.end[pt.pred]
	}

	// The function and its entry point.
	inst(&b.funcs, opFunction, b.tVoid(), e.fnID, 0, b.tFunc(b.tVoid()))
	b.funcs = append(b.funcs, e.code...)
	inst(&b.funcs, opFunctionEnd)
	ep := []uint32{execGLCompute, e.fnID}
	ep = append(ep, strWords(f.Name)...)
	ep = append(ep, e.interfaces...)
	inst(&b.entries, opEntryPoint, ep...)
	if f.Block[0] != 0 {
		inst(&b.modes, opExecutionMode, e.fnID, modeLocalSize, uint32(f.Block[0]), uint32(max(f.Block[1], 1)), uint32(max(f.Block[2], 1)))
	} else {
		inst(&b.modes, opExecutionMode, e.fnID, modeLocalSize, 1, 1, 1)
	}
	e.floatControls()
	return nil
}

// floatControls requests Go's IEEE semantics for each float width the
// kernel uses: without SignedZeroInfNanPreserve a Vulkan driver may assume
// no Inf, NaN or -0 (NVIDIA's does: an overflow gave NaN, not +Inf),
// without DenormPreserve it may flush subnormals to zero, and without
// RoundingModeRTE the rounding of conversions and arithmetic is the
// driver's choice. The modes are core in SPIR-V 1.4; each needs a device
// property (VkPhysicalDeviceVulkan12Properties), recorded as a feature:
// shaderSignedZeroInfNanPreserveFloatN and shaderRoundingModeRTEFloatN
// are required, shaderDenormPreserveFloatN is requested (the vulkan
// backend drops the DenormPreserve mode on a device without it, as
// codegen/ABI.md explains).
func (e *funcEmitter) floatControls() {
	b := e.b
	for _, w := range []int{32, 64} {
		if !e.floats[w] {
			continue
		}
		n := itoa(w)
		for _, m := range []struct {
			mode, capability uint32
			feat             string
		}{
			{modeSignedZeroInfNanPreserve, capSignedZeroInfNanPreserve, "shaderSignedZeroInfNanPreserveFloat"},
			{modeDenormPreserve, capDenormPreserve, "shaderDenormPreserveFloat"},
			{modeRoundingModeRTE, capRoundingModeRTE, "shaderRoundingModeRTEFloat"},
		} {
			inst(&b.modes, opExecutionMode, e.fnID, m.mode, uint32(w))
			b.caps[m.capability] = true
			e.feats[m.feat+n] = true
		}
	}
}

func (e *funcEmitter) fail(v *kir.Value, msg string) {
	if e.err == nil {
		pos := e.f.Blocks[0].Values
		_ = pos
		er := &Error{Entry: e.f.Name, Msg: msg}
		if v != nil {
			er.TokPos = v.Pos
		}
		e.err = er
	}
}

// ins appends an instruction to the body.
func (e *funcEmitter) ins(op uint32, operands ...uint32) { inst(&e.code, op, operands...) }

// op appends an instruction with a result of type t and returns its id.
func (e *funcEmitter) op(op, t uint32, operands ...uint32) uint32 {
	id := e.b.id()
	inst(&e.code, op, append([]uint32{t, id}, operands...)...)
	return id
}

// opTo is op with a given result id.
func (e *funcEmitter) opTo(id uint32, op, t uint32, operands ...uint32) {
	inst(&e.code, op, append([]uint32{t, id}, operands...)...)
}

func (e *funcEmitter) label(id uint32) {
	e.ins(opLabel, id)
	e.cur = id
}

func (e *funcEmitter) branch(to uint32) { e.ins(opBranch, to) }

// block emits one kir block (and the SPIR-V blocks it splits into).
func (e *funcEmitter) block(blk *kir.Block) {
	p := e.p
	e.label(e.start[blk])
	if p.unreachable[blk] {
		e.ins(opUnreachable)
		e.end[blk] = e.cur
		return
	}
	vals := blk.Values
	for len(vals) > 0 && vals[0].Op == kir.OpPhi {
		v := vals[0]
		vals = vals[1:]
		ops := []uint32{e.typ(v.Type.Kind), e.val[v.ID]}
		for i, a := range v.Args {
			ops = append(ops, e.val[a.ID], 0)
			e.patches = append(e.patches, phiPatch{at: len(e.code) + 1 + len(ops) - 1, pred: blk.Preds[i]})
		}
		e.ins(opPhi, ops...)
	}
	if lp := p.loops[blk]; lp != nil {
		control := uint32(0)
		if blk.Unrolled {
			control = loopDontUnroll
		}
		e.ins(opLoopMerge, e.start[lp.merge], e.start[lp.cont], control)
		body := e.b.id()
		e.branch(body)
		e.label(body)
	}
	for _, v := range vals {
		e.value(v)
		if e.err != nil {
			return
		}
	}
	e.terminator(blk)
	e.end[blk] = e.cur
}

func (e *funcEmitter) terminator(blk *kir.Block) {
	switch blk.Term {
	case kir.TermJump:
		e.branch(e.start[blk.Succs[0]])
	case kir.TermBranch:
		t, f := blk.Succs[0], blk.Succs[1]
		if m := e.p.merge[blk]; m != nil {
			e.ins(opSelectionMerge, e.start[m], 0)
		}
		if t == f {
			e.branch(e.start[t])
			return
		}
		e.ins(opBranchConditional, e.val[blk.Cond.ID], e.start[t], e.start[f])
	case kir.TermReturn:
		e.ins(opReturn)
	case kir.TermTrap:
		e.trap(blk.Trap)
		if e.p.resume[blk] {
			e.ins(opStore, e.trapped, e.b.constBool(true))
			e.branch(e.start[blk.Succs[0]])
			return
		}
		e.ins(opReturn)
	default:
		e.fail(nil, "block without terminator")
	}
}

// ifThen emits `if cond { body() }` as a selection in the current block and
// continues in its merge.
func (e *funcEmitter) ifThen(cond uint32, body func()) {
	then, merge := e.b.id(), e.b.id()
	e.ins(opSelectionMerge, merge, 0)
	e.ins(opBranchConditional, cond, then, merge)
	e.label(then)
	body()
	e.branch(merge)
	e.label(merge)
}

// trap records t in the trap record if no thread has yet: the first
// trapping invocation wins a compare-exchange on the code word and fills in
// the rest (gpuabi's layout).
func (e *funcEmitter) trap(t kir.Trap) {
	e.guard(0, kir.Void, func() uint32 { e.recordTrap(t); return 0 })
}

// guard runs side effect (which returns a value of type t, or 0 with t
// 0) only while the invocation has not trapped, in kernels where a trap
// resumes; a trapped invocation gets t's zero instead. Elsewhere it just
// runs it.
func (e *funcEmitter) guard(t uint32, k kir.Kind, effect func() uint32) uint32 {
	if e.trapped == 0 {
		return effect()
	}
	b := e.b
	live := e.op(opLogicalNot, b.tBool(), e.op(opLoad, b.tBool(), e.trapped))
	pre := e.cur
	then, merge := b.id(), b.id()
	e.ins(opSelectionMerge, merge, 0)
	e.ins(opBranchConditional, live, then, merge)
	e.label(then)
	r := effect()
	end := e.cur
	e.branch(merge)
	e.label(merge)
	if t == 0 {
		return 0
	}
	return e.op(opPhi, t, r, end, e.constant(k, 0), pre)
}

func (e *funcEmitter) recordTrap(t kir.Trap) {
	b := e.b
	u32, u64 := b.tInt(32), b.tInt(64)
	rec := e.pushLoad(e.push.trap, u64)
	codePtr := e.op(opConvertUToPtr, b.tPtr(scPhysicalStorageBuffer, u32), rec)
	old := e.op(opAtomicCompareExchange, u32, codePtr, b.constU32(scopeDevice), b.constU32(0), b.constU32(0), b.constU32(uint32(t.Code)), b.constU32(0))
	won := e.op(opIEqual, b.tBool(), old, b.constU32(0))
	e.ifThen(won, func() {
		e.storeGlobalAt(rec, gpuabi.TrapOffPos, u32, b.constU32(uint32(t.Pos)), 4)
		for i, bi := range []uint32{biWorkgroupID, biLocalInvocationID} {
			vec := e.op(opLoad, b.tVec(u32, 3), b.builtin(bi))
			for j := range 3 {
				c := e.op(opCompositeExtract, u32, vec, uint32(j))
				e.storeGlobalAt(rec, uint64(gpuabi.TrapOffBlock+12*i+4*j), u32, c, 4)
			}
		}
		for i, a := range t.Args {
			if a != nil {
				e.storeGlobalAt(rec, uint64(gpuabi.TrapOffArg0+8*i), u64, e.val[a.ID], 8)
			}
		}
	})
}
