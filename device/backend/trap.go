package backend

import (
	"encoding/binary"
	"fmt"

	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// DecodeTrap turns a trap record (internal/gpuabi's layout) left by kernel k
// into a *Trap, or nil when the record holds none. Every GPU backend reports
// traps through it, so they read the same everywhere.
func DecodeTrap(rec []byte, k *Kernel) error {
	le := binary.LittleEndian
	code := gpuabi.TrapCode(le.Uint32(rec[gpuabi.TrapOffCode:]))
	if code == gpuabi.TrapNone {
		return nil
	}
	posid := le.Uint32(rec[gpuabi.TrapOffPos:])
	dim := func(off int) gpu.Dim3 {
		return gpu.Dim3{X: int(le.Uint32(rec[off:])), Y: int(le.Uint32(rec[off+4:])), Z: int(le.Uint32(rec[off+8:]))}
	}
	e := &Trap{
		Kernel: k.Name,
		Block:  dim(gpuabi.TrapOffBlock),
		Thread: dim(gpuabi.TrapOffThread),
		Msg:    code.Message(int64(le.Uint64(rec[gpuabi.TrapOffArg0:])), int64(le.Uint64(rec[gpuabi.TrapOffArg1:]))),
	}
	if k.Code != nil && int(posid) < len(k.Code.Positions) {
		e.Pos = k.Code.Positions[posid]
	} else {
		e.Pos = fmt.Sprintf("%s (position id %d)", k.Pos, posid)
	}
	return e
}
