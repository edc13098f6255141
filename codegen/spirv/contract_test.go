package spirv_test

import (
	"github.com/gpukvet/gpukvet/codegen/internal/kirtest"
	"regexp"
	"testing"

	"github.com/gpukvet/gpukvet/codegen/spirv"
)

// TestNoContraction: as on PTX (kir.Contractible), only a product feeding
// a sum, and that sum, may fuse into an FMA (here a*x+y, one Fma:
// TestFusedMultiplyAdd); every other float operation is NoContraction, so
// that no driver folds (x*0.5)*2 into x (0 in Go for the smallest
// subnormal x) or fuses a product an explicit conversion rounds.
func TestNoContraction(t *testing.T) {
	res, err := spirv.Emit(kirtest.FloatForms(false), spirv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for entry, err := range res.Failed {
		t.Fatalf("%s not emitted: %v", entry, err)
	}
	validate(t, "contract", res.Binary)
	text := disassemble(t, "contract", res.Binary)
	decorated := map[string]bool{}
	for _, m := range regexp.MustCompile(`OpDecorate (%\d+) NoContraction`).FindAllStringSubmatch(text, -1) {
		decorated[m[1]] = true
	}
	var got []bool
	var ops []string
	for _, m := range regexp.MustCompile(`(%\d+) = (OpF(?:Mul|Add|Sub)) `).FindAllStringSubmatch(text, -1) {
		got = append(got, decorated[m[1]])
		ops = append(ops, m[2])
	}
	// x*0.5, (.)*2, a*y (rounded), +x, x-y.
	want := []bool{true, true, true, true, true}
	if len(got) != len(want) {
		t.Fatalf("want %d float operations, got %v in\n%s", len(want), ops, text)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("operation %d (%s): NoContraction %v, want %v", i, ops[i], got[i], want[i])
		}
	}
}
