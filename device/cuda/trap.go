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
	e := &backend.Trap{
		Kernel: k.Name,
		Block:  gpu.Dim3{X: u(8), Y: u(12), Z: u(16)},
		Thread: gpu.Dim3{X: u(20), Y: u(24), Z: u(28)},
	}
	if k.Code != nil && int(posid) < len(k.Code.Positions) {
		e.Pos = k.Code.Positions[posid]
	} else {
		e.Pos = fmt.Sprintf("%s (position id %d)", k.Pos, posid)
	}
	switch code {
	case trapIndex:
		e.Msg = fmt.Sprintf("index out of range [%d] with length %d", arg0, arg1)
	case trapSlice:
		e.Msg = fmt.Sprintf("slice bounds out of range [%d] with capacity %d", arg0, arg1)
	case trapDivide:
		e.Msg = "integer divide by zero"
	case trapShift:
		e.Msg = "negative shift amount"
	case trapPanic:
		e.Msg = "panic (its value is not kept on the GPU)"
	case trapNil:
		e.Msg = "invalid memory address or nil pointer dereference"
	case trapUnreachable:
		e.Msg = "unreachable code reached"
	default:
		e.Msg = fmt.Sprintf("trap code %d", code)
	}
	return e
}
