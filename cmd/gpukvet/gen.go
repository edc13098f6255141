package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gpukvet/gpukvet/internal/directive"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
	"github.com/gpukvet/gpukvet/internal/gpuapi"
	"github.com/gpukvet/gpukvet/internal/srchash"
)

const genUsage = `usage: gpukvet gen [-o FILE] [-arch sm_XX] [-targets ptx,spirv] [-check] [PKG ...]

gen compiles the //gpu:kernel functions of each package (default ".";
a pattern with "..." skips packages without kernels) to PTX and SPIR-V
(-targets chooses) and writes FILE (default gpukvet_gen.go) into the package's folder: the
embedded modules, an init function that registers each kernel's compiled code
with package device, and one typed launch function per kernel,

	func LaunchSaxpy(d *device.Device, grid, block gpu.Dim3, a float32, x, y *device.Buffer[float32]) error

so that wrong arguments are compile errors. Put

	//go:generate gpukvet gen

in the package and run go generate. The output is deterministic. It records
a hash of the package's sources: a GPU backend refuses the code once they
change (when the sources are on the machine), and -check exits 1 when FILE
is missing or out of date, for CI. gen never overwrites a file it did not
write.
`

// genMain runs `gpukvet gen ARGS` and returns the process exit code.
func genMain(args []string) int {
	return runGen(args, os.Stdout, os.Stderr)
}

func runGen(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gpukvet gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, genUsage) }
	out := fs.String("o", "gpukvet_gen.go", "`file` to write in the package's folder")
	arch := fs.String("arch", "sm_80", "PTX target `architecture` (the driver JIT-compiles it for newer GPUs)")
	check := fs.Bool("check", false, "only report whether the file is up to date (exit 1 if not)")
	targetList := fs.String("targets", "ptx,spirv", "comma-separated `targets` to embed: ptx (cuda backend), spirv (vulkan backend)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	targets, err := parseGenTargets(*targetList)
	if err != nil {
		fmt.Fprintf(stderr, "gpukvet gen: %v\n", err)
		return 2
	}
	if *out != filepath.Base(*out) || !strings.HasSuffix(*out, ".go") || strings.HasSuffix(*out, "_test.go") {
		fmt.Fprintf(stderr, "gpukvet gen: -o %q must be a .go file name (no folder, not a test file)\n", *out)
		return 2
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	gps, err := loadGenPackages(patterns)
	if err != nil {
		fmt.Fprintf(stderr, "gpukvet gen: %v\n", err)
		return 2
	}
	code := 0
	for _, gp := range gps {
		gp.targets = targets
		code = max(code, genOne(gp, *out, *arch, *check, stdout, stderr))
	}
	return code
}

// genOne writes (or with check, compares) the generated file of one package.
func genOne(pkg *genPackage, out, arch string, check bool, stdout, stderr io.Writer) int {
	target := filepath.Join(pkg.dir, out)
	old, err := os.ReadFile(target)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stderr, "gpukvet gen: %v\n", err)
		return 2
	}
	if exists && !srchash.IsGenerated(old) {
		fmt.Fprintf(stderr, "gpukvet gen: %s exists and was not written by gpukvet gen; not overwriting it (choose another name with -o)\n", target)
		return 2
	}
	pkg.out = out
	src, err := generate(pkg, arch)
	reportSPIRVFailures(stderr, pkg)
	if err != nil {
		fmt.Fprintf(stderr, "gpukvet gen: %v\n", err)
		if exists && strings.Contains(err.Error(), "loading packages") {
			fmt.Fprintf(stderr, "gpukvet gen: if %s no longer compiles (a kernel was removed or renamed), delete it and run gen again\n", target)
		}
		return 1
	}
	if check {
		if !exists || !bytes.Equal(old, src) {
			fmt.Fprintf(stderr, "gpukvet gen: %s is out of date: run go generate (gpukvet gen) in %s\n", target, pkg.dir)
			return 1
		}
		return 0
	}
	if exists && bytes.Equal(old, src) {
		return 0
	}
	if err := os.WriteFile(target, src, 0o644); err != nil {
		fmt.Fprintf(stderr, "gpukvet gen: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "gpukvet gen: wrote %s\n", target)
	return 0
}

// genPackage is the loaded package gen works on.
type genPackage struct {
	pkg     *packages.Package
	dir     string
	kernels []*genKernel // in name order
	targets genTargets   // what to embed (zero: PTX only)
	// spirvFailed are the kernels generate left without SPIR-V, and why.
	spirvFailed map[string]string
	// out is the name of the file gen writes (for its line directives).
	out string
	// overlay replaces the files gen wrote earlier with bare package
	// clauses, for every load of the package (see loadGenPackages).
	overlay map[string][]byte
}

// genKernel is one //gpu:kernel function.
type genKernel struct {
	name   string
	fn     *types.Func
	params []*types.Var // after the gpu.Thread
}

// loadGenPackage loads the one package that pattern names.
func loadGenPackage(pattern string) (*genPackage, error) {
	gps, err := loadGenPackages([]string{pattern})
	if err != nil {
		return nil, err
	}
	if len(gps) != 1 {
		return nil, fmt.Errorf("%q names %d packages with kernels; want one", pattern, len(gps))
	}
	return gps[0], nil
}

// loadGenPackages loads the packages that patterns name and returns those
// holding //gpu:kernel functions. A pattern that names a single package
// without kernels is an error; one with "..." skips such packages.
func loadGenPackages(patterns []string) ([]*genPackage, error) {
	// Files gen wrote earlier are loaded as bare package clauses, so that an
	// out-of-date one (say, calling a kernel whose parameters changed)
	// cannot keep the package from loading.
	first, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles}, patterns...)
	if err != nil {
		return nil, err
	}
	overlay := map[string][]byte{}
	for _, p := range first {
		for _, f := range p.GoFiles {
			if data, err := os.ReadFile(f); err == nil && srchash.IsGenerated(data) {
				overlay[f] = []byte(srchash.GeneratedHeader + "\n\npackage " + p.Name + "\n")
			}
		}
	}
	cfg := &packages.Config{
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedModule,
		Overlay: overlay,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	var errs []string
	packages.Visit(pkgs, nil, func(q *packages.Package) {
		for _, e := range q.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s does not load:\n\t%s", strings.Join(patterns, " "), strings.Join(errs, "\n\t"))
	}
	var gps []*genPackage
	wildcard := len(pkgs) > 1 || strings.Contains(strings.Join(patterns, " "), "...")
	for _, p := range pkgs {
		if len(p.GoFiles) == 0 && wildcard {
			continue // only tests, say
		}
		gp, err := genKernelsOf(p)
		if err != nil {
			return nil, err
		}
		if len(gp.kernels) == 0 {
			if !wildcard {
				return nil, fmt.Errorf("package %s has no //gpu:kernel functions", p.PkgPath)
			}
			continue
		}
		gp.overlay = overlay
		gps = append(gps, gp)
	}
	return gps, nil
}

// genKernelsOf finds the kernels of a loaded package.
func genKernelsOf(p *packages.Package) (*genPackage, error) {
	if len(p.GoFiles) == 0 {
		return nil, fmt.Errorf("package %s has no Go files", p.PkgPath)
	}
	gp := &genPackage{pkg: p, dir: filepath.Dir(p.GoFiles[0])}
	for _, f := range p.Syntax {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			d, err := directive.Find(fd.Doc)
			if err != nil {
				return nil, fmt.Errorf("%v: %v", p.Fset.Position(fd.Pos()), err)
			}
			if d.Kind != directive.Kernel {
				continue
			}
			fn, _ := p.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			sig := fn.Signature()
			if sig.TypeParams().Len() > 0 {
				return nil, fmt.Errorf("%v: kernel %s is generic; gen compiles only non-generic kernels", p.Fset.Position(fd.Pos()), fn.Name())
			}
			var params []*types.Var
			for i := 1; i < sig.Params().Len(); i++ {
				params = append(params, sig.Params().At(i))
			}
			gp.kernels = append(gp.kernels, &genKernel{name: fn.Name(), fn: fn, params: params})
		}
	}
	sort.Slice(gp.kernels, func(i, j int) bool { return gp.kernels[i].name < gp.kernels[j].name })
	return gp, nil
}

// compiled is what the codegen produced for a package.
type compiled struct {
	spirvCode // SPIR-V, when gp.targets asks for it
	ptx       []byte
	positions []string // trap position ids → "file:line:col", shared by the module's kernels
	kernels   map[string]compiledKernel
}

type compiledKernel struct {
	entry       string
	entryNC     string // the variant with non-coherent loads, "" if none
	readOnly    []int  // the slice parameters it reads so
	dims        int    // 0: unknown
	block, grid []int  // the block= and grid= shapes, nil if free
	// entryFast and entryFastNC are the variants compiled assuming facts
	// (codegen/ABI.md, "Launch facts"); "" and nil if none.
	entryFast, entryFastNC string
	facts                  *gpuabi.Facts
}

// generate renders the generated file for pkg.
func generate(gp *genPackage, arch string) ([]byte, error) {
	c, err := compileForGen(gp, arch)
	if err != nil {
		return nil, err
	}
	hash, err := srchash.Dir(gp.dir)
	if err != nil {
		return nil, err
	}
	p := gp.pkg
	scope := p.Types.Scope()
	genFile := func(obj types.Object) bool {
		return srchash.IsGenerated(fileBytes(p, obj))
	}
	imports := map[string]string{ // path → name used
		"github.com/gpukvet/gpukvet/device":         "device",
		"github.com/gpukvet/gpukvet/device/backend": "backend",
		gpuapi.Path: "gpu",
	}
	usedNames := map[string]string{"device": "github.com/gpukvet/gpukvet/device", "backend": "github.com/gpukvet/gpukvet/device/backend", "gpu": gpuapi.Path}
	for _, name := range []string{"device", "backend", "gpu"} {
		if obj := scope.Lookup(name); obj != nil && !genFile(obj) {
			return nil, fmt.Errorf("package %s declares %s, which the generated file needs as a package name", p.PkgPath, name)
		}
	}
	qual := func(pkg *types.Package) string {
		if pkg == p.Types {
			return ""
		}
		if name, ok := imports[pkg.Path()]; ok {
			return name
		}
		name := pkg.Name()
		for i := 2; ; i++ {
			if _, taken := usedNames[name]; !taken && scope.Lookup(name) == nil {
				break
			}
			name = fmt.Sprintf("%s%d", pkg.Name(), i)
		}
		imports[pkg.Path()] = name
		usedNames[name] = pkg.Path()
		return name
	}

	var body bytes.Buffer
	w := func(format string, args ...any) { fmt.Fprintf(&body, format, args...) }
	w("// gpukvetSourceHash identifies the package sources the code below was\n")
	w("// compiled from; a GPU backend refuses the code once they change.\n")
	w("const gpukvetSourceHash = %q\n\n", hash)
	if !gp.targets.noPTX {
		w("// gpukvetPTX is the PTX module (target %s) of the package's kernels.\n", arch)
		w("const gpukvetPTX = %s\n\n", ptxLiteral(c.ptx))
		w("var gpukvetModule = []byte(gpukvetPTX)\n\n")
	}
	writeSPIRV(&body, gp, c)
	w("// gpukvetPositions maps a trap's position id to its Go source position.\n")
	w("var gpukvetPositions = []string{\n")
	for _, pos := range c.positions {
		w("\t%q,\n", pos)
	}
	w("}\n\n")
	w("// gpukvetErr is the first registration error, returned by every Launch function.\n")
	w("var gpukvetErr error\n\n")
	w("func gpukvetRegister(fn any, spec device.KernelSpec) {\n")
	w("\tif err := device.RegisterKernel(fn, spec); err != nil && gpukvetErr == nil {\n")
	w("\t\tgpukvetErr = err\n\t}\n}\n\n")
	w("func init() {\n")
	for _, k := range gp.kernels {
		ck, ok := c.kernels[k.name]
		if !ok {
			return nil, fmt.Errorf("the codegen produced no code for kernel %s", k.name)
		}
		var names []string
		for i, v := range k.params {
			names = append(names, paramName(v, i))
		}
		w("\tgpukvetRegister(%s, device.KernelSpec{\n", k.name)
		// Shapes and dimensionality are kernel discovery's
		// (internal/kernels, through the build's manifest), so the
		// runtime takes them from the analysis, not from a parse of
		// its own.
		if len(ck.block) == 3 {
			w("\t\tBlock: gpu.Dim3{X: %d, Y: %d, Z: %d},\n", ck.block[0], ck.block[1], ck.block[2])
		}
		if len(ck.grid) == 3 {
			w("\t\tGrid: gpu.Dim3{X: %d, Y: %d, Z: %d},\n", ck.grid[0], ck.grid[1], ck.grid[2])
		}
		if ck.dims > 0 {
			w("\t\tDims: %d,\n", ck.dims)
		}
		w("\t\tParams: %#v,\n", names)
		w("\t\tCode: &backend.Code{%sEntry: %q, %sSourceHash: gpukvetSourceHash, Positions: gpukvetPositions%s%s},\n", ptxField(gp), ck.entry, ncFields(gp, ck), spirvFields(gp, c, k.name), factsFields(gp, ck))
		w("\t\tCPU: &backend.CPUCode{Bind: gpukvetCPU%s},\n", k.name)
		w("\t})\n")
	}
	w("}\n")
	for _, k := range gp.kernels {
		launch := "Launch" + k.name
		if obj := scope.Lookup(launch); obj != nil && !genFile(obj) {
			return nil, fmt.Errorf("package %s already declares %s, the name of kernel %s's launch function", p.PkgPath, launch, k.name)
		}
		reserved := map[string]bool{"d": true, "grid": true, "block": true, k.name: true}
		var params, args []string
		for i, v := range k.params {
			name := paramName(v, i)
			for reserved[name] || (scope.Lookup(name) != nil && name != v.Name()) {
				name += "_"
			}
			reserved[name] = true
			t := v.Type()
			var ts string
			if s, ok := t.Underlying().(*types.Slice); ok {
				ts = "*device.Buffer[" + types.TypeString(s.Elem(), qual) + "]"
			} else {
				ts = types.TypeString(t, qual)
			}
			params = append(params, name+" "+ts)
			args = append(args, name)
		}
		w("\n// %s launches kernel %s on d. Slice parameters take device buffers;\n", launch, k.name)
		w("// the compiler checks every argument's type.\n")
		w("func %s(d *device.Device, grid, block gpu.Dim3", launch)
		for _, prm := range params {
			w(", %s", prm)
		}
		w(") error {\n\tif gpukvetErr != nil {\n\t\treturn gpukvetErr\n\t}\n")
		w("\treturn d.Launch(%s, grid, block", k.name)
		for _, a := range args {
			w(", %s", a)
		}
		w(")\n}\n")
	}

	for _, k := range gp.kernels {
		writeCPUEntry(w, gp, k, qual)
	}

	var file bytes.Buffer
	fmt.Fprintf(&file, "%s\n\n", srchash.GeneratedHeader)
	fmt.Fprintf(&file, "package %s\n\nimport (\n", p.Name)
	paths := make([]string, 0, len(imports))
	for path := range imports {
		paths = append(paths, path)
	}
	// Standard library first, then the rest, as goimports groups them.
	std := func(path string) bool { return !strings.Contains(strings.Split(path, "/")[0], ".") }
	sort.Slice(paths, func(i, j int) bool {
		if std(paths[i]) != std(paths[j]) {
			return std(paths[i])
		}
		return paths[i] < paths[j]
	})
	for i, path := range paths {
		if i > 0 && std(paths[i-1]) && !std(path) {
			file.WriteString("\n")
		}
		name := imports[path]
		if name == lastElem(path) {
			fmt.Fprintf(&file, "\t%q\n", path)
		} else {
			fmt.Fprintf(&file, "\t%s %q\n", name, path)
		}
	}
	fmt.Fprintf(&file, ")\n\n")
	file.Write(body.Bytes())
	out, err := format.Source(file.Bytes())
	if err != nil {
		return nil, fmt.Errorf("internal error: generated code does not parse: %v", err)
	}
	return resetLines(out, gp.out), nil
}

// paramName is a kernel parameter's name, or pN for a blank or unnamed one.
func paramName(v *types.Var, i int) string {
	if v.Name() == "" || v.Name() == "_" {
		return fmt.Sprintf("p%d", i+1)
	}
	return v.Name()
}

func lastElem(path string) string { return path[strings.LastIndex(path, "/")+1:] }

// ptxLiteral quotes PTX text as a raw string when it can.
func ptxLiteral(ptx []byte) string {
	s := string(ptx)
	if !strings.ContainsAny(s, "`\r") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// fileBytes returns the contents of the file that declares obj.
func fileBytes(p *packages.Package, obj types.Object) []byte {
	name := p.Fset.Position(obj.Pos()).Filename
	data, _ := os.ReadFile(name)
	return data
}
