package codegen_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/codegen"
)

// TestLimits checks that the build refuses kernels beyond the limits of the
// targets (internal/targets), with the checks' messages at the checks'
// lines, whether or not the checks ran: ptxas would accept some of them
// (block=1025) and every launch would fail.
func TestLimits(t *testing.T) {
	want := []string{
		"limits.go:7:1: [%s] //gpu:kernel block=1025: block extent 1025 in X is more than the 1024 of target ptx (CUDA sm_70 and later)",
		"limits.go:10:1: [%s] //gpu:kernel grid=99999999999: grid extent 99999999999 in X is more than the 2147483647 of target ptx",
		"limits.go:15:7: [%s] kernel SharedHuge declares 4294967296 bytes of gpu.Shared memory in its call tree, more than the 49152 bytes of static shared memory per block of target ptx",
		// SharedTwo's first 4 MiB array overflows already.
		"limits.go:21:7: [%s] kernel SharedTwo declares 8388608 bytes of gpu.Shared memory",
		"limits.go:27:16: [%s] the parameters of kernel ParamSpace take 32008 bytes of parameter space, more than the 4096 bytes of target ptx",
		"limits.go:31:6: [%s] a //gpu:kernel cannot be named _",
		"limits.go:34:32: [%s] a //gpu:kernel cannot be variadic",
		"limits.go:38:6: [%s] local variable big of 4294967296 bytes is more than the 65536 bytes one local variable of a GPU thread may take",
	}
	for _, tc := range []struct {
		opts     codegen.Options
		reporter string
	}{{codegen.Options{}, "gpukernels"}, {codegen.Options{Checks: analyzers.All()}, "memspace"}} {
		_, err := codegen.Build([]string{corpus + "limits"}, tc.opts)
		var r *codegen.Refusal
		if !errors.As(err, &r) {
			t.Fatalf("Build (checks: %d) of kernels beyond the limits: %v, want a *Refusal", len(tc.opts.Checks), err)
		}
		for _, w := range want {
			w = strings.Replace(w, "%s", tc.reporter, 1)
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Build (checks: %d): refusal lacks %q:\n%v", len(tc.opts.Checks), w, err)
			}
		}
	}
}

// TestAtLimits checks that kernels exactly at the limits compile, and that
// ptxas accepts them: the limits are not stricter than the target's.
func TestAtLimits(t *testing.T) {
	m, err := codegen.Build([]string{corpus + "atlimits"}, codegen.Options{Checks: analyzers.All()})
	if err != nil {
		t.Fatal(err)
	}
	assemble(t, "atlimits", string(m.PTX))
}
