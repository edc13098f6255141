package gpuabi

import "fmt"

// Launch facts. The kernel-IR optimizer versions code on tests of uniform
// values (the same in every thread of a launch: kernel parameters, slice
// lengths, block and grid dimensions): a stencil's fast path runs when the
// grid's extents and the slices' lengths keep every index in range, and a
// slow path that checks each access one by one runs otherwise. A test of
// uniform values has one outcome for the whole launch, so the runtime can
// decide it on the host: a module may carry, beside a kernel's entry
// point, a variant compiled assuming its facts hold (no test, no slow
// path), and a backend launches the variant when Facts.Eval says they do.
//
// Facts is a program in the kernel IR's own terms, so that the host
// computes exactly what the device would: each op pushes one value (its
// bits, zero- or sign-extended to 64 by its kind) computed from earlier
// ops; the facts hold when every op listed in Result is true.
type Facts struct {
	Ops    []FactOp `json:"ops"`
	Result []int    `json:"result"`
}

// FactOp is one operation of a Facts program.
type FactOp struct {
	// Op is "param" (Index: the PTX parameter number, Imm: the byte
	// offset inside it), "special" (Index: FactSpecials), "const" (Imm:
	// the bits), or an operation of the kernel IR: add sub mul and or xor
	// andnot shl shr neg not eq ne lt le gt ge convert bitcast select.
	Op    string `json:"op"`
	Kind  string `json:"kind"` // the result's kind: bool i8 i16 i32 i64 u8 u16 u32 u64
	Args  []int  `json:"args,omitempty"`
	Imm   uint64 `json:"imm,omitempty"`
	Index int    `json:"index,omitempty"`
}

// FactSpecials names the special registers a fact may read, by Index:
// block and grid dimensions (thread and block indices are not uniform).
var FactSpecials = []string{"ntid.x", "ntid.y", "ntid.z", "nctaid.x", "nctaid.y", "nctaid.z"}

// FactKinds are the kinds a fact's values may have, with their widths in
// bits and signedness.
var FactKinds = map[string]struct {
	Bits   int
	Signed bool
}{
	"bool": {1, false}, "i8": {8, true}, "i16": {16, true}, "i32": {32, true}, "i64": {64, true},
	"u8": {8, false}, "u16": {16, false}, "u32": {32, false}, "u64": {64, false},
}

// Eval computes the facts of a launch: param returns the bits of size
// bytes at offset off of PTX parameter i (little-endian, zero-extended),
// block and grid are the launch's shape. It returns an error for a
// malformed program (an unknown op or kind, an operand that is not an
// earlier op, a parameter param cannot read), never a wrong answer.
func (fs *Facts) Eval(param func(i, off, size int) (uint64, bool), block, grid [3]uint32) (bool, error) {
	if fs == nil || len(fs.Result) == 0 {
		return false, nil
	}
	vals := make([]uint64, len(fs.Ops))
	for i, op := range fs.Ops {
		k, ok := FactKinds[op.Kind]
		if !ok {
			return false, fmt.Errorf("launch facts: op %d: unknown kind %q", i, op.Kind)
		}
		// Operands in fixed arrays: no allocation per op for the
		// ops there are (at most three operands).
		var argBuf [3]uint64
		var kindBuf [3]string
		args, argKinds := argBuf[:0], kindBuf[:0]
		if len(op.Args) > len(argBuf) {
			args, argKinds = make([]uint64, 0, len(op.Args)), make([]string, 0, len(op.Args))
		}
		args, argKinds = args[:len(op.Args)], argKinds[:len(op.Args)]
		for j, a := range op.Args {
			if a < 0 || a >= i {
				return false, fmt.Errorf("launch facts: op %d: operand %d is not an earlier op", i, a)
			}
			args[j], argKinds[j] = vals[a], fs.Ops[a].Kind
		}
		v, err := evalFact(op, k.Bits, k.Signed, args, argKinds, param, block, grid)
		if err != nil {
			return false, fmt.Errorf("launch facts: op %d (%s): %w", i, op.Op, err)
		}
		vals[i] = extend(v, k.Bits, k.Signed)
	}
	for _, r := range fs.Result {
		if r < 0 || r >= len(vals) || fs.Ops[r].Kind != "bool" {
			return false, fmt.Errorf("launch facts: result %d is not a bool op", r)
		}
		if vals[r] == 0 {
			return false, nil
		}
	}
	return true, nil
}

// extend keeps the low width bits of v, sign- or zero-extended to 64.
func extend(v uint64, width int, signed bool) uint64 {
	if width >= 64 {
		return v
	}
	v &= 1<<width - 1
	if signed && v>>(width-1) != 0 {
		v |= ^uint64(0) << width
	}
	return v
}

// factOperands is the number of operands of each op that does not take
// two (Eval runs at every launch: one map, not one per op).
var factOperands = map[string]int{"param": 0, "special": 0, "const": 0, "neg": 1, "not": 1, "convert": 1, "bitcast": 1, "select": 3}

func evalFact(op FactOp, width int, signed bool, a []uint64, argKinds []string, param func(i, off, size int) (uint64, bool), block, grid [3]uint32) (uint64, error) {
	n, ok := factOperands[op.Op]
	if !ok {
		n = 2
	}
	if len(a) != n {
		return 0, fmt.Errorf("%d operands, want %d", len(a), n)
	}
	// Comparisons and shifts read their operands' kind.
	opSigned := n > 0 && FactKinds[argKinds[0]].Signed
	b2u := func(c bool) uint64 {
		if c {
			return 1
		}
		return 0
	}
	less := func(x, y uint64) bool {
		if opSigned {
			return int64(x) < int64(y)
		}
		return x < y
	}
	switch op.Op {
	case "param":
		if width%8 != 0 {
			return 0, fmt.Errorf("parameter of kind %s", op.Kind)
		}
		v, ok := param(op.Index, int(op.Imm), width/8)
		if !ok {
			return 0, fmt.Errorf("no parameter %d bytes %d+%d", op.Index, op.Imm, width/8)
		}
		return v, nil
	case "special":
		if op.Index < 0 || op.Index >= len(FactSpecials) {
			return 0, fmt.Errorf("special register %d", op.Index)
		}
		if op.Index < 3 {
			return uint64(block[op.Index]), nil
		}
		return uint64(grid[op.Index-3]), nil
	case "const":
		return op.Imm, nil
	case "add":
		return a[0] + a[1], nil
	case "sub":
		return a[0] - a[1], nil
	case "mul":
		return a[0] * a[1], nil
	case "and":
		return a[0] & a[1], nil
	case "or":
		return a[0] | a[1], nil
	case "xor":
		return a[0] ^ a[1], nil
	case "andnot":
		return a[0] &^ a[1], nil
	case "shl":
		if a[1] >= uint64(width) {
			return 0, nil
		}
		return a[0] << a[1], nil
	case "shr":
		s := min(a[1], uint64(width)) // operands are extended to 64 bits
		if signed {
			return uint64(int64(a[0]) >> min(s, 63)), nil
		}
		if s >= 64 {
			return 0, nil
		}
		return extend(a[0], width, false) >> s, nil
	case "neg":
		return -a[0], nil
	case "not":
		if op.Kind == "bool" {
			return a[0] ^ 1, nil
		}
		return ^a[0], nil
	case "eq":
		return b2u(a[0] == a[1]), nil
	case "ne":
		return b2u(a[0] != a[1]), nil
	case "lt":
		return b2u(less(a[0], a[1])), nil
	case "le":
		return b2u(!less(a[1], a[0])), nil
	case "gt":
		return b2u(less(a[1], a[0])), nil
	case "ge":
		return b2u(!less(a[0], a[1])), nil
	case "convert", "bitcast":
		// Integer to integer: the operand's bits, extended by its own
		// kind (already done), then cut to the result's width by the
		// caller.
		return a[0], nil
	case "select":
		if a[0] != 0 {
			return a[1], nil
		}
		return a[2], nil
	}
	return 0, fmt.Errorf("unknown op")
}
