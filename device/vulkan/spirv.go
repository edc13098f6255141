package vulkan

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// The little of a SPIR-V module the backend reads before handing it to the
// driver: which entry points it has, and how much Workgroup (shared) memory
// each one's interface uses, so that a launch is refused with a clear error
// naming the kernel rather than failing inside the driver.

const spirvMagic = 0x07230203

// SPIR-V opcodes and enums used here.
const (
	opEntryPoint   = 15
	opTypeBool     = 20
	opTypeInt      = 21
	opTypeFloat    = 22
	opTypeVector   = 23
	opTypeMatrix   = 24
	opTypeArray    = 28
	opTypeStruct   = 30
	opTypePointer  = 32
	opConstant     = 43
	opVariable     = 59
	execGLCompute  = 5
	classWorkgroup = 4
)

type spirvEntry struct {
	shared int // bytes of Workgroup variables in its interface
}

type spirvModule struct {
	entries map[string]spirvEntry
}

// spirvType is a type's size and alignment under natural (scalar-aligned)
// layout, which is what drivers allocate Workgroup variables by.
type spirvType struct{ size, align int }

func parseSPIRV(code []byte) (*spirvModule, error) {
	if len(code) < 20 || len(code)%4 != 0 {
		return nil, fmt.Errorf("%d bytes is not a SPIR-V module", len(code))
	}
	le := binary.LittleEndian
	if le.Uint32(code) != spirvMagic {
		return nil, errors.New("no SPIR-V magic number (not a SPIR-V module, or big-endian)")
	}
	words := make([]uint32, len(code)/4)
	for i := range words {
		words[i] = le.Uint32(code[4*i:])
	}
	type entry struct {
		name  string
		iface []uint32
	}
	var entries []entry
	types := map[uint32]spirvType{}
	consts := map[uint32]uint64{}
	pointee := map[uint32]uint32{}       // pointer type → pointee type
	workgroupVars := map[uint32]uint32{} // variable → its pointer type
	for i := 5; i < len(words); {
		n, op := int(words[i]>>16), words[i]&0xffff
		if n == 0 || i+n > len(words) {
			return nil, fmt.Errorf("malformed instruction at word %d", i)
		}
		w := words[i+1 : i+n]
		switch op {
		case opEntryPoint:
			if len(w) >= 3 && w[0] == execGLCompute {
				name, rest := literalString(w[2:])
				entries = append(entries, entry{name, rest})
			}
		case opTypeBool:
			types[w[0]] = spirvType{4, 4}
		case opTypeInt, opTypeFloat:
			s := int(w[1]) / 8
			types[w[0]] = spirvType{s, s}
		case opTypeVector, opTypeMatrix:
			e := types[w[1]]
			types[w[0]] = spirvType{e.size * int(w[2]), e.align}
		case opTypeArray:
			e := types[w[1]]
			stride := (e.size + e.align - 1) / max(e.align, 1) * max(e.align, 1)
			types[w[0]] = spirvType{stride * int(consts[w[2]]), e.align}
		case opTypeStruct:
			size, align := 0, 1
			for _, m := range w[1:] {
				t := types[m]
				a := max(t.align, 1)
				size = (size+a-1)/a*a + t.size
				align = max(align, a)
			}
			types[w[0]] = spirvType{(size + align - 1) / align * align, align}
		case opTypePointer:
			pointee[w[0]] = w[2]
		case opConstant:
			if len(w) >= 3 {
				v := uint64(w[2])
				if len(w) >= 4 {
					v |= uint64(w[3]) << 32
				}
				consts[w[1]] = v
			}
		case opVariable:
			if len(w) >= 3 && w[2] == classWorkgroup {
				workgroupVars[w[1]] = w[0]
			}
		}
		i += n
	}
	m := &spirvModule{entries: map[string]spirvEntry{}}
	for _, e := range entries {
		var shared int
		for _, id := range e.iface {
			if pt, ok := workgroupVars[id]; ok {
				shared += types[pointee[pt]].size
			}
		}
		m.entries[e.name] = spirvEntry{shared: shared}
	}
	return m, nil
}

// literalString decodes a SPIR-V literal string and returns the words after it.
func literalString(w []uint32) (string, []uint32) {
	var b []byte
	for i, x := range w {
		for k := 0; k < 4; k++ {
			c := byte(x >> (8 * k))
			if c == 0 {
				return string(b), w[i+1:]
			}
			b = append(b, c)
		}
	}
	return string(b), nil
}

// SPIR-V enums of the float-controls instructions dropFloatModes edits.
const (
	opExecutionMode = 16
	opCapability    = 17
)

// floatModes are the float-controls execution modes the emitter declares,
// by name, with the capability each needs.
var floatModes = map[string]struct{ mode, capability uint32 }{
	"DenormPreserve":           {4459, 4464},
	"SignedZeroInfNanPreserve": {4461, 4466},
	"RoundingModeRTE":          {4462, 4467},
}

// dropFloatModes returns words (a module parseSPIRV accepted) without the
// float-controls execution modes drop names, each for the float widths it
// lists (nil: every width), and without a mode's capability once none of
// its modes is left: a device without shaderDenormPreserveFloatN must not
// be given DenormPreserve N.
func dropFloatModes(words []uint32, drop map[uint32][]uint32) []uint32 {
	if len(drop) == 0 || len(words) < 5 {
		return words
	}
	capOf := map[uint32]uint32{} // mode → its capability
	for _, m := range floatModes {
		capOf[m.mode] = m.capability
	}
	out := append([]uint32(nil), words[:5]...)
	kept := map[uint32]bool{} // capabilities a mode left needs
	capAt := map[uint32]int{} // where a dropped mode's capability stands in out
	if !eachInstruction(words, func(op uint32, w []uint32) {
		if op == opExecutionMode && len(w) == 3 {
			if widths, ok := drop[w[1]]; ok && (widths == nil || slices.Contains(widths, w[2])) {
				return
			}
			kept[capOf[w[1]]] = true
		}
		if op == opCapability && len(w) == 1 {
			for mode := range drop {
				if capOf[mode] == w[0] {
					capAt[w[0]] = len(out)
				}
			}
		}
		out = append(out, uint32(len(w)+1)<<16|op)
		out = append(out, w...)
	}) {
		return words // malformed: leave it to the driver's validation
	}
	var cut []int
	for c, at := range capAt {
		if !kept[c] {
			cut = append(cut, at)
		}
	}
	slices.Sort(cut)
	for j := len(cut) - 1; j >= 0; j-- {
		out = append(out[:cut[j]], out[cut[j]+2:]...)
	}
	return out
}

// SPIR-V opcode and memory-semantics bits narrowBarriers reads.
const (
	opControlBarrier     = 224
	semWorkgroupMemory   = 0x100
	semStorageClassesAll = 0xfc0 // Uniform, Subgroup, Workgroup, CrossWorkgroup, AtomicCounter, Image
)

// narrowBarriers returns words (a module parseSPIRV accepted) with every
// OpControlBarrier's memory semantics limited to the storage classes in
// keep, its ordering bits left as they are. The semantics are an id of a
// constant another instruction may use too, so each barrier is given a
// new constant, declared after the one it replaces, and the module's id
// bound grows by one per constant replaced.
func narrowBarriers(words []uint32, keep uint32) []uint32 {
	if len(words) < 5 {
		return words
	}
	// A barrier's semantics constant → its replacement (0 until known; a
	// barrier whose semantics are no OpConstant keeps them).
	semantics := map[uint32]uint32{}
	if !eachInstruction(words, func(op uint32, w []uint32) {
		if op == opControlBarrier && len(w) == 3 {
			semantics[w[2]] = 0
		}
	}) || len(semantics) == 0 {
		return words // malformed, or no barrier
	}
	out := append([]uint32(nil), words[:5]...)
	eachInstruction(words, func(op uint32, w []uint32) {
		out = append(out, uint32(len(w)+1)<<16|op)
		switch {
		case op == opControlBarrier && len(w) == 3 && semantics[w[2]] != 0:
			out = append(out, w[0], w[1], semantics[w[2]])
			return
		case op == opConstant && len(w) == 3:
			if _, ok := semantics[w[1]]; ok {
				id := out[3]
				out[3]++
				semantics[w[1]] = id
				out = append(out, w...)
				out = append(out, 4<<16|opConstant, w[0], id, w[2]&^(semStorageClassesAll&^keep))
				return
			}
		}
		out = append(out, w...)
	})
	return out
}

// eachInstruction calls f with each instruction of words (a module,
// header included) after the header, and reports whether every
// instruction was whole.
func eachInstruction(words []uint32, f func(op uint32, operands []uint32)) bool {
	for i := 5; i < len(words); {
		n, op := int(words[i]>>16), words[i]&0xffff
		if n == 0 || i+n > len(words) {
			return false
		}
		f(op, words[i+1:i+n])
		i += n
	}
	return true
}
