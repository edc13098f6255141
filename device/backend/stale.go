package backend

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gpukvet/gpukvet/internal/srchash"
)

// CheckStale compares the source hash that `gpukvet gen` recorded in a
// kernel's code with its package's sources, when they are on this machine
// (the kernel's declaration position names its file), and returns an error
// telling the user to regenerate when they differ. A binary run where its
// sources are not has nothing to compare with and is trusted; `gpukvet gen
// -check` (for CI) catches that case before the binary is built. Every GPU
// backend calls it before it first loads a kernel's code.
func CheckStale(k *Kernel) error {
	c := k.Code
	if c == nil || c.SourceHash == "" || k.Pos == "" {
		return nil
	}
	file := k.Pos
	if i := strings.LastIndex(file, ":"); i >= 0 {
		file = file[:i]
	}
	if !filepath.IsAbs(file) {
		return nil
	}
	dir := filepath.Dir(file)
	h, err := srchash.Dir(dir)
	if err != nil {
		return nil // sources not here
	}
	if h != c.SourceHash {
		return fmt.Errorf("kernel %s: its compiled GPU code is stale: the Go sources in %s changed since `gpukvet gen` compiled them; run `go generate` there", k.Name, dir)
	}
	return nil
}
