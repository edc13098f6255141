// Package codegen compiles checked Go kernels for GPUs: it loads packages,
// runs the gpukvet checks over them, refuses any kernel that a check
// reports on (a *Refusal citing the diagnostics), lowers the rest to kernel
// IR (codegen/lower, codegen/kir), optimizes it (kir.Optimize: folding,
// unrolling, scalar replacement, code motion, bounds checks that value
// ranges prove, 32-bit index arithmetic; Options.DisableOptimizer is
// gpukvet build -O0) and emits
// a module for the target: PTX (codegen/ptx), or LLVM IR for AMD GPUs and
// LLVM's NVPTX back end (codegen/llvm), or an AMD code object. A manifest
// says how to launch each kernel from any host program; ABI.md documents
// it. Build is the entry point for `gpukvet build` and `gpukvet gen`.
package codegen

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/codegen/llvm"
	"github.com/gpukvet/gpukvet/codegen/lower"
	"github.com/gpukvet/gpukvet/codegen/ptx"
	"github.com/gpukvet/gpukvet/codegen/spirv"
	"github.com/gpukvet/gpukvet/internal/directive"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"github.com/gpukvet/gpukvet/internal/kernelapi"
	"github.com/gpukvet/gpukvet/internal/kernels"
	"github.com/gpukvet/gpukvet/internal/srchash"
)

// Options configure Build.
type Options struct {
	// Target is "ptx" (the default), "llvm-amdgcn" or "llvm-nvptx" for
	// LLVM IR (Module.LLVM) for AMD GPUs or LLVM's NVPTX back end, or
	// "hsaco" for an AMD code object (Module.HSACO; needs llc and ld.lld).
	Target string
	// Arch is the target architecture: "sm_80" by default for ptx,
	// "gfx90a" for hsaco.
	Arch string
	// Dir is the directory patterns are resolved in ("" = current).
	Dir string
	// Env is the environment for go/packages (nil = os.Environ()).
	Env []string
	// Overlay replaces the contents of files by name when loading, as
	// go/packages' Config.Overlay: gen loads the files it wrote before as
	// bare package clauses, so that one gone stale cannot stop it.
	Overlay map[string][]byte
	// Checks are the analyzers whose diagnostics refuse a kernel: the
	// gpukvet command passes its whole suite (analyzers.All()). Nil
	// compiles without checks, which only tests of the compiler itself
	// should want. codegen runs what it is given and imports no check, so
	// the compiler sits below the checks in the import graph.
	Checks []*analysis.Analyzer
	// KeepBoundsChecks keeps every bounds check (no elimination).
	KeepBoundsChecks bool
	// DisableOptimizer compiles without the kernel-IR optimizer
	// (gpukvet build -O0): no folding, unrolling, scalar replacement,
	// code motion, bounds-check elimination or index narrowing.
	DisableOptimizer bool
	// VerifyPasses checks the kernel IR after every optimization pass.
	VerifyPasses bool
	// SkipPasses names kernel-IR optimizer passes to leave out (gpukvet
	// build -skip-passes), for measuring on a GPU what one buys.
	SkipPasses []string
	// SPIRV also emits a SPIR-V module (Module.SPIRV) beside target ptx,
	// from the same kernel IR, for `gpukvet gen`: a kernel the SPIR-V
	// emitter cannot express is left out of it and named in
	// Module.SPIRVFailed instead of failing the build. (With Target
	// "spirv" such a kernel is an error.)
	SPIRV bool
}

// Module is one compiled module: the code for every kernel of the packages
// given to Build, and how to launch each.
type Module struct {
	// PTX is the module's text for target ptx.
	PTX []byte
	// LLVM is the module's LLVM IR text for the llvm-* and hsaco targets.
	LLVM []byte
	// HSACO is the AMD code object for target hsaco.
	HSACO []byte
	// SPIRV is the SPIR-V module for target spirv (or with Options.SPIRV).
	SPIRV []byte
	// SPIRVFailed maps the kernels (Go names) left out of SPIRV to why,
	// "file:line:col: message" (with Options.SPIRV only).
	SPIRVFailed map[string]string
	// Manifest describes entry points, parameter layouts, the trap record
	// and the position table; it is what `gpukvet build` writes as JSON.
	Manifest *Manifest
	// IR is the kernel IR the module was emitted from, one function per
	// kernel in manifest order (for other emitters and for tests).
	IR *kir.Module
}

// Refusal is the error Build returns when checks report on kernels.
type Refusal struct {
	Diagnostics []string // "file:line:col: [analyzer] message"
}

func (r *Refusal) Error() string {
	return "kernels fail the gpukvet checks and are not compiled:\n\t" + strings.Join(r.Diagnostics, "\n\t")
}

// Build loads the packages matching patterns, checks them, and compiles
// their kernels into one module.
func Build(patterns []string, opts Options) (*Module, error) {
	if err := kir.CheckPassNames(opts.SkipPasses); err != nil {
		return nil, fmt.Errorf("-skip-passes: %v", err)
	}
	if opts.Target == "" {
		opts.Target = "ptx"
	}
	switch opts.Target {
	case "ptx", "llvm-amdgcn", "llvm-nvptx":
		if opts.Arch == "" {
			opts.Arch = "sm_80"
		}
		if !strings.HasPrefix(opts.Arch, "sm_") {
			return nil, fmt.Errorf("-arch=%s: want sm_XX, e.g. sm_80", opts.Arch)
		}
	case "spirv":
		if opts.Arch != "" {
			return nil, fmt.Errorf("-arch=%s: target spirv has no architecture (SPIR-V 1.5, Vulkan 1.2)", opts.Arch)
		}
		opts.Arch = "vulkan1.2"
	case "hsaco":
		if opts.Arch == "" || opts.Arch == "sm_80" {
			opts.Arch = "gfx90a"
		}
		if !strings.HasPrefix(opts.Arch, "gfx") {
			return nil, fmt.Errorf("-arch=%s: want an AMD GPU, e.g. gfx90a", opts.Arch)
		}
	default:
		return nil, fmt.Errorf("target %q is not supported (want ptx, spirv, llvm-amdgcn, llvm-nvptx or hsaco)", opts.Target)
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: opts.Dir, Env: opts.Env, Overlay: opts.Overlay}
	pkgs, err := packages.Load(cfg, append([]string{kernelapi.DevMathPath}, patterns...)...)
	if err != nil {
		return nil, err
	}
	var loadErrs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			loadErrs = append(loadErrs, e.Error())
		}
	})
	if len(loadErrs) > 0 {
		return nil, fmt.Errorf("loading packages:\n\t%s", strings.Join(loadErrs, "\n\t"))
	}
	return buildLoaded(pkgs, patterns, opts)
}

// buildLoaded is Build after loading: pkgs are codegen/devmath and the
// packages patterns name, with the syntax of their dependencies.
func buildLoaded(pkgs []*packages.Package, patterns []string, opts Options) (*Module, error) {
	// packages.Load does not keep the order of the patterns.
	var devmath *packages.Package
	var roots []*packages.Package
	for _, p := range pkgs {
		if p.PkgPath == kernelapi.DevMathPath && devmath == nil {
			devmath = p
			continue
		}
		roots = append(roots, p)
	}
	if devmath == nil {
		return nil, fmt.Errorf("loading packages: %s not found", kernelapi.DevMathPath)
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("no packages match %v", patterns)
	}

	// Checks and kernel discovery in one run of the suite.
	suite := append([]*analysis.Analyzer{kernels.Analyzer}, opts.Checks...)
	graph, err := checker.Analyze(suite, roots, nil)
	if err != nil {
		return nil, err
	}
	found := map[*packages.Package]*kernels.Result{}
	var diags []diagnostic
	for act := range graph.All() {
		// Diagnostics in packages the roots import count too: a device
		// function of another package is compiled into the kernels that
		// call it.
		for _, d := range act.Diagnostics {
			diags = append(diags, diagnostic{act.Package.Fset.Position(d.Pos), d.Pos, act.Analyzer.Name, d.Message})
		}
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			return nil, fmt.Errorf("%s on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
		}
		if act.Analyzer == kernels.Analyzer {
			found[act.Package] = act.Result.(*kernels.Result)
		}
	}

	prog, _ := ssautil.AllPackages(pkgs, ssa.InstantiateGenerics)
	var dm *ssa.Package
	noFuse := map[token.Pos]bool{}
	packages.Visit(append(roots, devmath), nil, func(p *packages.Package) {
		if !relevant(p) {
			return
		}
		sp := prog.Package(p.Types)
		if sp == nil {
			sp = prog.CreatePackage(p.Types, p.Syntax, p.TypesInfo, true)
		}
		sp.Build()
		lower.FindNoFuse(p.Syntax, p.TypesInfo, noFuse)
		if p.PkgPath == kernelapi.DevMathPath {
			dm = sp
		}
	})
	prep := &prepared{opts: opts, roots: roots, found: found, diags: diags, prog: prog,
		env: &lower.Env{Fset: roots[0].Fset, DevMath: dm, NoFuse: noFuse, RelPos: relPos(opts.Dir), KeepBoundsChecks: opts.KeepBoundsChecks,
			DisableOptimizer: opts.DisableOptimizer, VerifyPasses: opts.VerifyPasses, SkipPasses: opts.SkipPasses}}
	if buildHook != nil {
		buildHook(prep)
	}
	return prep.compile(patterns)
}

// buildHook, when set (by tests), receives the prepared program.
var buildHook func(*prepared)

// prepared is a loaded and checked program, ready to compile.
type prepared struct {
	opts  Options
	roots []*packages.Package
	found map[*packages.Package]*kernels.Result
	diags []diagnostic
	prog  *ssa.Program
	env   *lower.Env
}

// compile lowers and emits every kernel of the root packages.
func (pp *prepared) compile(patterns []string) (*Module, error) {
	opts, roots, found, diags, prog, env := pp.opts, pp.roots, pp.found, pp.diags, pp.prog, pp.env
	fset := env.Fset
	m := &kir.Module{}
	man := newManifest(opts)
	var refused, failed []string
	entries := map[string]bool{}
	specs := map[string]lower.Kernel{} // by entry, to lower a kernel again
	for _, p := range roots {
		res := found[p]
		if res == nil {
			continue
		}
		hash := ""
		if len(p.GoFiles) > 0 {
			hash, _ = srchash.Dir(filepath.Dir(p.GoFiles[0]))
		}
		man.SourceHashes = append(man.SourceHashes, PackageHash{Path: p.PkgPath, Hash: hash})
		// Kernel discovery's problems (malformed directives, bad
		// signatures, target limits exceeded) refuse the build whether or
		// not the checks that report them ran: such a kernel cannot be
		// compiled or launched on any target.
		for _, d := range res.Problems {
			refused = append(refused, fmt.Sprintf("%s: [%s] %s", relPos(opts.Dir)(fset.Position(d.Pos)), reporter(diags, d), d.Message))
		}
		for _, k := range res.Kernels {
			if len(k.Problems) > 0 {
				continue
			}
			fn := prog.FuncValue(k.Func)
			if fn == nil {
				return nil, fmt.Errorf("%v: no SSA for kernel %s", fset.Position(k.Func.Pos()), k.Func.Name())
			}
			entry := entryName(p, k.Func.Name())
			for i := 2; entries[entry]; i++ { // two packages of one name
				entry = fmt.Sprintf("%s_%d", entryName(p, k.Func.Name()), i)
			}
			entries[entry] = true
			f, reached, err := lower.LowerReached(env, m, lower.Kernel{Fn: fn, Entry: entry, Block: k.Block, Dims: k.Dims})
			if bad := notProblems(diagnosticsIn(diags, reached, fset), res); len(bad) > 0 {
				for _, d := range bad {
					refused = append(refused, fmt.Sprintf("%s: [%s] %s (kernel %s)", relPos(opts.Dir)(d.position), d.analyzer, d.message, k.Func.Name()))
				}
				continue
			}
			if err != nil {
				var le *lower.Error
				if errors.As(err, &le) {
					err = fmt.Errorf("%s: %s (kernel %s)", relPos(opts.Dir)(le.Pos), le.Msg, k.Func.Name())
				}
				failed = append(failed, err.Error())
				continue
			}
			m.Funcs = append(m.Funcs, f)
			specs[entry] = lower.Kernel{Fn: fn, Entry: entry, Block: k.Block, Dims: k.Dims}
			man.Kernels = append(man.Kernels, kernelManifest(p, k, f, relPos(opts.Dir)(fset.Position(k.Func.Pos()))))
		}
	}
	if len(refused) > 0 {
		sort.Strings(refused)
		return nil, &Refusal{Diagnostics: refused}
	}
	if len(failed) > 0 {
		return nil, fmt.Errorf("cannot compile for the GPU:\n\t%s", strings.Join(failed, "\n\t"))
	}
	if len(m.Funcs) == 0 {
		return nil, errors.New("no //gpu:kernel functions in " + strings.Join(patterns, " "))
	}
	if target, ok := strings.CutPrefix(opts.Target, "llvm-"); ok || opts.Target == "hsaco" {
		if !ok {
			target = "amdgcn"
		}
		text, err := llvm.Emit(m, llvm.Options{Target: target})
		if err != nil {
			return nil, err
		}
		man.Positions, man.PanicMessages = m.Positions, m.PanicMessages
		mod := &Module{LLVM: []byte(text), Manifest: man, IR: m}
		if opts.Target == "hsaco" {
			if mod.HSACO, err = linkHSACO(mod.LLVM, opts.Arch); err != nil {
				return nil, err
			}
		}
		return mod, nil
	}
	man.Positions, man.PanicMessages = m.Positions, m.PanicMessages
	mod := &Module{Manifest: man, IR: m}
	// Each kernel's variant assuming its launch facts (codegen/ABI.md,
	// "Launch facts"), computed once: the PTX and SPIR-V modules carry
	// the same variant under the same name.
	var fast map[*kir.Func]*kir.Func
	facts := map[*kir.Func]*gpuabi.Facts{}
	if !env.DisableOptimizer {
		fast = map[*kir.Func]*kir.Func{}
		for i, f := range m.Funcs {
			if g, fs, ok := kir.AssumeFacts(f); ok {
				fast[f], facts[f] = g, fs
				man.Kernels[i].Facts = fs
			}
		}
	}
	if opts.Target == "spirv" || opts.SPIRV {
		// The optimizer can leave control flow (versioned regions, unrolled
		// loops with early exits) that SPIR-V's structured control flow
		// cannot express; such a kernel is emitted from its unoptimized IR,
		// which computes the same.
		var unoptimized func(entry string) (*kir.Func, error)
		if !env.DisableOptimizer {
			unoptimized = func(entry string) (*kir.Func, error) {
				o0 := *env
				o0.DisableOptimizer = true
				f, _, err := lower.LowerReached(&o0, m, specs[entry])
				return f, err
			}
		}
		if err := emitSPIRV(mod, fset, relPos(opts.Dir), opts.Target == "spirv", unoptimized, fast); err != nil {
			return nil, err
		}
		if opts.Target == "spirv" {
			return mod, nil
		}
	}
	if !env.DisableOptimizer {
		for i, f := range m.Funcs {
			nonCoherent(man.Kernels[i], f)
			if g := fast[f]; g != nil {
				launchFacts(man.Kernels[i], g, facts[f])
			}
		}
	}
	rel := relPos(opts.Dir)
	position := func(p token.Pos) string { return rel(fset.Position(p)) }
	text, err := ptx.Emit(m, ptx.Options{Arch: opts.Arch, NonCoherent: !env.DisableOptimizer, Fast: fast, Position: position})
	if err != nil {
		return nil, err
	}
	mod.PTX = []byte(text)
	return mod, nil
}

type diagnostic struct {
	position token.Position
	pos      token.Pos
	analyzer string
	message  string
}

// reporter names the check that reported kernel discovery's problem d, or
// kernel discovery itself when no check ran that reports it.
func reporter(diags []diagnostic, d analysis.Diagnostic) string {
	for _, x := range diags {
		if x.pos == d.Pos && x.message == d.Message {
			return x.analyzer
		}
	}
	return kernels.Analyzer.Name
}

// notProblems drops the diagnostics that report kernel discovery's problems,
// which the build lists once already.
func notProblems(diags []diagnostic, res *kernels.Result) []diagnostic {
	var out []diagnostic
	for _, d := range diags {
		if !slices.ContainsFunc(res.Problems, func(p analysis.Diagnostic) bool { return p.Pos == d.pos && p.Message == d.message }) {
			out = append(out, d)
		}
	}
	return out
}

// diagnosticsIn returns the diagnostics that lie inside the functions a
// kernel reached (itself and the device functions inlined into it).
func diagnosticsIn(diags []diagnostic, reached []*ssa.Function, fset *token.FileSet) []diagnostic {
	var out []diagnostic
	for _, d := range diags {
		for _, fn := range reached {
			syn := fn.Syntax()
			if syn == nil {
				if o := fn.Origin(); o != nil {
					syn = o.Syntax()
				}
			}
			if syn != nil && syn.Pos() <= d.pos && d.pos < syn.End() {
				out = append(out, d)
				break
			}
			if fd, ok := syn.(*ast.FuncDecl); ok && fd.Doc != nil && fd.Doc.Pos() <= d.pos && d.pos < fd.Doc.End() {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// relevant reports whether a package may hold kernel or device code.
func relevant(p *packages.Package) bool {
	if p.PkgPath == kernelapi.DevMathPath {
		return true
	}
	for path := range p.Imports {
		if path == gpuapi.Path {
			return true
		}
	}
	return directive.Mentioned(p.Syntax)
}

// entryName is the PTX entry point of kernel name of package p:
// "<package name>_<kernel name>", with anything PTX does not allow in an
// identifier replaced.
func entryName(p *packages.Package, name string) string {
	s := p.Name + "_" + name
	return strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
			return r
		}
		return '_'
	}, s)
}

// relPos formats positions relative to dir (or the working directory).
// Each file's path is worked out once (outside dir, moduleRoot's walk
// stats the file system): the PTX emitter formats the position of every
// value it writes. The function it returns is for one goroutine.
func relPos(dir string) func(token.Position) string {
	base := dir
	if base == "" {
		base, _ = os.Getwd()
	}
	files := map[string]string{}
	return func(p token.Position) string {
		file, ok := files[p.Filename]
		if !ok {
			file = relFile(base, p.Filename)
			files[p.Filename] = file
		}
		return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Column)
	}
}

// relFile is file's path relative to base or, outside it, to its module's
// root (which keeps the output the same in every checkout), with slashes.
func relFile(base, file string) string {
	if rel, err := filepath.Rel(base, file); err == nil && !strings.HasPrefix(rel, "..") {
		file = rel
	} else if root := moduleRoot(file); root != "" {
		if rel, err := filepath.Rel(root, file); err == nil {
			file = rel
		}
	}
	return filepath.ToSlash(file)
}

// moduleRoot returns the nearest directory above file that holds a go.mod,
// or "".
func moduleRoot(file string) string {
	for dir := filepath.Dir(file); ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// emitSPIRV emits mod.IR as SPIR-V into mod and describes each kernel's
// Vulkan interface in the manifest. With strict, a kernel the emitter
// cannot express fails the build; otherwise it is recorded in
// mod.SPIRVFailed and left out of the module. fast maps a kernel to its
// variant assuming its launch facts (kir.AssumeFacts), which the module
// carries as one more entry point under the variant's name; a variant the
// emitter cannot express is left out (the kernel then has none on Vulkan:
// SPIRVInfo.EntryFast is empty) and fails nothing.
func emitSPIRV(mod *Module, fset *token.FileSet, rel func(token.Position) string, strict bool, unoptimized func(entry string) (*kir.Func, error), fast map[*kir.Func]*kir.Func) error {
	// withFast lists funcs, each kernel followed by its variant; orig are
	// the kernels fast is keyed by (funcs may hold unoptimized ones).
	withFast := func(funcs []*kir.Func) []*kir.Func {
		var out []*kir.Func
		for i, f := range funcs {
			out = append(out, f)
			if g := fast[mod.IR.Funcs[i]]; g != nil {
				out = append(out, g)
			}
		}
		return out
	}
	variants := map[string]bool{}
	for _, g := range fast {
		variants[g.Name] = true
	}
	// kernelFailures counts the failures of kernels, not of variants.
	kernelFailures := func(r *spirv.Result) int {
		n := 0
		for name := range r.Failed {
			if !variants[name] {
				n++
			}
		}
		return n
	}
	all := *mod.IR
	all.Funcs = withFast(mod.IR.Funcs)
	res, err := spirv.Emit(&all, spirv.Options{})
	if err != nil {
		return err
	}
	funcs := mod.IR.Funcs
	if kernelFailures(res) > 0 && unoptimized != nil {
		retry := *mod.IR
		retry.Funcs = slices.Clone(mod.IR.Funcs)
		for i, f := range retry.Funcs {
			if _, ok := res.Failed[f.Name]; !ok {
				continue
			}
			if g, err := unoptimized(f.Name); err == nil {
				retry.Funcs[i] = g
			}
		}
		// Re-lowering added positions to the module; the retry shares them.
		retry.Positions, retry.PanicMessages = mod.IR.Positions, mod.IR.PanicMessages
		retryAll := retry
		retryAll.Funcs = withFast(retry.Funcs)
		if res2, err := spirv.Emit(&retryAll, spirv.Options{}); err == nil && kernelFailures(res2) <= kernelFailures(res) {
			res, funcs = res2, retry.Funcs
			mod.Manifest.Positions, mod.Manifest.PanicMessages = mod.IR.Positions, mod.IR.PanicMessages
		}
	}
	byEntry := map[string]*KernelInfo{}
	for _, k := range mod.Manifest.Kernels {
		byEntry[k.Entry] = k
	}
	var failed []string
	for i, f := range funcs {
		k := byEntry[f.Name]
		if k == nil {
			continue
		}
		if ferr, ok := res.Failed[f.Name]; ok {
			msg := ferr.Error()
			var se *spirv.Error
			if errors.As(ferr, &se) {
				pos := k.Pos
				if se.TokPos.IsValid() {
					pos = rel(fset.Position(se.TokPos))
				}
				msg = fmt.Sprintf("%s: %s (kernel %s; SPIR-V)", pos, se.Msg, k.Name)
			}
			failed = append(failed, msg)
			if mod.SPIRVFailed == nil {
				mod.SPIRVFailed = map[string]string{}
			}
			mod.SPIRVFailed[k.Name] = msg
			continue
		}
		k.SPIRV = spirvInfo(f, k, res)
		if g := fast[mod.IR.Funcs[i]]; g != nil {
			if _, failed := res.Failed[g.Name]; !failed {
				k.SPIRV.EntryFast = g.Name
			}
		}
	}
	if strict && len(failed) > 0 {
		sort.Strings(failed)
		return fmt.Errorf("cannot compile for SPIR-V:\n\t%s", strings.Join(failed, "\n\t"))
	}
	mod.SPIRV = res.Binary
	mod.Manifest.SPIRVFeatures = res.Features
	if mod.Manifest.SPIRVFeatures == nil && res.Binary != nil {
		mod.Manifest.SPIRVFeatures = []string{}
	}
	return nil
}
