package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/codegen/hostgen"
)

const genUsage = `usage: gpukvet gen [-o FILE] [-arch sm_XX] [-targets ptx,spirv] [-skip-passes NAMES] [-check] [-validate] [PKG ...]

gen compiles the //gpu:kernel functions of each package (default ".";
a pattern with "..." skips packages without kernels) to PTX and SPIR-V
(-targets chooses) and writes FILE (default gpukvet_gen.go) into the package's folder: the
embedded modules, an init function that registers each kernel's compiled code
with package device, and one typed launch function per kernel,

	func LaunchSaxpy(d *device.Device, grid, block gpu.Dim3, a float32, x, y *device.Buffer[float32]) error

so that wrong arguments are compile errors. Put

	//go:generate go tool gpukvet gen

in the package and run go generate. The output is deterministic. It records
a hash of the package's sources: a GPU backend refuses the code once they
change (when the sources are on the machine; editing a comment in place
is no change), and -check exits 1 when FILE is missing or out of date,
saying which, for CI. -validate also runs NVIDIA's ptxas on the PTX and
spirv-val on the SPIR-V, where they are installed ($PTXAS, $SPIRV_VAL or
PATH; a missing one is reported, never required), and exits 1 when one
refuses a module. gen never overwrites a file it did not write.
`

// genFlags are the flags of gpukvet gen.
type genFlags struct {
	out, arch, targets string
	check, validate    bool
	skip               passList
}

// newGenFlags returns the flag set of gpukvet gen, which writes its
// messages to stderr, and the flags it sets.
func newGenFlags(stderr io.Writer) (*flag.FlagSet, *genFlags) {
	var f genFlags
	fs := flag.NewFlagSet("gpukvet gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, genUsage) }
	fs.StringVar(&f.out, "o", hostgen.DefaultFile, "`file` to write in the package's folder")
	fs.StringVar(&f.arch, "arch", "sm_80", "PTX target `architecture` (the driver JIT-compiles it for newer GPUs)")
	fs.BoolVar(&f.check, "check", false, "only report whether the file is up to date (exit 1 if not)")
	fs.StringVar(&f.targets, "targets", "ptx,spirv", "comma-separated `targets` to embed: ptx (cuda backend), spirv (vulkan backend)")
	fs.BoolVar(&f.validate, "validate", false, "also check the modules with ptxas and spirv-val where they are installed")
	fs.Var(&f.skip, "skip-passes", skipPassesUsage)
	return fs, &f
}

// genMain runs `gpukvet gen ARGS` and returns the process exit code.
func genMain(args []string) int {
	return runGen(args, os.Stdout, os.Stderr)
}

func runGen(args []string, stdout, stderr io.Writer) int {
	fs, f := newGenFlags(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	targets, err := parseGenTargets(f.targets)
	if err != nil {
		fmt.Fprintf(stderr, "gpukvet gen: %v\n", err)
		return 2
	}
	if !hostgen.ValidFile(f.out) {
		fmt.Fprintf(stderr, "gpukvet gen: -o %q must be a .go file name (no folder, not a test file)\n", f.out)
		return 2
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	pkgs, err := hostgen.Load(patterns)
	if err != nil {
		fmt.Fprintf(stderr, "gpukvet gen: %v\n", err)
		return 2
	}
	opts := hostgen.Options{File: f.out, Arch: f.arch, Targets: targets, Checks: analyzers.All(), SkipPasses: f.skip}
	update := hostgen.Write
	if f.check {
		update = hostgen.Check
	}
	code := 0
	v := &validator{cmd: "gpukvet gen", stderr: stderr}
	for _, p := range pkgs {
		res, err := update(p, opts)
		code = max(code, reportGen(p, res, err, stdout, stderr))
		if f.validate && err == nil && !(v.ptx(p.Path(), res.PTX, f.arch) && v.spirv(p.Path(), res.SPIRV)) {
			code = max(code, 1)
		}
	}
	return code
}

// parseGenTargets reads the -targets list.
func parseGenTargets(list string) (hostgen.Targets, error) {
	var t hostgen.Targets
	for _, name := range strings.Split(list, ",") {
		switch strings.TrimSpace(name) {
		case "ptx":
			t.PTX = true
		case "spirv":
			t.SPIRV = true
		default:
			return t, fmt.Errorf("-targets=%s: unknown target %q (want ptx, spirv or both, comma-separated)", list, name)
		}
	}
	return t, nil
}

// reportGen says what gen did for package p and returns the exit code:
// 2 when the file cannot be read or written or gen did not write it, 1
// when generation fails or (-check) the file is out of date.
func reportGen(p *hostgen.Package, res hostgen.Result, err error, stdout, stderr io.Writer) int {
	for _, k := range slices.Sorted(maps.Keys(res.NoSPIRV)) {
		fmt.Fprintf(stderr, "gpukvet gen: %s: kernel %s has no SPIR-V (the vulkan backend cannot run it): %s\n", p.Path(), k, res.NoSPIRV[k])
	}
	var fileErr *hostgen.FileError
	switch {
	case errors.Is(err, hostgen.ErrNotGenerated):
		fmt.Fprintf(stderr, "gpukvet gen: %v (choose another name with -o)\n", err)
		return 2
	case errors.As(err, &fileErr):
		fmt.Fprintf(stderr, "gpukvet gen: %v\n", err)
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "gpukvet gen: %v\n", err)
		if res.Existed && strings.Contains(err.Error(), "loading packages") {
			fmt.Fprintf(stderr, "gpukvet gen: if %s no longer compiles (a kernel was removed or renamed), delete it and run gen again\n", res.File)
		}
		return 1
	case res.Wrote:
		fmt.Fprintf(stdout, "gpukvet gen: wrote %s\n", res.File)
	}
	return 0
}
