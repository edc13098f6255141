package cpu

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gpukvet/gpukvet/device/backend"
)

// The backend warns, once per kernel per process, when it runs a kernel
// without the code `gpukvet gen` writes: it then calls the kernel through
// reflection, thread by thread, at about a thousandth of a Go loop's speed
// (saxpy over 2^22 elements: 3.9 s against 4.4 ms; with gen's code it runs
// at 0.2-0.7 of the loop on 2 cores), which a user otherwise notices only
// as a slow program.
var warnings struct {
	mu     sync.Mutex
	out    io.Writer
	warned map[string]bool
}

func init() { warnings.out = os.Stderr }

// SetWarnings sets where the backend writes its warnings (os.Stderr
// unless set; nil discards them) and returns the writer it replaces.
func SetWarnings(w io.Writer) io.Writer {
	warnings.mu.Lock()
	defer warnings.mu.Unlock()
	old := warnings.out
	warnings.out = w
	return old
}

// warnNoGen writes the warning for k, a kernel without generated code,
// the first time the process runs it.
func warnNoGen(k *backend.Kernel) {
	warnings.mu.Lock()
	defer warnings.mu.Unlock()
	if warnings.warned[k.Name] {
		return
	}
	if warnings.warned == nil {
		warnings.warned = map[string]bool{}
	}
	warnings.warned[k.Name] = true
	if warnings.out == nil {
		return
	}
	where := "its package"
	if file, _, ok := strings.Cut(k.Pos, ":"); ok && file != "" {
		where = filepath.Dir(file)
	}
	fmt.Fprintf(warnings.out, "gpukvet: kernel %s has no generated code, so the cpu backend runs it through reflection, thread by thread, hundreds of times slower than with the code `gpukvet gen` writes (saxpy over 2^22 elements: 3.9 s, against 4.4 ms for a Go loop); add `//go:generate go tool gpukvet gen` to a file of %s and run `go generate` there (this warning is written once per kernel; cpu.SetWarnings redirects it)\n",
		k.Name, where)
}
