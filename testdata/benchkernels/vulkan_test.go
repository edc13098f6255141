package benchkernels_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/device/vulkan"
)

// TestOnVulkan runs every benchmark package's own tests (each kernel
// against its plain-Go reference) on the vulkan backend, from the SPIR-V in
// the packages' gpukvet_gen.go, wherever a Vulkan device opens: on
// Mesa's lavapipe in CI (scripts/install-vulkan.sh), on a GPU elsewhere.
// The tests pick their device from GPUKVET_DEVICE (internal/bt), so this
// runs them again in a child `go test` with GPUKVET_DEVICE=vulkan.
func TestOnVulkan(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every benchmark package's tests again")
	}
	if os.Getenv("GPUKVET_DEVICE") != "" {
		t.Skipf("GPUKVET_DEVICE=%s: the package tests run on it directly", os.Getenv("GPUKVET_DEVICE"))
	}
	b, err := vulkan.OpenBackend()
	if err != nil {
		t.Skipf("no Vulkan device (scripts/install-vulkan.sh installs lavapipe): %v", err)
	}
	t.Logf("Vulkan device: %s (%s)", b.Info().Name, b.Info().Type)
	b.Close()
	goTool, err := exec.LookPath("go") // go test puts its own go first on PATH
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"test", "-count=1", "-json"}
	for _, pkg := range packages {
		args = append(args, "./"+pkg)
	}
	cmd := exec.Command(goTool, args...)
	cmd.Dir = dir(t)
	cmd.Env = append(os.Environ(), "GPUKVET_DEVICE=vulkan")
	out, runErr := cmd.Output()
	passed, gaps, failed := judge(out)
	t.Logf("on vulkan: %d tests pass, %d meet a kernel gpukvet gen could not compile to SPIR-V yet (it says so when it generates)", len(passed), len(gaps))
	for _, g := range gaps {
		t.Logf("gap: %s", g)
	}
	for _, f := range failed {
		name, _, _ := strings.Cut(f, "\n")
		if text, ok := knownFailures[name]; ok && strings.Contains(f, text) {
			t.Logf("known failure (knownFailures): %s", f)
			continue
		}
		t.Errorf("fails on vulkan: %s", f)
	}
	for name := range knownFailures {
		for _, p := range passed {
			if p == name {
				t.Errorf("%s passes on vulkan now: drop it from knownFailures", name)
			}
		}
	}
	if runErr != nil && len(failed) == 0 && len(gaps) == 0 {
		t.Fatalf("GPUKVET_DEVICE=vulkan go test: %v\n%s", runErr, out)
	}
	if len(passed) == 0 {
		t.Errorf("no benchmark test passed on vulkan")
	}
}

// knownFailures maps a test (package.Test) that fails on vulkan because of a
// code-generator bug, reported to its owner, to the text its failure must
// contain; it fails TestOnVulkan once it passes, so the list only shrinks.
var knownFailures = map[string]string{}

// noSPIRV is how the vulkan backend refuses a kernel that has no SPIR-V.
const noSPIRV = "has no SPIR-V code for the vulkan backend"

// judge sorts the tests of a `go test -json` run into those that passed,
// those that failed only because a kernel has no SPIR-V (gaps of the code
// generator, not of the runtime), and those that failed otherwise (with
// their output).
func judge(out []byte) (passed, gaps, failed []string) {
	type event struct{ Action, Package, Test, Output string }
	logs := map[string]*strings.Builder{}
	for _, line := range bytes.Split(out, []byte("\n")) {
		var e event
		if json.Unmarshal(line, &e) != nil || e.Test == "" {
			if e.Action == "fail" && e.Test == "" && e.Package != "" && logs[e.Package] == nil {
				failed = append(failed, e.Package+" (build or setup)")
			}
			continue
		}
		key := path.Base(e.Package) + "." + e.Test
		if logs[key] == nil {
			logs[key] = &strings.Builder{}
			logs[e.Package] = logs[key]
		}
		switch e.Action {
		case "output":
			logs[key].WriteString(e.Output)
		case "pass":
			passed = append(passed, key)
		case "fail":
			msg := strings.TrimSpace(logs[key].String())
			if strings.Contains(msg, noSPIRV) {
				i := strings.Index(msg, "kernel ")
				gaps = append(gaps, key+": "+strings.SplitN(msg[max(i, 0):], "\n", 2)[0])
			} else {
				failed = append(failed, key+"\n"+msg)
			}
		}
	}
	return passed, gaps, failed
}
