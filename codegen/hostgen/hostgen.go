package hostgen

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/gpukvet/gpukvet/internal/srchash"
)

// DefaultFile is the name of the generated file unless Options.File says
// otherwise.
const DefaultFile = "gpukvet_gen.go"

// Options configure Write and Check.
type Options struct {
	// File is the generated file's name in the package's folder (see
	// ValidFile); "" is DefaultFile.
	File string
	// Arch is the PTX target architecture; "" is sm_80.
	Arch string
	// Targets are the modules to embed.
	Targets Targets
	// Checks are the analyzers whose diagnostics refuse a kernel, as in
	// codegen.Options: the gpukvet command passes its whole suite.
	Checks []*analysis.Analyzer
	// SkipPasses names kernel-IR optimizer passes to leave out, as in
	// codegen.Options.
	SkipPasses []string

	// compile replaces the codegen in the tests of the generator's own
	// logic; nil is compile.
	compile func(p *Package, opts Options) (*compiled, error)
}

// withDefaults returns o with its defaults filled in.
func (o Options) withDefaults() Options {
	if o.File == "" {
		o.File = DefaultFile
	}
	if o.Arch == "" {
		o.Arch = "sm_80"
	}
	return o
}

// Targets are the modules a generated file embeds.
type Targets struct {
	PTX   bool // the PTX module, for the cuda backend
	SPIRV bool // the SPIR-V module, for the vulkan backend
}

// ValidFile reports whether name can be the generated file's name: a .go
// file name, without a folder, not a test file.
func ValidFile(name string) bool {
	return name == filepath.Base(name) && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
}

// Result says what Write or Check found and did for one package.
type Result struct {
	// File is the generated file's path.
	File string
	// Existed says the file existed before.
	Existed bool
	// Wrote says Write wrote it (it was missing or out of date).
	Wrote bool
	// NoSPIRV maps the kernels that got no SPIR-V (with Targets.SPIRV) to
	// why: the vulkan backend cannot run them. It is set even when
	// generation fails afterwards.
	NoSPIRV map[string]string
	// PTX and SPIRV are the modules the file embeds (nil for a target
	// not embedded), for validating them with NVIDIA's and Khronos' tools.
	PTX, SPIRV []byte
}

// ErrNotGenerated is the error (wrapped, with the file's path) of Write and
// Check for a file of the generated file's name that gen did not write:
// gen never overwrites one.
var ErrNotGenerated = errors.New("exists and was not written by gpukvet gen; not overwriting it")

// ErrStale is the error (wrapped, with the file's path) of Check for a
// generated file that is out of date.
var ErrStale = errors.New("is out of date")

// ErrMissing is the error (wrapped, with the file's path) of Check for a
// generated file that does not exist.
var ErrMissing = errors.New("is missing")

// FileError is the error of Write and Check when the generated file cannot
// be read or written (as opposed to generated).
type FileError struct{ Err error }

// Error returns the I/O error's message.
func (e *FileError) Error() string { return e.Err.Error() }

// Unwrap returns the I/O error.
func (e *FileError) Unwrap() error { return e.Err }

// Write brings p's generated file up to date: it compiles p's kernels,
// renders the file and writes it unless it holds that already.
func Write(p *Package, opts Options) (Result, error) {
	res, old, src, err := render(p, opts)
	if err != nil || (res.Existed && bytes.Equal(old, src)) {
		return res, err
	}
	if err := os.WriteFile(res.File, src, 0o644); err != nil {
		return res, &FileError{err}
	}
	res.Wrote = true
	return res, nil
}

// Check reports whether p's generated file is up to date, as Write would
// write it: an error wrapping ErrMissing if there is none, ErrStale if it
// differs.
func Check(p *Package, opts Options) (Result, error) {
	res, old, src, err := render(p, opts)
	switch {
	case err != nil:
	case !res.Existed:
		err = fmt.Errorf("%s %w: run go generate (gpukvet gen) in %s", res.File, ErrMissing, p.dir)
	case !bytes.Equal(old, src):
		err = fmt.Errorf("%s %w: run go generate (gpukvet gen) in %s", res.File, ErrStale, p.dir)
	}
	return res, err
}

// render reads p's generated file (old, if it exists), refuses one gen did
// not write, and renders the file anew (src).
func render(p *Package, opts Options) (res Result, old, src []byte, err error) {
	opts = opts.withDefaults()
	res.File = filepath.Join(p.dir, opts.File)
	old, err = os.ReadFile(res.File)
	res.Existed = err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return res, nil, nil, &FileError{err}
	}
	if res.Existed && !srchash.IsGenerated(old) {
		return res, nil, nil, fmt.Errorf("%s %w", res.File, ErrNotGenerated)
	}
	src, g, err := generate(p, opts)
	if g != nil {
		res.NoSPIRV, res.SPIRV = g.noSPIRV, g.c.spirv
		if opts.Targets.PTX {
			res.PTX = g.c.ptx
		}
	}
	return res, old, src, err
}
