package spirv_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/spirv"
)

var update = flag.Bool("update", false, "rewrite the golden disassemblies")

// TestGolden keeps the disassembly of a few small kernels' modules
// (testdata/*.spvasm) equal to what the emitter writes, so that a change
// of the emitted code shows in review (go test ./codegen/spirv -run Golden
// -update rewrites them).
func TestGolden(t *testing.T) {
	for _, name := range []string{"saxpy", "vecadd"} {
		m, err := codegen.Build([]string{mod + "examples/" + name}, codegen.Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := spirv.Emit(m.IR, spirv.Options{})
		if err != nil || len(res.Failed) > 0 {
			t.Fatalf("%s: %v %v", name, err, res.Failed)
		}
		validate(t, name, res.Binary)
		out := []byte(disassemble(t, name, res.Binary, "--no-header"))
		golden := filepath.Join("testdata", name+".spvasm")
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if string(want) != string(out) {
			t.Errorf("%s is stale: run go test ./codegen/spirv -run Golden -update and review the diff", golden)
		}
	}
}
