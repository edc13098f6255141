package codegen

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// linkHSACO compiles LLVM IR for AMD GPUs into an HSA code object: llc
// (LLVM 19) to an object file, then ld.lld to the shared object that the
// HIP runtime loads (hipModuleLoadData). Both tools come from Debian's
// llvm-19 and lld-19 (scripts/install-llvm.sh).
func linkHSACO(ll []byte, arch string) ([]byte, error) {
	llc, err := findTool("llc-19", "llc")
	if err != nil {
		return nil, err
	}
	lld, err := findTool("ld.lld-19", "ld.lld")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "gpukvet-hsaco")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	obj, out := filepath.Join(dir, "module.o"), filepath.Join(dir, "module.hsaco")
	var stderr bytes.Buffer
	cmd := exec.Command(llc, "-mtriple=amdgcn-amd-amdhsa", "-mcpu="+arch, "-O2", "-filetype=obj", "-o", obj)
	cmd.Stdin, cmd.Stderr = bytes.NewReader(ll), &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", llc, err, stderr.String())
	}
	stderr.Reset()
	cmd = exec.Command(lld, "-shared", obj, "-o", out)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", lld, err, stderr.String())
	}
	return os.ReadFile(out)
}

func findTool(names ...string) (string, error) {
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found: install Debian's llvm-19 and lld-19 (scripts/install-llvm.sh)", names[0])
}
