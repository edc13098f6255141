// Package gpuabi is the one definition of the contract between the code the
// emitters generate and the runtimes that launch it: the trap record a
// trapping thread leaves for the host, its codes and messages, the
// layout of kernel parameters in a Vulkan push-constant block, and the
// position comments of PTX that trace a ptxas log back to Go lines. Emitters
// (codegen/ptx, codegen/llvm, codegen/spirv) and backends (device/cuda,
// device/vulkan) import it, so the two sides cannot disagree.
package gpuabi

import "fmt"

// The trap record: 56 bytes in device memory, zeroed before a launch. The
// first thread to trap wins a compare-and-swap on the code and fills in the
// rest. The stop word is the host's: it writes 1 there when the launch's
// deadline passes, and a kernel reads its low 32 bits in every iteration of
// a loop the compiler cannot prove finite (kir.PollLoops) and traps with
// TrapDeadline once it is set, so that a loop that never ends is stopped.
const (
	TrapRecordSize = 56
	TrapOffCode    = 0  // u32: a TrapCode, 0 = no trap
	TrapOffPos     = 4  // u32: index into the module's position table
	TrapOffBlock   = 8  // u32[3]: block index x, y, z
	TrapOffThread  = 20 // u32[3]: thread index x, y, z
	TrapOffArg0    = 32 // i64: the index (TrapIndex) or the bound (TrapSlice)
	TrapOffArg1    = 40 // i64: the length (TrapIndex) or the limit (TrapSlice)
	TrapOffStop    = 48 // u64: the stop word, set by the host (0: run on)
)

// TrapField is one field of the trap record, as the manifest and
// codegen/ABI.md describe it.
type TrapField struct {
	Name   string // the manifest's name
	Type   string // Go type: uint32, [3]uint32, int64
	Offset int
	Size   int
}

// TrapFields lists the trap record's fields in order; they fill the
// TrapRecordSize bytes.
var TrapFields = []TrapField{
	{"code", "uint32", TrapOffCode, 4},
	{"posid", "uint32", TrapOffPos, 4},
	{"blockIdx", "[3]uint32", TrapOffBlock, 12},
	{"threadIdx", "[3]uint32", TrapOffThread, 12},
	{"arg0", "int64", TrapOffArg0, 8},
	{"arg1", "int64", TrapOffArg1, 8},
	{"stop", "uint64", TrapOffStop, 8},
}

// TrapParamName is the name of the hidden last kernel parameter that holds
// the trap record's address.
const TrapParamName = "__gpukvet_trap"

// TrapCode is the cause of a trap.
type TrapCode uint32

// The trap codes.
const (
	TrapNone        TrapCode = 0
	TrapIndex       TrapCode = 1 // index out of range
	TrapSlice       TrapCode = 2 // slice bounds out of range
	TrapDivide      TrapCode = 3 // integer divide by zero
	TrapShift       TrapCode = 4 // negative shift amount
	TrapPanic       TrapCode = 5 // explicit panic
	TrapNil         TrapCode = 6 // nil pointer dereference
	TrapUnreachable TrapCode = 7 // unreachable code reached
	TrapDeadline    TrapCode = 8 // the host set the stop word: the launch's deadline passed
)

// TrapCodes lists the codes a trap record can hold (all but TrapNone).
var TrapCodes = []TrapCode{TrapIndex, TrapSlice, TrapDivide, TrapShift, TrapPanic, TrapNil, TrapUnreachable, TrapDeadline}

var trapNames = map[TrapCode]string{
	TrapIndex: "index out of range", TrapSlice: "slice bounds out of range",
	TrapDivide: "integer divide by zero", TrapShift: "negative shift amount", TrapPanic: "panic",
	TrapNil: "nil pointer dereference", TrapUnreachable: "unreachable",
	TrapDeadline: "deadline",
}

// String is a short name of the code.
func (c TrapCode) String() string {
	if s, ok := trapNames[c]; ok {
		return s
	}
	return fmt.Sprintf("trap code %d", uint32(c))
}

// Message says what happened as Go's run-time panic would, given the record's
// two arguments.
func (c TrapCode) Message(arg0, arg1 int64) string {
	switch c {
	case TrapIndex:
		return fmt.Sprintf("index out of range [%d] with length %d", arg0, arg1)
	case TrapSlice:
		return fmt.Sprintf("slice bounds out of range [%d] with capacity %d", arg0, arg1)
	case TrapDivide:
		return "integer divide by zero"
	case TrapShift:
		return "negative shift amount"
	case TrapPanic:
		return "panic (its value is not kept on the GPU)"
	case TrapNil:
		return "invalid memory address or nil pointer dereference"
	case TrapUnreachable:
		return "unreachable code reached"
	case TrapDeadline:
		return "stopped in a loop: the launch's deadline passed"
	}
	return c.String()
}

// ParamKind says how a Go kernel parameter is passed.
type ParamKind int

// The parameter kinds.
const (
	Scalar ParamKind = iota // bool, integers, floats
	Slice                   // device address and length
	Struct                  // by value, in Go's layout
)

// Param describes one Go kernel parameter (after the gpu.Thread) for layout:
// Size and Align are Go's (gc, amd64) for scalars and structs; for slices
// they are ignored.
type Param struct {
	Kind        ParamKind
	Size, Align int
}

// Slot is where one entry parameter lives in a push-constant block.
type Slot struct {
	Offset, Size int
}

// PushLayout is the layout of a kernel's push-constant block on Vulkan:
// the entry parameters in order (PTX's order: a slice is a u64 device
// address then an i64 length), each at the next offset aligned for it, and
// the trap record's u64 address last.
//
//   - a scalar narrower than 4 bytes (bool, 8- and 16-bit integers) takes a
//     4-byte slot, zero- or sign-extended, so no 8- or 16-bit push-constant
//     storage is needed; wider scalars take their size and alignment;
//   - a slice takes two 8-byte slots (address, length);
//   - a struct takes its Go bytes at alignment max(4, Go's alignment), its
//     size rounded up to a multiple of 4 (an emitter reads narrow fields
//     through 32-bit loads).
//
// Params[i] maps to Slots[Entry[i]...]: one slot, or two for a slice.
//
// A parameter block larger than MinPushConstantsSize is passed through an
// argument buffer instead (Indirect): the block, laid out the same way, is
// in device memory, and the push-constant block is one u64 at offset 0,
// the block's device address (ArgsAlign-aligned). The rule is fixed at
// build time against Vulkan's minimum, not the device's limit, so one
// module runs on every device.
type PushLayout struct {
	Slots []Slot
	Entry [][]int // Entry[i]: the slot indices of Go parameter i
	Trap  Slot
	Size  int // bytes of the parameter block in all
	// Indirect: Size > MinPushConstantsSize, so the block is in an
	// argument buffer whose address is the one push constant.
	Indirect bool
	// PushSize is the push-constant range's size: Size, or 8 (the
	// argument buffer's address) when Indirect.
	PushSize int
}

// MinPushConstantsSize is the push-constant space every Vulkan device has;
// devices may have more (256 bytes on NVIDIA's and Mesa's drivers). A
// parameter block beyond it goes in an argument buffer (PushLayout.Indirect).
const MinPushConstantsSize = 128

// ArgsAlign is the alignment of an argument buffer's address: enough for
// every slot (at most 8) with room for a 16-byte vector load.
const ArgsAlign = 16

// MaxArgsSize bounds a parameter block (vkCmdUpdateBuffer writes at most
// 65536 bytes, which is where a runtime may put it).
const MaxArgsSize = 65536

// LayoutPush computes the push-constant layout of a kernel's parameters.
func LayoutPush(params []Param) PushLayout {
	var l PushLayout
	off := 0
	place := func(size, align int) int {
		off = (off + align - 1) / align * align
		l.Slots = append(l.Slots, Slot{Offset: off, Size: size})
		off += size
		return len(l.Slots) - 1
	}
	for _, p := range params {
		switch p.Kind {
		case Slice:
			l.Entry = append(l.Entry, []int{place(8, 8), place(8, 8)})
		case Struct:
			l.Entry = append(l.Entry, []int{place((p.Size+3)/4*4, max(4, p.Align))})
		default:
			size := max(4, p.Size)
			l.Entry = append(l.Entry, []int{place(size, size)})
		}
	}
	l.Trap = l.Slots[place(8, 8)]
	l.Slots = l.Slots[:len(l.Slots)-1]
	l.Size = off
	l.Indirect = l.Size > MinPushConstantsSize
	l.PushSize = l.Size
	if l.Indirect {
		l.PushSize = 8
	}
	return l
}
