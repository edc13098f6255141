package backend

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

func TestDecodeTrap(t *testing.T) {
	k := &Kernel{Name: "p.K", Pos: "/src/p/k.go:3", Code: &Code{Positions: []string{"k.go:5:3", "k.go:9:12"}}}
	rec := make([]byte, gpuabi.TrapRecordSize)
	if err := DecodeTrap(rec, k); err != nil {
		t.Fatalf("zero record: %v", err)
	}
	le := binary.LittleEndian
	le.PutUint32(rec[0:], uint32(gpuabi.TrapIndex))
	le.PutUint32(rec[4:], 1)
	for i, v := range []uint32{2, 0, 0, 31, 1, 0} {
		le.PutUint32(rec[8+4*i:], v)
	}
	le.PutUint64(rec[32:], 7)
	le.PutUint64(rec[40:], 4)
	var tr *Trap
	if err := DecodeTrap(rec, k); !errors.As(err, &tr) {
		t.Fatalf("got %v, want a *Trap", err)
	}
	want := Trap{Kernel: "p.K", Pos: "k.go:9:12", Block: gpu.Dim3{X: 2}, Thread: gpu.Dim3{X: 31, Y: 1}, Msg: "index out of range [7] with length 4"}
	if *tr != want {
		t.Errorf("decoded %+v, want %+v", *tr, want)
	}
	le.PutUint32(rec[0:], uint32(gpuabi.TrapDivide))
	le.PutUint32(rec[4:], 99) // position id out of the table
	if err := DecodeTrap(rec, k); !errors.As(err, &tr) || tr.Msg != "integer divide by zero" || tr.Pos == "" {
		t.Errorf("divide trap with unknown position: %+v", tr)
	}
}
