package spirv_test

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
)

// spirvVal finds SPIRV-Tools' validator ($SPIRV_VAL or $PATH).
func spirvVal(t *testing.T) string {
	if p := os.Getenv("SPIRV_VAL"); p != "" {
		return p
	}
	if p, err := exec.LookPath("spirv-val"); err == nil {
		return p
	}
	t.Skip("spirv-val not found: run scripts/install-spirv-tools.sh (Debian's spirv-tools) to validate the SPIR-V the emitter writes")
	return ""
}

// validate runs spirv-val for Vulkan 1.2 on a module.
func validate(t *testing.T, name string, bin []byte) {
	t.Helper()
	file := filepath.Join(t.TempDir(), name+".spv")
	if err := os.WriteFile(file, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(spirvVal(t), "--target-env", "vulkan1.2", file).CombinedOutput(); err != nil {
		t.Errorf("spirv-val --target-env vulkan1.2 %s: %v\n%s", name, err, out)
	}
}

// disassemble returns spirv-dis's text of bin (ids as numbers, with the
// flags given), skipping the test where spirv-dis is not installed.
func disassemble(t *testing.T, name string, bin []byte, flags ...string) string {
	t.Helper()
	dis, err := exec.LookPath("spirv-dis")
	if err != nil {
		t.Skip("spirv-dis not found (scripts/install-spirv-tools.sh)")
	}
	file := filepath.Join(t.TempDir(), name+".spv")
	if err := os.WriteFile(file, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(dis, append([]string{"--raw-id"}, append(flags, file)...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("spirv-dis: %v\n%s", err, out)
	}
	return string(out)
}

const mod = "github.com/gpukvet/gpukvet/"

// moduleSets are the kernel sets the codegen tests compile to PTX and run
// through ptxas: each must give a SPIR-V module that spirv-val accepts, with
// no kernel left out.
var moduleSets = []struct {
	name     string
	patterns []string
}{
	{"corpus", []string{mod + "codegen/testdata/kernels/basic", mod + "codegen/testdata/kernels/constructs", mod + "codegen/testdata/kernels/genuse", mod + "codegen/testdata/kernels/gputrap"}},
	{"examples", []string{mod + "examples/..."}},
	{"differential", []string{mod + "testdata/differential/kernels"}},
	{"corpora", []string{mod + "testdata/corpus/divergence", mod + "testdata/corpus/races/..."}},
	{"benchkernels", benchkernels()},
}

// TestValidate emits SPIR-V for every kernel set and validates it.
func TestValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and compiles every kernel set")
	}
	spirvVal(t)
	total := 0
	for _, set := range moduleSets {
		t.Run(set.name, func(t *testing.T) {
			// Build's own SPIR-V path: what gen embeds, with its fallback to
			// a kernel's unoptimized IR where the optimized one cannot be
			// structured.
			m, err := codegen.Build(set.patterns, codegen.Options{SPIRV: true})
			if err != nil {
				t.Fatal(err)
			}
			entryOf := map[string]string{}
			for _, k := range m.Manifest.Kernels {
				entryOf[k.Name] = k.Entry
			}
			left := map[string]string{} // entry -> why
			for name, why := range m.SPIRVFailed {
				left[entryOf[name]] = why
			}
			entryFeatures := map[string][]string{}
			for _, k := range m.Manifest.Kernels {
				if k.SPIRV != nil {
					entryFeatures[k.Entry] = k.SPIRV.Features
				}
			}
			checkVulkanDefined(t, m.SPIRV, entryFeatures)
			// Every kernel the checks pass has SPIR-V (the structurizer
			// reroutes any reducible control flow): none is left out.
			var failed []string
			for entry, why := range left {
				failed = append(failed, entry+": "+why)
			}
			sort.Strings(failed)
			for _, f := range failed {
				t.Errorf("not emitted: %s", f)
			}
			n := len(m.Manifest.Kernels) - len(left)
			total += n
			t.Logf("%s: %d kernels in a module that spirv-val checks (%d left out)", set.name, n, len(left))
			validate(t, set.name, m.SPIRV)
		})
	}
	t.Logf("%d kernels validated", total)
}

// benchkernels lists testdata/benchkernels' packages ("..." skips testdata).
func benchkernels() []string {
	var out []string
	for _, p := range []string{"blackscholes", "bfs", "compact", "histogram", "kmeans", "linalg", "more", "nbody",
		"nw", "pathfinder", "reduction", "rows", "scan", "sort", "spmv", "stats", "stencil", "variants"} {
		out = append(out, mod+"testdata/benchkernels/"+p)
	}
	return out
}

// checkVulkanDefined checks a module against the Vulkan-undefined behaviours
// the emitter must avoid: no OpSDiv, OpSRem or OpSMod (undefined for
// negative operands in Vulkan; Go's / and % are computed on magnitudes),
// and every entry point that lists a float-controls feature for a width
// has all three execution modes (SignedZeroInfNanPreserve, DenormPreserve,
// RoundingModeRTE) for it, and one that computes in floats lists them.
func checkVulkanDefined(t *testing.T, binary []byte, entryFeatures map[string][]string) {
	t.Helper()
	const (
		opEntryPoint, opExecutionMode, opSDiv, opSRem, opSMod = 15, 16, 135, 138, 139
		modeDenorm, modeSZINP, modeRTE                        = 4459, 4461, 4462
	)
	w := words(binary)
	names := map[uint32]string{}
	modes := map[string]map[[2]uint32]bool{}
	for i := 5; i < len(w); {
		n, op := int(w[i]>>16), w[i]&0xffff
		args := w[i+1 : i+n]
		switch op {
		case opSDiv, opSRem, opSMod:
			t.Errorf("module has opcode %d (OpSDiv/OpSRem/OpSMod), undefined in Vulkan for negative operands", op)
		case opEntryPoint:
			b := make([]byte, 0, 64)
			for _, x := range args[2:] {
				for k := 0; k < 4; k++ {
					if c := byte(x >> (8 * k)); c != 0 {
						b = append(b, c)
					}
				}
				if x>>24 == 0 {
					break
				}
			}
			names[args[1]] = string(b)
		case opExecutionMode:
			if len(args) == 3 {
				name := names[args[0]]
				if modes[name] == nil {
					modes[name] = map[[2]uint32]bool{}
				}
				modes[name][[2]uint32{args[1], args[2]}] = true
			}
		}
		i += n
	}
	for entry, feats := range entryFeatures {
		has := map[string]bool{}
		for _, f := range feats {
			has[f] = true
		}
		for _, width := range []uint32{32, 64} {
			sfx := map[uint32]string{32: "Float32", 64: "Float64"}[width]
			want := has["shaderSignedZeroInfNanPreserve"+sfx]
			if has["float64"] && width == 64 && !want {
				t.Errorf("%s uses float64 but does not list shaderSignedZeroInfNanPreserveFloat64", entry)
			}
			if want != has["shaderDenormPreserve"+sfx] || want != has["shaderRoundingModeRTE"+sfx] {
				t.Errorf("%s lists the float-controls features of float%d in part: %v", entry, width, feats)
			}
			for _, m := range []uint32{modeDenorm, modeSZINP, modeRTE} {
				if got := modes[entry][[2]uint32{m, width}]; got != want {
					t.Errorf("%s: execution mode %d for float%d: %v, features %v", entry, m, width, got, feats)
				}
			}
		}
	}
}

// words returns a SPIR-V module's words.
func words(bin []byte) []uint32 {
	w := make([]uint32, len(bin)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(bin[4*i:])
	}
	return w
}
