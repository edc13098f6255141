package spirv_test

import (
	"regexp"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/spirv"
)

// TestTrapBeforeBarrier checks the contract's trap rule on the gputrap
// kernels (a thread traps before a barrier the others wait at): the module
// is valid, a trap with a barrier after it sets the invocation's trapped
// flag and runs on instead of returning, and the side effects are guarded
// by the flag. (Running it on lavapipe is the vulkan backend's test.)
func TestTrapBeforeBarrier(t *testing.T) {
	m, err := codegen.Build([]string{mod + "codegen/testdata/kernels/gputrap"}, codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := spirv.Emit(m.IR, spirv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for entry, err := range res.Failed {
		t.Errorf("%s not emitted: %v", entry, err)
	}
	validate(t, "gputrap", res.Binary)
	text := disassemble(t, "gputrap", res.Binary)
	flag := regexp.MustCompile(`(%\d+) = OpVariable %\d+ Function %\d+`).FindAllStringSubmatch(text, -1)
	if len(flag) < 2 {
		t.Fatalf("want a trapped flag in both gputrap kernels, found %d:\n%s", len(flag), text)
	}
	for _, f := range flag {
		set := regexp.MustCompile(`OpStore ` + f[1] + ` %\d+\n\s*OpBranch`)
		if !set.MatchString(text) {
			t.Errorf("no trap sets flag %s and runs on", f[1])
		}
	}
}
