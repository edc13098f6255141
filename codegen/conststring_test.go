package codegen_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/internal/kirexec"
	"github.com/gpukvet/gpukvet/codegen/llvm"
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
	for name, why := range m.SPIRVFailed {
		t.Errorf("SPIR-V: %s: %s", name, why)
	}
	text, err := llvm.Emit(m.IR, llvm.Options{Target: "amdgcn"})
	if err != nil {
		t.Errorf("LLVM IR for amdgcn: %v", err)
	}
	t.Run("ptxas", func(t *testing.T) { assemble(t, "conststrings", string(m.PTX)) })
	t.Run("spirv-val", func(t *testing.T) {
		val, err := exec.LookPath("spirv-val")
		if err != nil {
			t.Skip("spirv-val not found (Debian's spirv-tools)")
		}
		file := filepath.Join(t.TempDir(), "s.spv")
		if err := os.WriteFile(file, m.SPIRV, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(val, "--target-env", "vulkan1.2", file).CombinedOutput(); err != nil {
			t.Errorf("spirv-val: %v\n%s", err, out)
		}
	})
	t.Run("llc", func(t *testing.T) {
		llc := llcPath(t)
		ll := filepath.Join(t.TempDir(), "s.ll")
		if err := os.WriteFile(ll, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(llc, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-O2", "-filetype=obj", ll, "-o", ll+".o").CombinedOutput(); err != nil {
			t.Errorf("llc amdgcn: %v\n%s", err, out)
		}
	})

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
