package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// validator runs the targets' own validators on modules gen and build
// produce (-validate): NVIDIA's ptxas on PTX, Khronos' spirv-val on
// SPIR-V. A validator that is not installed is reported and skipped: it
// is never required.
type validator struct {
	cmd    string    // "gpukvet gen" or "gpukvet build", for messages
	stderr io.Writer // where refusals and missing tools are reported
	missed map[string]bool
}

// validators maps each validator's name on $PATH to the environment
// variable that may name its path instead, and to how to install it.
var validators = map[string]struct{ env, install string }{
	"ptxas":     {"PTXAS", "scripts/install-ptxas.sh installs it"},
	"spirv-val": {"SPIRV_VAL", "Debian's spirv-tools, scripts/install-spirv-tools.sh"},
}

// find returns the path of a validator, or "" after saying (once) that it
// is missing.
func (v *validator) find(tool string) string {
	t := validators[tool]
	if p := os.Getenv(t.env); p != "" {
		return p
	}
	if p, err := exec.LookPath(tool); err == nil {
		return p
	}
	if !v.missed[tool] {
		if v.missed == nil {
			v.missed = map[string]bool{}
		}
		v.missed[tool] = true
		fmt.Fprintf(v.stderr, "%s: -validate: %s not found (set %s or put it on PATH; %s): its modules are not validated\n", v.cmd, tool, t.env, t.install)
	}
	return ""
}

// ptx assembles a PTX module for arch with ptxas and reports whether it
// passed (or could not be checked).
func (v *validator) ptx(what string, text []byte, arch string) bool {
	if arch == "" {
		arch = "sm_80"
	}
	log, ok := v.run("ptxas", ".ptx", text, "-arch="+arch, "-o", os.DevNull)
	if !ok {
		fmt.Fprintf(v.stderr, "%s: -validate: ptxas refuses the PTX of %s:\n%s\n", v.cmd, what, gpuabi.ExplainPTXLog(string(text), log))
	}
	return ok
}

// spirv validates a SPIR-V module for Vulkan 1.2 (the environment the
// emitter targets) and reports whether it passed (or could not be checked).
func (v *validator) spirv(what string, bin []byte) bool {
	log, ok := v.run("spirv-val", ".spv", bin, "--target-env", "vulkan1.2")
	if !ok {
		fmt.Fprintf(v.stderr, "%s: -validate: spirv-val refuses the SPIR-V of %s:\n%s\n", v.cmd, what, log)
	}
	return ok
}

// run runs tool on a module written to a temporary file and returns its
// output and whether it accepted the module (true when it could not run
// for want of the tool or the module).
func (v *validator) run(tool, ext string, module []byte, args ...string) (string, bool) {
	if len(module) == 0 {
		return "", true
	}
	path := v.find(tool)
	if path == "" {
		return "", true
	}
	dir, err := os.MkdirTemp("", "gpukvet-validate")
	if err != nil {
		return err.Error(), false
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "module"+ext)
	if err := os.WriteFile(file, module, 0o644); err != nil {
		return err.Error(), false
	}
	out, err := exec.Command(path, append(args, file)...).CombinedOutput()
	if err != nil {
		return fmt.Sprintf("%v\n%s", err, strings.TrimSpace(string(out))), false
	}
	return "", true
}
