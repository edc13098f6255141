package spirv_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/codegen/spirv"
)

func TestDebugDump(t *testing.T) {
	pat := os.Getenv("DUMP")
	if pat == "" {
		t.Skip()
	}
	m, err := codegen.Build([]string{pat}, codegen.Options{Target: "ptx", SkipChecks: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.IR.Funcs {
		fmt.Println(kir.Format(f))
		fmt.Println(spirv.DebugPlan(f))
	}
}
