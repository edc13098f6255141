package cuda

import (
	"encoding/binary"
	"fmt"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// A trap record is what a trapping kernel thread leaves for the host (the
// layout is the codegen's PTX ABI, /codegen's docs): the first thread to trap
// wins a compare-and-swap on code and fills in the rest, then every trapping
// thread exits. The context stays usable, unlike PTX's `trap;`.
//
//	off  0 u32     code (0 = no trap)
//	off  4 u32     position id, an index into Code.Positions
//	off  8 u32[3]  block index
//	off 20 u32[3]  thread index
//	off 32 i64     arg0 (index, or bound)
//	off 40 i64     arg1 (length, or capacity)
const trapRecordSize = 48

// Trap codes.
const (
	trapIndex       = 1
	trapSlice       = 2
	trapDivide      = 3
	trapShift       = 4
	trapPanic       = 5
	trapNil         = 6
	trapUnreachable = 7
)

// TrapError is a kernel that trapped on the GPU: a Go run-time panic inside
// the kernel (an index out of range, a division by zero, an explicit panic).
type TrapError struct {
	Kernel string   // qualified kernel name
	Pos    string   // Go source position of the trapping expression
	Block  gpu.Dim3 // block of the first thread that trapped
	Thread gpu.Dim3 // that thread within its block
	Reason string   // Go's run-time error text
	Code   int      // the trap code
}

func (e *TrapError) Error() string {
	return fmt.Sprintf("kernel %s trapped at %s (block %d,%d,%d thread %d,%d,%d): %s",
		e.Kernel, e.Pos, e.Block.X, e.Block.Y, e.Block.Z, e.Thread.X, e.Thread.Y, e.Thread.Z, e.Reason)
}

// decodeTrap turns a trap record into an error, or nil when it holds none.
func decodeTrap(rec []byte, k *backend.Kernel) error {
	le := binary.LittleEndian
	code := le.Uint32(rec[0:])
	if code == 0 {
		return nil
	}
	posid := le.Uint32(rec[4:])
	u := func(off int) int { return int(le.Uint32(rec[off:])) }
	arg0, arg1 := int64(le.Uint64(rec[32:])), int64(le.Uint64(rec[40:]))
	e := &TrapError{
		Kernel: k.Name,
		Block:  gpu.Dim3{X: u(8), Y: u(12), Z: u(16)},
		Thread: gpu.Dim3{X: u(20), Y: u(24), Z: u(28)},
		Code:   int(code),
	}
	if k.Code != nil && int(posid) < len(k.Code.Positions) {
		e.Pos = k.Code.Positions[posid]
	} else {
		e.Pos = fmt.Sprintf("%s (position id %d)", k.Pos, posid)
	}
	switch code {
	case trapIndex:
		e.Reason = fmt.Sprintf("index out of range [%d] with length %d", arg0, arg1)
	case trapSlice:
		e.Reason = fmt.Sprintf("slice bounds out of range [%d] with capacity %d", arg0, arg1)
	case trapDivide:
		e.Reason = "integer divide by zero"
	case trapShift:
		e.Reason = "negative shift amount"
	case trapPanic:
		e.Reason = "panic"
	case trapNil:
		e.Reason = "invalid memory address or nil pointer dereference"
	case trapUnreachable:
		e.Reason = "unreachable code reached"
	default:
		e.Reason = fmt.Sprintf("trap code %d", code)
	}
	return e
}
