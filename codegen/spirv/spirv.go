// Package spirv emits a SPIR-V module (Vulkan compute) from kernel IR.
//
// The module is SPIR-V 1.5 for a Vulkan 1.2 environment (spirv-val
// --target-env vulkan1.2): capabilities Shader, PhysicalStorageBufferAddresses
// and Int64 always, Float64, Int16, Int8, 8- and 16-bit storage and 64-bit
// atomics only where a kernel uses them; addressing model
// PhysicalStorageBuffer64, memory model GLSL450; one OpEntryPoint GLCompute
// per kernel, named as the PTX entry. codegen/ABI.md ("SPIR-V") documents
// the contract with a Vulkan runtime; internal/gpuabi holds its one
// definition (trap record, push-constant layout).
//
// Values: every kir value is one SPIR-V id. Integers of 8 to 32 bits are
// held as 32-bit integers, sign- or zero-extended after every operation (as
// the PTX emitter does), 64-bit integers as 64-bit; SPIR-V integer types
// carry no sign here (OpTypeInt N 0), signedness is in the instructions.
// Pointers are 64-bit integers: a global pointer is the buffer device
// address, a shared or local pointer is a byte offset into the kernel's
// Workgroup or Function word array with a tag in bits 62-63, so that a
// pointer converts between spaces for free and the generic space needs no
// other representation.
//
// Control flow is structured (OpLoopMerge, OpSelectionMerge) from
// kir.Analyze's loops and a merge analysis that ignores paths that leave a
// construct (break, continue, return, trap); where that finds no merge, a
// general strategy joins the places a branch's code goes on to into one
// block with a dispatch after it (structure.go).
package spirv

import (
	"encoding/binary"
	"fmt"
	"go/token"
	"sort"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// Options configure Emit.
type Options struct{}

// Result is an emitted module and what each entry point needs.
type Result struct {
	// Binary is the SPIR-V module (little-endian words).
	Binary []byte
	// Features are the optional Vulkan device features the module needs
	// (the vocabulary of backend.Code.SPIRVFeatures), sorted. A device
	// must have every one to create the module, whichever entry point is
	// used: the module declares the capabilities of all its kernels.
	Features []string
	// EntryFeatures are the features each entry point's own code needs.
	EntryFeatures map[string][]string
	// SharedBytes is the Workgroup memory of each entry point.
	SharedBytes map[string]int
	// Failed maps the entry points that could not be emitted (and are not
	// in the module) to why.
	Failed map[string]error
}

// Emit returns the SPIR-V module of the functions of m. A function that
// cannot be emitted (an IR shape that SPIR-V's structured control flow
// cannot express as emitted here) is left out and named in Result.Failed
// with the reason; the module holds the others. With no function left,
// Binary is nil.
func Emit(m *kir.Module, opts Options) (*Result, error) {
	res := &Result{EntryFeatures: map[string][]string{}, SharedBytes: map[string]int{}, Failed: map[string]error{}}
	var ok []*funcEmitter
	b := newBuilder()
	for _, f := range m.Funcs {
		fe := &funcEmitter{mod: m, f: f, b: b, feats: map[string]bool{}, floats: map[int]bool{}}
		// Emit into a scratch builder first so that a failure leaves
		// nothing behind in the module.
		scratch := b.fork()
		fe.b = scratch
		if err := fe.emit(); err != nil {
			res.Failed[f.Name] = err
			continue
		}
		b.join(scratch)
		fe.b = b
		ok = append(ok, fe)
		var fs []string
		for k := range fe.feats {
			fs = append(fs, k)
		}
		sort.Strings(fs)
		res.EntryFeatures[f.Name] = fs
		res.SharedBytes[f.Name] = fe.sharedBytes
	}
	if len(ok) == 0 {
		return res, nil
	}
	all := map[string]bool{}
	for _, fe := range ok {
		for k := range fe.feats {
			all[k] = true
		}
	}
	for k := range all {
		res.Features = append(res.Features, k)
	}
	sort.Strings(res.Features)
	res.Binary = b.finish()
	return res, nil
}

// Error is an emission failure at a Go source position.
type Error struct {
	Entry  string
	TokPos token.Pos // a position in the Go source the kernel came from, if known
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("spirv: kernel %s: %s", e.Entry, e.Msg) }

// strWords encodes a literal string as SPIR-V words (NUL-terminated,
// padded).
func strWords(s string) []uint32 {
	b := append([]byte(s), 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}
