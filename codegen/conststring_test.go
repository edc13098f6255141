package codegen_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
)

// word mixes ASCII, two- and three-byte UTF-8 and an invalid byte, which
// range decodes as U+FFFD.
const word = "héllo, wörld €\xff!"

var constStringSource = fmt.Sprintf(`package apicalls

import "github.com/gpukvet/gpukvet/gpu"

const word = %q

//gpu:kernel
func Index(t gpu.Thread, idx []int, out []byte) {
	i := t.GlobalIdx().X
	if i < len(idx) && i < len(out) {
		out[i] = word[idx[i]]
	}
}

//gpu:kernel
func Range(t gpu.Thread, offs []int, runes []rune, keys []int, vals []rune) {
	if t.GlobalIdx().X != 0 {
		return
	}
	n := 0
	for o, r := range word {
		offs[n] = o
		runes[n] = r
		n++
	}
	n = 0
	for o := range word {
		keys[n] = o
		n++
	}
	n = 0
	for _, r := range word {
		vals[n] = r
		n++
	}
}
`, word)

// TestConstantStrings compiles indexing and ranging over a constant string
// (which DIALECT.md allows) with every check, for every target, and runs
// the kernels in the kir interpreter against Go.
func TestConstantStrings(t *testing.T) {
	m, err := buildSource(t, constStringSource, codegen.Options{Checks: analyzers.All(), SPIRV: true})
	if err != nil {
		t.Fatal(err)
	}
	compileEverywhere(t, "conststrings", m)

	kernel := func(name string) (*codegen.KernelInfo, int) {
		for i := range m.Manifest.Kernels {
			if m.Manifest.Kernels[i].Name == name {
				return m.Manifest.Kernels[i], i
			}
		}
		t.Fatalf("no kernel %s", name)
		return nil, 0
	}
	// run launches a kernel on n threads with one buffer per parameter.
	run := func(name string, n int, bufs map[string][]byte) *kirexec.Trap {
		k, i := kernel(name)
		f := m.IR.Funcs[i]
		args := make([]kirexec.Arg, len(f.Params))
		for _, p := range k.Params {
			args[p.Entry[0]] = kirexec.Arg{Buf: &kirexec.Buffer{Name: p.Name, Data: bufs[p.Name]}}
			args[p.Entry[1]] = kirexec.Arg{Bits: uint64(len(bufs[p.Name])) / uint64(p.ElemSize)}
		}
		trap, err := kirexec.Run(f, m.IR.Shared, [3]int{n, 1, 1}, [3]int{1, 1, 1}, args)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return trap
	}

	idx := make([]byte, 8*len(word))
	for i := range len(word) {
		binary.LittleEndian.PutUint64(idx[8*i:], uint64(len(word)-1-i))
	}
	out := make([]byte, len(word))
	if trap := run("Index", len(word), map[string][]byte{"idx": idx, "out": out}); trap != nil {
		t.Fatalf("Index traps in range: %v", trap.Code)
	}
	for i := range len(word) {
		if want := word[len(word)-1-i]; out[i] != want {
			t.Errorf("word[%d] = %#x, want %#x", len(word)-1-i, out[i], want)
		}
	}
	for _, bad := range []int64{int64(len(word)), -1, 1 << 40} {
		binary.LittleEndian.PutUint64(idx, uint64(bad))
		if trap := run("Index", 1, map[string][]byte{"idx": idx[:8], "out": out[:1]}); trap == nil {
			t.Errorf("word[%d] does not trap", bad)
		}
	}

	var offs, runes []int64
	for o, r := range word {
		offs, runes = append(offs, int64(o)), append(runes, int64(r))
	}
	n := len(offs)
	bufs := map[string][]byte{"offs": make([]byte, 8*n), "runes": make([]byte, 4*n), "keys": make([]byte, 8*n), "vals": make([]byte, 4*n)}
	if trap := run("Range", 2, bufs); trap != nil {
		t.Fatalf("Range traps: %v", trap.Code)
	}
	for i := range n {
		o := int64(binary.LittleEndian.Uint64(bufs["offs"][8*i:]))
		k := int64(binary.LittleEndian.Uint64(bufs["keys"][8*i:]))
		r := int64(int32(binary.LittleEndian.Uint32(bufs["runes"][4*i:])))
		v := int64(int32(binary.LittleEndian.Uint32(bufs["vals"][4*i:])))
		if o != offs[i] || k != offs[i] || r != runes[i] || v != runes[i] {
			t.Errorf("rune %d: offsets %d, %d and runes %U, %U; Go ranges to %d, %U", i, o, k, r, v, offs[i], runes[i])
		}
	}
}

const copySource = `package apicalls

import "github.com/gpukvet/gpukvet/gpu"

type pt struct {
	X float32
	Y int16
}

//gpu:kernel
func Moves(t gpu.Thread, s []int32, k []int, ps []pt) {
	if t.GlobalIdx().X != 0 {
		return
	}
	n := copy(s[k[0]:], s)
	n += copy(s, s[k[1]:])
	var a [8]int32
	n += copy(a[:], s)
	clear(s[:k[2]])
	n += copy(s[len(s)-8:], a[:])
	var q [2]pt
	n += copy(q[:], ps)
	clear(ps)
	copy(ps[1:], q[:])
	k[3] = n
}
`

// moves is Moves on the host.
func moves(s []int32, k []int, ps []copyPt) {
	n := copy(s[k[0]:], s)
	n += copy(s, s[k[1]:])
	var a [8]int32
	n += copy(a[:], s)
	clear(s[:k[2]])
	n += copy(s[len(s)-8:], a[:])
	var q [2]copyPt
	n += copy(q[:], ps)
	clear(ps)
	copy(ps[1:], q[:])
	k[3] = n
}

type copyPt struct {
	X float32
	Y int16
}

// TestCopyClear compiles the builtins copy and clear for every target and
// runs them in kirexec against Go: overlapping copies in both directions
// (memmove), between global and local memory, of structs, and clear.
func TestCopyClear(t *testing.T) {
	m, err := buildSource(t, copySource, codegen.Options{Checks: analyzers.All(), SPIRV: true})
	if err != nil {
		t.Fatal(err)
	}
	compileEverywhere(t, "copy", m)
	k, f := m.Manifest.Kernels[0], m.IR.Funcs[0]
	for _, ks := range [][4]int{{1, 1, 2, 0}, {3, 5, 0, 0}, {0, 0, 16, 0}, {15, 7, 1, 0}} {
		s := make([]int32, 16)
		for i := range s {
			s[i] = int32(100 + i)
		}
		ps := []copyPt{{1.5, -1}, {2.5, 2}, {3.5, -3}}
		kk := ks[:]
		sb := make([]byte, 4*len(s))
		for i, x := range s {
			binary.LittleEndian.PutUint32(sb[4*i:], uint32(x))
		}
		kb := make([]byte, 8*len(kk))
		for i, x := range kk {
			binary.LittleEndian.PutUint64(kb[8*i:], uint64(x))
		}
		pb := make([]byte, 8*len(ps))
		for i, p := range ps {
			binary.LittleEndian.PutUint32(pb[8*i:], math.Float32bits(p.X))
			binary.LittleEndian.PutUint16(pb[8*i+4:], uint16(p.Y))
		}
		bufs := map[string][]byte{"s": sb, "k": kb, "ps": pb}
		args := make([]kirexec.Arg, len(f.Params))
		for _, p := range k.Params {
			args[p.Entry[0]] = kirexec.Arg{Buf: &kirexec.Buffer{Name: p.Name, Data: bufs[p.Name]}}
			args[p.Entry[1]] = kirexec.Arg{Bits: uint64(len(bufs[p.Name])) / uint64(p.ElemSize)}
		}
		trap, err := kirexec.Run(f, m.IR.Shared, [3]int{1, 1, 1}, [3]int{2, 1, 1}, args)
		if err != nil || trap != nil {
			t.Fatalf("k=%v: trap %v, error %v", ks, trap, err)
		}
		moves(s, kk, ps)
		for i, x := range s {
			if got := int32(binary.LittleEndian.Uint32(sb[4*i:])); got != x {
				t.Errorf("k=%v: s[%d] = %d, Go says %d", ks, i, got, x)
			}
		}
		if got := int(binary.LittleEndian.Uint64(kb[24:])); got != kk[3] {
			t.Errorf("k=%v: copy counted %d, Go says %d", ks, got, kk[3])
		}
		for i, p := range ps {
			got := copyPt{math.Float32frombits(binary.LittleEndian.Uint32(pb[8*i:])), int16(binary.LittleEndian.Uint16(pb[8*i+4:]))}
			if got != p {
				t.Errorf("k=%v: ps[%d] = %v, Go says %v", ks, i, got, p)
			}
		}
	}
}
