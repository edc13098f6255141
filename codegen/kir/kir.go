// Package kir is gpukvet's kernel IR: the form every GPU emitter (PTX,
// SPIR-V, LLVM IR) starts from. It is lowered from go/ssa by package
// codegen/lower, after the checks have passed.
//
// The IR is in SSA form over scalar values only: aggregates (structs, arrays,
// slices, Dim3) are flattened by the lowering into their scalar leaves, and
// memory holds them at the offsets of Go's layout. Device functions are
// inlined into the kernels that call them (the dialect forbids recursion), so
// a Func is always a kernel entry point. Every pointer carries its address
// space, known statically: kernel slice parameters are global, gpu.Shared
// gives shared, local arrays and variables are local.
//
// Control flow keeps the structure of the Go source: every Block records the
// Go construct it came from (Kind), and Structure computes loop headers,
// continue targets and merge blocks (what SPIR-V's OpLoopMerge and
// OpSelectionMerge need) from dominators, so no emitter has to restructure
// an arbitrary graph.
package kir

import (
	"fmt"
	"go/token"

	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// Kind is the machine type of a scalar value.
type Kind uint8

const (
	Void Kind = iota
	Bool
	I8
	I16
	I32
	I64
	U8
	U16
	U32
	U64
	F32
	F64
	Ptr
)

var kindNames = [...]string{"void", "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "ptr"}

func (k Kind) String() string { return kindNames[k] }

// IsInt reports whether k is an integer kind.
func (k Kind) IsInt() bool { return k >= I8 && k <= U64 }

// IsSigned reports whether k is a signed integer kind.
func (k Kind) IsSigned() bool { return k >= I8 && k <= I64 }

// IsFloat reports whether k is a float kind.
func (k Kind) IsFloat() bool { return k == F32 || k == F64 }

// Bits is the width of k in bits (pointers are 64 bits, bool 8 in memory).
func (k Kind) Bits() int {
	switch k {
	case Bool, I8, U8:
		return 8
	case I16, U16:
		return 16
	case I32, U32, F32:
		return 32
	case I64, U64, F64, Ptr:
		return 64
	}
	return 0
}

// Size is the size of k in memory, in bytes.
func (k Kind) Size() int { return k.Bits() / 8 }

// Unsigned returns the unsigned kind of the same width as k.
func (k Kind) Unsigned() Kind {
	if k.IsSigned() {
		return k + 4
	}
	return k
}

// Signed returns the signed kind of the same width as k.
func (k Kind) Signed() Kind {
	if k >= U8 && k <= U64 {
		return k - 4
	}
	return k
}

// Space is the address space a pointer points into.
type Space uint8

const (
	Generic Space = iota
	Global
	Shared
	Local
)

var spaceNames = [...]string{"generic", "global", "shared", "local"}

func (s Space) String() string { return spaceNames[s] }

// Type is the type of a scalar value: a Kind and, for pointers, the space.
type Type struct {
	Kind  Kind
	Space Space
}

func (t Type) String() string {
	if t.Kind == Ptr {
		return "ptr(" + t.Space.String() + ")"
	}
	return t.Kind.String()
}

// Common types.
var (
	TBool = Type{Kind: Bool}
	TI32  = Type{Kind: I32}
	TI64  = Type{Kind: I64}
	TU32  = Type{Kind: U32}
	TU64  = Type{Kind: U64}
	TF32  = Type{Kind: F32}
	TF64  = Type{Kind: F64}
)

// PtrTo returns the pointer type into space s.
func PtrTo(s Space) Type { return Type{Kind: Ptr, Space: s} }

// Op is an operation.
type Op uint8

const (
	OpInvalid Op = iota

	// Leaves.
	OpConst   // Imm (integers, bool 0/1, and float bits)
	OpParam   // Index: the kernel parameter; Imm: byte offset inside a struct parameter
	OpSpecial // Index: one of the Special registers
	OpLocal   // Imm: bytes of a fresh local (per-thread) allocation; Index: alignment
	OpShared  // Index: the module's shared variable

	// Arithmetic; operands of the result type unless said otherwise.
	OpAdd
	OpSub
	OpMul
	OpDiv // integer: truncating; the lowering has already trapped on zero and handled MinInt/-1
	OpRem
	OpAnd
	OpOr
	OpXor
	OpAndNot
	OpShl // Args[1] is an unsigned count of any width; counts >= width give 0
	OpShr // arithmetic for signed kinds; counts >= width give 0 or sign fill
	OpNeg
	OpNot   // bitwise complement; logical not for Bool
	OpFMA   // a*b+c with one rounding
	OpMulHi // the high half of the double-width product
	OpClz   // count of leading zero bits; result U32
	OpPopc  // count of one bits; result U32

	// Comparisons; result Bool; NaN compares unequal and unordered as Go says.
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe

	OpConvert // numeric conversion with Go's rules (float→int truncates, never traps)
	OpBitcast // reinterpretation of bits between kinds of one width
	OpSelect  // Args[0] ? Args[1] : Args[2]

	OpPtrAdd // Args[0] + Args[1] (byte offset, I64); the space is kept

	OpLoad   // *Args[0], of the result type
	OpStore  // *Args[0] = Args[1]; no result
	OpAtomic // Index: AtomicOp; Args: ptr, v (, new for CAS); result: old value

	OpBarrier // all threads of the block wait; memory is visible after it
	OpMath    // Index: MathFn

	OpPhi // Args[i] comes from Block.Preds[i]

	// OpPoll reads the launch's stop word (gpuabi.TrapOffStop of the trap
	// record) afresh each time it runs: result Bool, true once the host
	// asked the launch to stop (its deadline passed). PollLoops puts one in
	// each loop the IR cannot prove finite; it has an effect (no pass may
	// remove, merge or hoist it), as a volatile load has.
	OpPoll
)

var opNames = [...]string{"invalid", "const", "param", "special", "local", "shared",
	"add", "sub", "mul", "div", "rem", "and", "or", "xor", "andnot", "shl", "shr", "neg", "not", "fma", "mulhi", "clz", "popc",
	"eq", "ne", "lt", "le", "gt", "ge", "convert", "bitcast", "select", "ptradd", "load", "store", "atomic",
	"barrier", "math", "phi", "poll"}

func (o Op) String() string { return opNames[o] }

// IsCompare reports whether o is a comparison.
func (o Op) IsCompare() bool { return o >= OpEq && o <= OpGe }

// Special registers read by OpSpecial (Index).
const (
	ThreadIdxX = iota
	ThreadIdxY
	ThreadIdxZ
	BlockIdxX
	BlockIdxY
	BlockIdxZ
	BlockDimX
	BlockDimY
	BlockDimZ
	GridDimX
	GridDimY
	GridDimZ
)

// SpecialName names the special registers in CUDA's words.
var SpecialName = [...]string{"tid.x", "tid.y", "tid.z", "ctaid.x", "ctaid.y", "ctaid.z",
	"ntid.x", "ntid.y", "ntid.z", "nctaid.x", "nctaid.y", "nctaid.z"}

// AtomicOp is the operation of an OpAtomic.
type AtomicOp int

const (
	AtomicAdd AtomicOp = iota
	AtomicMin
	AtomicMax
	AtomicExchange
	AtomicCAS
)

var atomicNames = [...]string{"add", "min", "max", "exch", "cas"}

func (a AtomicOp) String() string { return atomicNames[a] }

// MathFn is the function of an OpMath; operands and result are of one float
// kind (F32 or F64) unless said otherwise.
type MathFn int

const (
	MathSqrt MathFn = iota
	MathAbs
	MathFloor
	MathCeil
	MathTrunc
	MathCopysign
	MathMin // Go's min: NaN if either is NaN, -0 < +0
	MathMax
	MathExp
	MathLog
	MathSin
	MathCos
	MathPow
	MathSignbit // result Bool
	MathIsNaN   // result Bool (helper for lowering)
	MathRound   // half away from zero
)

var mathNames = [...]string{"sqrt", "abs", "floor", "ceil", "trunc", "copysign", "min", "max", "exp",
	"log", "sin", "cos", "pow", "signbit", "isnan", "round"}

func (m MathFn) String() string { return mathNames[m] }

// Value is an instruction that may produce a scalar value.
type Value struct {
	ID   int
	Op   Op
	Type Type // Void for stores and barriers
	Args []*Value
	// Imm is the constant of OpConst (float bits for floats) and the size
	// of OpLocal.
	Imm uint64
	// Index is the parameter slot, special register, shared variable,
	// atomic op, math function or local alignment, per Op.
	Index int
	// NoFuse marks a float OpMul or OpAdd/OpSub whose rounding Go requires
	// (an explicit conversion of a product): it must not be contracted.
	NoFuse bool
	// Fact marks a test of uniform values that a pass added before a
	// fast path whose slow path is always correct: a variant of the
	// kernel may assume it, chosen at launch ("Launch facts" in codegen/ABI.md).
	Fact  bool
	Block *Block
	Pos   token.Pos
}

// IsConst reports whether v is a constant.
func (v *Value) IsConst() bool { return v.Op == OpConst }

// Int returns a constant's value as a signed integer.
func (v *Value) Int() int64 { return int64(v.Imm) }

func (v *Value) String() string { return fmt.Sprintf("v%d", v.ID) }

// TermKind is how a block ends.
type TermKind uint8

const (
	TermNone   TermKind = iota
	TermJump            // to Succs[0]
	TermBranch          // Cond ? Succs[0] : Succs[1]
	TermReturn          // the kernel ends for this thread
	TermTrap            // record Trap and end the thread
)

// Trap describes the trap that ends a TermTrap block.
type Trap struct {
	Code gpuabi.TrapCode
	Pos  int       // index into Module.Positions
	Args [2]*Value // optional I64 details (index and length, ...)
	// Where is the position of a trap a pass made, which has no id in
	// Module.Positions yet: the lowering enters it there and sets Pos.
	Where string
}

// BlockKind records the Go construct a block came from, for emitters of
// structured control flow and for readers of dumps.
type BlockKind uint8

const (
	BlockPlain BlockKind = iota
	BlockLoopHeader
	BlockLoopBody
	BlockLoopDone
	BlockIfThen
	BlockIfElse
	BlockIfDone
)

// Block is a basic block.
type Block struct {
	Index  int
	Kind   BlockKind
	Values []*Value // phis first
	Term   TermKind
	Cond   *Value
	Trap   Trap
	Succs  []*Block
	Preds  []*Block
	// Comment is the go/ssa comment of the block it came from, if any.
	Comment string
	// Unrolled marks the header of a loop the optimizer has unrolled
	// already (UnrollRuntime's loop of groups and the loop that runs the
	// rest), having chosen the factor nvcc would: emitters tell the
	// target's compiler not to unroll it again, which would multiply the
	// factor (ptxas unrolled a PolyBench row loop a further 4 times, 36
	// loads in flight per thread against nvcc's 10, and it ran slower).
	Unrolled bool
}

// Param is one parameter slot of a kernel entry point.
type Param struct {
	Name string
	Type Type
	// Bytes is non-zero for a struct passed by value: the parameter is a
	// byte array of that size and Align in Go's layout, whose leaves are
	// read by OpParam values with their byte offset in Imm.
	Bytes, Align int
	// Len marks the length of a slice parameter: 0 <= Len < 2^48.
	Len bool
}

// Func is a kernel entry point with its device functions inlined.
type Func struct {
	Name   string // entry-point name
	Params []Param
	Blocks []*Block // Blocks[0] is the entry
	// Block is the fixed block shape (block=), zero if free.
	Block [3]int
	// Dims is how many dimensions of indices the kernel reads.
	Dims int
	// LoopPos holds the position ("file:line:col") of the Go loop each
	// loop header the lowering made comes from, and Pos the kernel's:
	// where PollLoops' deadline traps say the kernel stopped.
	LoopPos map[*Block]string
	Pos     string

	nextID int
}

// Module is a compilation unit: kernels sharing one position table and the
// shared variables they declare.
type Module struct {
	Funcs []*Func
	// Shared are the gpu.Shared variables, one per call expression in the
	// source (and per instantiated type).
	Shared []SharedVar
	// Positions are the source positions traps refer to, "file:line:col".
	Positions []string
	posIndex  map[string]int
	// PanicMessages holds, by position id, the constant argument of an
	// explicit panic at that position (panic("negative length")).
	PanicMessages map[int]string
}

// PanicMessage records the message of the panic at position id.
func (m *Module) PanicMessage(id int, msg string) {
	if m.PanicMessages == nil {
		m.PanicMessages = map[int]string{}
	}
	m.PanicMessages[id] = msg
}

// SharedVar is one block-shared variable.
type SharedVar struct {
	Name        string
	Size, Align int
}

// Pos returns the index of position p in the module's table, adding it.
func (m *Module) Pos(p string) int {
	if m.posIndex == nil {
		m.posIndex = map[string]int{}
	}
	if i, ok := m.posIndex[p]; ok {
		return i
	}
	m.Positions = append(m.Positions, p)
	m.posIndex[p] = len(m.Positions) - 1
	return len(m.Positions) - 1
}

// NewBlock appends a new block to f.
func (f *Func) NewBlock(kind BlockKind, comment string) *Block {
	b := &Block{Index: len(f.Blocks), Kind: kind, Comment: comment}
	f.Blocks = append(f.Blocks, b)
	return b
}

// NewValue appends a value to b.
func (f *Func) NewValue(b *Block, op Op, t Type, args ...*Value) *Value {
	v := &Value{ID: f.nextID, Op: op, Type: t, Args: args, Block: b}
	f.nextID++
	b.Values = append(b.Values, v)
	return v
}

// NewConst appends the constant x of type t to b.
func (f *Func) NewConst(b *Block, t Type, x uint64) *Value {
	c := f.NewValue(b, OpConst, t)
	c.Imm = x
	return c
}

// NewPhi inserts a phi at the start of b (after its other phis).
func (f *Func) NewPhi(b *Block, t Type) *Value {
	v := &Value{ID: f.nextID, Op: OpPhi, Type: t, Block: b}
	f.nextID++
	i := 0
	for i < len(b.Values) && b.Values[i].Op == OpPhi {
		i++
	}
	b.Values = append(b.Values, nil)
	copy(b.Values[i+1:], b.Values[i:])
	b.Values[i] = v
	return v
}

// NumValues is an upper bound of the value IDs of f.
func (f *Func) NumValues() int { return f.nextID }

// AddEdge links from → to.
func AddEdge(from, to *Block) {
	from.Succs = append(from.Succs, to)
	to.Preds = append(to.Preds, from)
}

// Jump ends b with a jump to to.
func (b *Block) Jump(to *Block) {
	b.Term = TermJump
	AddEdge(b, to)
}

// Branch ends b with a two-way branch.
func (b *Block) Branch(cond *Value, then, els *Block) {
	b.Term = TermBranch
	b.Cond = cond
	AddEdge(b, then)
	AddEdge(b, els)
}

// Return ends b with the end of the thread.
func (b *Block) Return() { b.Term = TermReturn }

// TrapWith ends b with a trap.
func (b *Block) TrapWith(t Trap) {
	b.Term = TermTrap
	b.Trap = t
}

// Phis returns the phis of b.
func (b *Block) Phis() []*Value {
	i := 0
	for i < len(b.Values) && b.Values[i].Op == OpPhi {
		i++
	}
	return b.Values[:i]
}

// SharedIndex returns the index of the shared variable with the given key
// (call site and type), adding it.
func (m *Module) SharedIndex(key string, size, align int) int {
	for i, s := range m.Shared {
		if s.Name == key {
			return i
		}
	}
	m.Shared = append(m.Shared, SharedVar{Name: key, Size: size, Align: align})
	return len(m.Shared) - 1
}
