package vulkan

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// TestNarrowBarriers checks the module rewrite of
// GPUKVET_VK_BARRIER_SEMANTICS: each barrier's semantics constant gets a
// narrowed copy (one for all the barriers that share it), the original
// stays for its other uses, and the id bound grows.
func TestNarrowBarriers(t *testing.T) {
	ins := func(op uint32, args ...uint32) []uint32 {
		return append([]uint32{uint32(len(args)+1)<<16 | op}, args...)
	}
	const opIAdd = 128
	module := func(bound, sem uint32, narrowed, barriers bool) []uint32 {
		w := []uint32{spirvMagic, 0x10500, 0, bound, 0}
		w = append(w, ins(opConstant, 1, 2, 2)...)
		w = append(w, ins(opConstant, 1, 3, 0x148)...)
		if narrowed {
			w = append(w, ins(opConstant, 1, 10, 0x108)...)
		}
		if barriers {
			w = append(w, ins(opControlBarrier, 2, 2, sem)...)
		}
		w = append(w, ins(opIAdd, 1, 5, 3, 3)...)
		if barriers {
			w = append(w, ins(opControlBarrier, 2, 2, sem)...)
		}
		return w
	}
	got := narrowBarriers(module(10, 3, false, true), semWorkgroupMemory)
	if want := module(11, 10, true, true); !slices.Equal(got, want) {
		t.Errorf("narrowed to Workgroup: got %x, want %x", got, want)
	}
	none := module(10, 3, false, false)
	if got := narrowBarriers(none, semWorkgroupMemory); !slices.Equal(got, none) {
		t.Errorf("a module without barriers changed: %x", got)
	}
}

// TestNarrowBarriersValid runs spirv-val on the hand-written module with
// its barriers narrowed (a constant declared twice included).
func TestNarrowBarriersValid(t *testing.T) {
	val, err := exec.LookPath("spirv-val")
	if err != nil {
		t.Skip("spirv-val not installed (Debian's spirv-tools)")
	}
	words := make([]uint32, len(handSPV)/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(handSPV[4*i:])
	}
	words = narrowBarriers(words, semWorkgroupMemory)
	if words[3] != binary.LittleEndian.Uint32(handSPV[12:])+1 {
		t.Fatalf("id bound %d: the hand module's barrier was not given a constant", words[3])
	}
	file := filepath.Join(t.TempDir(), "narrowed.spv")
	var code []byte
	for _, w := range words {
		code = binary.LittleEndian.AppendUint32(code, w)
	}
	if err := os.WriteFile(file, code, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(val, "--target-env", "vulkan1.2", file).CombinedOutput(); err != nil {
		t.Errorf("spirv-val of the narrowed module: %v\n%s", err, out)
	}
}

// TestBarrierSemanticsEnv checks GPUKVET_VK_BARRIER_SEMANTICS end to end:
// a kernel with a barrier still runs right (it communicates through shared
// memory), Info().Deviations says global memory is no longer ordered, and
// a value that is no semantics is an error naming the variable.
func TestBarrierSemanticsEnv(t *testing.T) {
	t.Setenv(envBarrierSemantics, "workgroup")
	b := openOrSkip(t)
	if !slices.ContainsFunc(b.Info().Deviations, func(d string) bool { return strings.Contains(d, envBarrierSemantics) }) {
		t.Errorf("Info().Deviations %q does not name %s", b.Info().Deviations, envBarrierSemantics)
	}
	k := reverseInShared(t, b)

	t.Setenv(envBarrierSemantics, "uniform")
	b2 := openOrSkip(t)
	m := upload(t, b2, make([]float32, 256))
	err := b2.Launch(handKernel("hand_Shared", f32s), gpu.Dim3{X: 1, Y: 1, Z: 1}, k.Block, []backend.Arg{{Mem: m}})
	if err == nil || !strings.Contains(err.Error(), envBarrierSemantics) || !strings.Contains(err.Error(), "workgroup") {
		t.Errorf("a semantics that does not exist: got %v, want an error naming %s and the known values", err, envBarrierSemantics)
	}
}
