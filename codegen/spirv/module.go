package spirv

import (
	"encoding/binary"
	"maps"
	"math"
	"sort"
)

// SPIR-V enumerants used here (SPIR-V 1.5 and GLSL.std.450).
const (
	capShader                         = 1
	capFloat64                        = 10
	capInt64                          = 11
	capInt64Atomics                   = 12
	capInt16                          = 22
	capInt8                           = 39
	capStorageBuffer16BitAccess       = 4433
	capStorageBuffer8BitAccess        = 4448
	capPhysicalStorageBufferAddresses = 5347
	capDenormPreserve                 = 4464
	capSignedZeroInfNanPreserve       = 4466
	capRoundingModeRTE                = 4467

	addrPhysicalStorageBuffer64  = 5348
	memGLSL450                   = 1
	execGLCompute                = 5
	modeLocalSize                = 17
	modeDenormPreserve           = 4459
	modeSignedZeroInfNanPreserve = 4461
	modeRoundingModeRTE          = 4462

	scInput                 = 1
	scWorkgroup             = 4
	scFunction              = 7
	scPushConstant          = 9
	scPhysicalStorageBuffer = 5349

	decSpecID        = 1
	decBlock         = 2
	decArrayStride   = 6
	decBuiltIn       = 11
	decOffset        = 35
	decNoContraction = 42

	biNumWorkgroups     = 24
	biWorkgroupSize     = 25
	biWorkgroupID       = 26
	biLocalInvocationID = 27

	scopeDevice    = 1
	scopeWorkgroup = 2

	semAcquireRelease  = 0x8
	semUniformMemory   = 0x40
	semWorkgroupMemory = 0x100

	memopAligned = 0x2

	loopDontUnroll = 0x2

	glslTrunc    = 3
	glslFAbs     = 4
	glslFloor    = 8
	glslCeil     = 9
	glslSqrt     = 31
	glslFindUMsb = 75
	glslFma      = 50
)

// Opcodes.
const (
	opName                  = 5
	opExtInstImport         = 11
	opExtInst               = 12
	opMemoryModel           = 14
	opEntryPoint            = 15
	opExecutionMode         = 16
	opCapability            = 17
	opTypeVoid              = 19
	opTypeBool              = 20
	opTypeInt               = 21
	opTypeFloat             = 22
	opTypeVector            = 23
	opTypeArray             = 28
	opTypeStruct            = 30
	opTypePointer           = 32
	opTypeFunction          = 33
	opConstantTrue          = 41
	opConstantFalse         = 42
	opConstant              = 43
	opSpecConstantComposite = 51
	opSpecConstant          = 50
	opFunction              = 54
	opFunctionEnd           = 56
	opVariable              = 59
	opLoad                  = 61
	opStore                 = 62
	opAccessChain           = 65
	opDecorate              = 71
	opMemberDecorate        = 72
	opCompositeConstruct    = 80
	opCompositeExtract      = 81
	opCopyObject            = 83
	opConvertFToU           = 109
	opConvertFToS           = 110
	opConvertSToF           = 111
	opConvertUToF           = 112
	opUConvert              = 113
	opSConvert              = 114
	opFConvert              = 115
	opConvertUToPtr         = 120
	opBitcast               = 124
	opSNegate               = 126
	opFNegate               = 127
	opIAdd                  = 128
	opFAdd                  = 129
	opISub                  = 130
	opFSub                  = 131
	opIMul                  = 132
	opFMul                  = 133
	opUDiv                  = 134
	opSDiv                  = 135
	opFDiv                  = 136
	opUMod                  = 137
	opSRem                  = 138
	opUMulExtended          = 151
	opSMulExtended          = 152
	opIsNan                 = 156
	opLogicalEqual          = 164
	opLogicalNotEqual       = 165
	opLogicalOr             = 166
	opLogicalAnd            = 167
	opLogicalNot            = 168
	opSelect                = 169
	opIEqual                = 170
	opINotEqual             = 171
	opUGreaterThan          = 172
	opSGreaterThan          = 173
	opUGreaterThanEqual     = 174
	opSGreaterThanEqual     = 175
	opULessThan             = 176
	opSLessThan             = 177
	opULessThanEqual        = 178
	opSLessThanEqual        = 179
	opFOrdEqual             = 180
	opFUnordNotEqual        = 183
	opFOrdLessThan          = 184
	opFOrdGreaterThan       = 186
	opFOrdLessThanEqual     = 188
	opFOrdGreaterThanEqual  = 190
	opShiftRightLogical     = 194
	opShiftRightArithmetic  = 195
	opShiftLeftLogical      = 196
	opBitwiseOr             = 197
	opBitwiseXor            = 198
	opBitwiseAnd            = 199
	opNot                   = 200
	opBitCount              = 205
	opControlBarrier        = 224
	opAtomicLoad            = 227
	opAtomicExchange        = 229
	opAtomicCompareExchange = 230
	opAtomicIAdd            = 234
	opAtomicSMin            = 236
	opAtomicUMin            = 237
	opAtomicSMax            = 238
	opAtomicUMax            = 239
	opAtomicAnd             = 240
	opAtomicOr              = 241
	opPhi                   = 245
	opLoopMerge             = 246
	opSelectionMerge        = 247
	opLabel                 = 248
	opBranch                = 249
	opBranchConditional     = 250
	opReturn                = 253
	opUnreachable           = 255
)

// builder accumulates a module's sections. Types and constants are
// deduplicated by key.
type builder struct {
	next    uint32
	caps    map[uint32]bool
	glsl    uint32
	entries []uint32
	modes   []uint32
	names   []uint32
	decos   []uint32
	globals []uint32 // types, constants, global variables
	funcs   []uint32
	cache   map[string]uint32
}

func newBuilder() *builder {
	b := &builder{next: 1, caps: map[uint32]bool{}, cache: map[string]uint32{}}
	b.glsl = b.id()
	for _, c := range []uint32{capShader, capPhysicalStorageBufferAddresses, capInt64} {
		b.caps[c] = true
	}
	return b
}

// fork returns a copy of b that can be thrown away.
func (b *builder) fork() *builder {
	c := *b
	c.caps = maps.Clone(b.caps)
	c.cache = maps.Clone(b.cache)
	c.entries = append([]uint32(nil), b.entries...)
	c.modes = append([]uint32(nil), b.modes...)
	c.names = append([]uint32(nil), b.names...)
	c.decos = append([]uint32(nil), b.decos...)
	c.globals = append([]uint32(nil), b.globals...)
	c.funcs = append([]uint32(nil), b.funcs...)
	return &c
}

// join takes over a fork's state.
func (b *builder) join(c *builder) { *b = *c }

func (b *builder) id() uint32 {
	b.next++
	return b.next - 1
}

// inst appends one instruction to a section.
func inst(sec *[]uint32, op uint32, operands ...uint32) {
	*sec = append(*sec, uint32(len(operands)+1)<<16|op)
	*sec = append(*sec, operands...)
}

// finish returns the module's binary.
func (b *builder) finish() []byte {
	var w []uint32
	w = append(w, 0x07230203, 0x00010500, 0x00470000 /* generator: unregistered */, b.next, 0)
	var caps []uint32
	for c := range b.caps {
		caps = append(caps, c)
	}
	sort.Slice(caps, func(i, j int) bool { return caps[i] < caps[j] })
	for _, c := range caps {
		inst(&w, opCapability, c)
	}
	inst(&w, opExtInstImport, append([]uint32{b.glsl}, strWords("GLSL.std.450")...)...)
	inst(&w, opMemoryModel, addrPhysicalStorageBuffer64, memGLSL450)
	w = append(w, b.entries...)
	w = append(w, b.modes...)
	w = append(w, b.names...)
	w = append(w, b.decos...)
	w = append(w, b.globals...)
	w = append(w, b.funcs...)
	out := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(out[4*i:], x)
	}
	return out
}

// cached returns the id stored under key, making it with mk if new.
func (b *builder) cached(key string, mk func(id uint32)) uint32 {
	if id, ok := b.cache[key]; ok {
		return id
	}
	id := b.id()
	b.cache[key] = id
	mk(id)
	return id
}

func (b *builder) tVoid() uint32 {
	return b.cached("void", func(id uint32) { inst(&b.globals, opTypeVoid, id) })
}

func (b *builder) tBool() uint32 {
	return b.cached("bool", func(id uint32) { inst(&b.globals, opTypeBool, id) })
}

// tInt is the integer type of a width (no signedness).
func (b *builder) tInt(bits int) uint32 {
	return b.cached("int"+itoa(bits), func(id uint32) { inst(&b.globals, opTypeInt, id, uint32(bits), 0) })
}

func (b *builder) tFloat(bits int) uint32 {
	if bits == 64 {
		b.caps[capFloat64] = true
	}
	return b.cached("float"+itoa(bits), func(id uint32) { inst(&b.globals, opTypeFloat, id, uint32(bits)) })
}

func (b *builder) tVec(elem uint32, n int) uint32 {
	return b.cached("vec"+itoa(int(elem))+"x"+itoa(n), func(id uint32) { inst(&b.globals, opTypeVector, id, elem, uint32(n)) })
}

func (b *builder) tPtr(sc, elem uint32) uint32 {
	return b.cached("ptr"+itoa(int(sc))+"."+itoa(int(elem)), func(id uint32) { inst(&b.globals, opTypePointer, id, sc, elem) })
}

// tArray is an array of n elements (a fresh type when stride > 0, so it
// can be decorated).
func (b *builder) tArray(elem uint32, n int, stride int) uint32 {
	return b.cached("arr"+itoa(int(elem))+"x"+itoa(n)+"s"+itoa(stride), func(id uint32) {
		inst(&b.globals, opTypeArray, id, elem, b.constU32(uint32(n)))
		if stride > 0 {
			inst(&b.decos, opDecorate, id, decArrayStride, uint32(stride))
		}
	})
}

func (b *builder) tFunc(ret uint32) uint32 {
	return b.cached("fn"+itoa(int(ret)), func(id uint32) { inst(&b.globals, opTypeFunction, id, ret) })
}

func (b *builder) constU32(v uint32) uint32 {
	t := b.tInt(32)
	return b.cached("c32."+itoa(int(v)), func(id uint32) { inst(&b.globals, opConstant, t, id, v) })
}

func (b *builder) constU64(v uint64) uint32 {
	t := b.tInt(64)
	return b.cached("c64."+utoa(v), func(id uint32) { inst(&b.globals, opConstant, t, id, uint32(v), uint32(v>>32)) })
}

func (b *builder) constF32(v float32) uint32 {
	t := b.tFloat(32)
	bits := math.Float32bits(v)
	return b.cached("f32."+utoa(uint64(bits)), func(id uint32) { inst(&b.globals, opConstant, t, id, bits) })
}

func (b *builder) constF64(v float64) uint32 {
	t := b.tFloat(64)
	bits := math.Float64bits(v)
	return b.cached("f64."+utoa(bits), func(id uint32) { inst(&b.globals, opConstant, t, id, uint32(bits), uint32(bits>>32)) })
}

func (b *builder) constBool(v bool) uint32 {
	t := b.tBool()
	if v {
		return b.cached("true", func(id uint32) { inst(&b.globals, opConstantTrue, t, id) })
	}
	return b.cached("false", func(id uint32) { inst(&b.globals, opConstantFalse, t, id) })
}

// builtin returns the Input variable of a uvec3 built-in.
func (b *builder) builtin(bi uint32) uint32 {
	pt := b.tPtr(scInput, b.tVec(b.tInt(32), 3))
	return b.cached("builtin"+itoa(int(bi)), func(id uint32) {
		inst(&b.globals, opVariable, pt, id, scInput)
		inst(&b.decos, opDecorate, id, decBuiltIn, bi)
	})
}

// workgroupSize returns the three u32 spec constants (SpecId 0, 1, 2,
// default 1) of the module's WorkgroupSize built-in.
func (b *builder) workgroupSize() [3]uint32 {
	var ids [3]uint32
	u32 := b.tInt(32)
	for i := range ids {
		ids[i] = b.cached("wgsize"+itoa(i), func(id uint32) {
			inst(&b.globals, opSpecConstant, u32, id, 1)
			inst(&b.decos, opDecorate, id, decSpecID, uint32(i))
		})
	}
	vec := b.tVec(u32, 3)
	b.cached("wgsize", func(id uint32) {
		inst(&b.globals, opSpecConstantComposite, vec, id, ids[0], ids[1], ids[2])
		inst(&b.decos, opDecorate, id, decBuiltIn, biWorkgroupSize)
	})
	return ids
}

func itoa(n int) string {
	if n < 0 {
		return "-" + utoa(uint64(-n))
	}
	return utoa(uint64(n))
}

func utoa(n uint64) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return utoa(n/10) + string(rune('0'+n%10))
}
