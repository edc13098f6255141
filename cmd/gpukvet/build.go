package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/codegen"
)

const buildUsage = `usage: gpukvet build [-target=ptx|spirv|llvm-amdgcn|llvm-nvptx|hsaco] [-arch=sm_XX|gfxNNN] [-O0] [-skip-passes=NAMES] [-validate] [-o FILE] PKG...

build checks the packages' kernels with every gpukvet analyzer, refuses to
compile a kernel that a check reports on (citing the diagnostic), and
compiles the rest into one module: FILE (default <package name>.ptx, .spv
for SPIR-V (Vulkan), .ll for the LLVM IR targets, .hsaco for an AMD code
object) and,
beside it, FILE.json, the manifest that names each kernel's entry point and
its parameter layout (a slice is a pointer and an int64 length, a struct is
a byte array in Go's layout, the last parameter is the trap record), so any
CUDA host program can load and launch the module. For -target=spirv the
manifest also gives each kernel's push-constant layout, workgroup size or
spec constants, shared memory and device features (codegen/ABI.md).
-validate also runs NVIDIA's ptxas on PTX and spirv-val on SPIR-V where they
are installed ($PTXAS, $SPIRV_VAL or PATH; a missing one is reported, never
required) and exits 1 when one refuses the module.

Flags:
`

// buildMain runs `gpukvet build ARGS` and returns the process exit code:
// 0 on success, 1 when checks refuse a kernel or compilation fails, 2 on a
// usage or load error.
func buildMain(args []string) int {
	return runBuild(args, os.Stdout, os.Stderr)
}

// buildFlags are the flags of gpukvet build.
type buildFlags struct {
	target, arch, out string
	o0, validate      bool
	skip              passList
}

// newBuildFlags returns the flag set of gpukvet build, which writes its
// messages to stderr, and the flags it sets.
func newBuildFlags(stderr io.Writer) (*flag.FlagSet, *buildFlags) {
	var f buildFlags
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.target, "target", "ptx", "code to produce: ptx, spirv (a SPIR-V module for Vulkan), llvm-amdgcn (LLVM IR for AMD GPUs), llvm-nvptx, or hsaco (an AMD code object; needs llc-19 and ld.lld-19)")
	fs.StringVar(&f.arch, "arch", "", "target architecture: sm_80 (the default), sm_90, ... for ptx; gfx90a (the default), ... for hsaco")
	fs.BoolVar(&f.o0, "O0", false, "compile without the kernel-IR optimizer (no folding, unrolling, scalar replacement, code motion or bounds-check elimination), for debugging the codegen")
	fs.StringVar(&f.out, "o", "", "output file (default <package name>.ptx); the manifest is written to FILE.json")
	fs.BoolVar(&f.validate, "validate", false, "also check a ptx or spirv module with ptxas or spirv-val where installed")
	fs.Var(&f.skip, "skip-passes", skipPassesUsage)
	fs.Usage = func() {
		fmt.Fprint(stderr, buildUsage)
		fs.PrintDefaults()
	}
	return fs, &f
}

func runBuild(args []string, stdout, stderr io.Writer) int {
	fs, f := newBuildFlags(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if _, ok := codegen.FileExt(f.target); !ok {
		fmt.Fprintf(stderr, "gpukvet build: -target=%s is not supported (want ptx, spirv, llvm-amdgcn, llvm-nvptx or hsaco)\n", f.target)
		return 2
	}
	mod, err := codegen.Build(fs.Args(), codegen.Options{Target: f.target, Arch: f.arch, DisableOptimizer: f.o0, SkipPasses: f.skip, Checks: analyzers.All()})
	if err != nil {
		fmt.Fprintf(stderr, "gpukvet build: %v\n", err)
		var refusal *codegen.Refusal
		if errors.As(err, &refusal) {
			return 1
		}
		if strings.HasPrefix(err.Error(), "loading packages") || strings.HasPrefix(err.Error(), "no packages") {
			return 2
		}
		return 1
	}
	file, err := mod.WriteFiles(f.target, f.out)
	if err != nil {
		fmt.Fprintf(stderr, "gpukvet build: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s and %s.json (%d kernels)\n", file, file, len(mod.Manifest.Kernels))
	v := &validator{cmd: "gpukvet build", stderr: stderr}
	if f.validate && len(mod.PTX) == 0 && len(mod.SPIRV) == 0 {
		fmt.Fprintf(stderr, "gpukvet build: -validate: no validator for -target=%s (ptxas and spirv-val check ptx and spirv)\n", f.target)
	}
	if f.validate && !(v.ptx(file, mod.PTX, f.arch) && v.spirv(file, mod.SPIRV)) {
		return 1
	}
	return 0
}
