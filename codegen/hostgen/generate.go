package hostgen

import (
	"bytes"
	"fmt"
	"go/format"
	"go/types"
	"os"
	"strconv"
	"strings"

	"github.com/gpukvet/gpukvet/internal/srchash"
)

// generation is the rendering of one package's generated file.
type generation struct {
	p    *Package
	opts Options
	c    *compiled
	// scope is the package's scope, whose names the file must not hide.
	scope   *types.Scope
	imports *importSet
	body    bytes.Buffer
	// noSPIRV are the kernels left without SPIR-V, and why, once the
	// SPIR-V module is written.
	noSPIRV map[string]string
	// cpu is every kernel's block function (planCPU).
	cpu map[string]cpuEntry
}

// generate renders the generated file for p, returning the generation
// too: its compiled modules and which kernels got no SPIR-V (nil when
// compiling failed).
func generate(p *Package, opts Options) (src []byte, g *generation, err error) {
	opts = opts.withDefaults()
	compile := opts.compile
	if compile == nil {
		compile = compileKernels
	}
	c, err := compile(p, opts)
	if err != nil {
		return nil, nil, err
	}
	hash, err := srchash.Dir(p.dir)
	if err != nil {
		return nil, nil, err
	}
	g = &generation{p: p, opts: opts, c: c, scope: p.pkg.Types.Scope()}
	g.imports, err = newImportSet(g)
	if err != nil {
		return nil, nil, err
	}
	g.writeModules(hash)
	g.planCPU()
	g.writeRegistration()
	if err := g.writeLaunchFunctions(); err != nil {
		return nil, g, err
	}
	for _, k := range p.kernels {
		g.writeCPUEntry(k)
	}
	src, err = g.file()
	return src, g, err
}

// w writes to the file's body.
func (g *generation) w(format string, args ...any) { fmt.Fprintf(&g.body, format, args...) }

// generated reports whether obj is declared in a file gen wrote (whose
// names the new file replaces).
func (g *generation) generated(obj types.Object) bool {
	name := g.p.pkg.Fset.Position(obj.Pos()).Filename
	data, _ := os.ReadFile(name)
	return srchash.IsGenerated(data)
}

// writeModules writes the embedded modules and what every kernel's code
// shares: the source hash and the trap positions.
func (g *generation) writeModules(hash string) {
	g.w("// gpukvetSourceHash identifies the package sources the code below was\n")
	g.w("// compiled from; a GPU backend refuses the code once they change.\n")
	g.w("const gpukvetSourceHash = %q\n\n", hash)
	if g.opts.Targets.PTX {
		g.w("// gpukvetPTX is the PTX module (target %s) of the package's kernels.\n", g.opts.Arch)
		g.w("const gpukvetPTX = %s\n\n", ptxLiteral(g.c.ptx))
		g.w("var gpukvetModule = []byte(gpukvetPTX)\n\n")
	}
	g.writeSPIRV()
	g.w("// gpukvetPositions maps a trap's position id to its Go source position.\n")
	g.w("var gpukvetPositions = []string{\n")
	for _, pos := range g.c.positions {
		g.w("\t%q,\n", pos)
	}
	g.w("}\n\n")
}

// writeRegistration writes the init function that registers every kernel
// with package device.
func (g *generation) writeRegistration() {
	g.w("// gpukvetErr is the first registration error, returned by every Launch function.\n")
	g.w("var gpukvetErr error\n\n")
	g.w("func gpukvetRegister(fn any, spec device.KernelSpec) {\n")
	g.w("\tif err := device.RegisterKernel(fn, spec); err != nil && gpukvetErr == nil {\n")
	g.w("\t\tgpukvetErr = err\n\t}\n}\n\n")
	g.w("func init() {\n")
	for _, k := range g.p.kernels {
		g.writeSpec(k)
	}
	g.w("}\n")
}

// writeSpec writes the registration of kernel k.
func (g *generation) writeSpec(k *kernel) {
	ck := g.c.kernels[k.name]
	var names []string
	for i, v := range k.params {
		names = append(names, paramName(v, i))
	}
	g.w("\tgpukvetRegister(%s, device.KernelSpec{\n", k.name)
	// Shapes and dimensionality are kernel discovery's (internal/kernels,
	// through the build's manifest), so the runtime takes them from the
	// analysis, not from a parse of its own.
	if len(ck.block) == 3 {
		g.w("\t\tBlock: gpu.Dim3{X: %d, Y: %d, Z: %d},\n", ck.block[0], ck.block[1], ck.block[2])
	}
	if len(ck.grid) == 3 {
		g.w("\t\tGrid: gpu.Dim3{X: %d, Y: %d, Z: %d},\n", ck.grid[0], ck.grid[1], ck.grid[2])
	}
	if ck.dims > 0 {
		g.w("\t\tDims: %d,\n", ck.dims)
	}
	g.w("\t\tParams: %#v,\n", names)
	g.w("\t\tCode: &backend.Code{%sEntry: %q, %sSourceHash: gpukvetSourceHash, Positions: gpukvetPositions%s%s},\n",
		g.ptxField(), ck.entry, g.ncFields(ck), g.spirvFields(k.name), g.factsFields(ck))
	spans := ""
	if g.cpu[k.name].spans {
		spans = ", Spans: true"
	}
	g.w("\t\tCPU: &backend.CPUCode{Bind: gpukvetCPU%s%s},\n", k.name, spans)
	g.w("\t})\n")
}

// writeLaunchFunctions writes one typed launch function per kernel, so
// that wrong arguments are compile errors.
func (g *generation) writeLaunchFunctions() error {
	for _, k := range g.p.kernels {
		launch := "Launch" + k.name
		if obj := g.scope.Lookup(launch); obj != nil && !g.generated(obj) {
			return fmt.Errorf("package %s already declares %s, the name of kernel %s's launch function", g.p.Path(), launch, k.name)
		}
		params, args := g.launchParams(k)
		g.w("\n// %s launches kernel %s on d. Slice parameters take device buffers;\n", launch, k.name)
		g.w("// the compiler checks every argument's type.\n")
		g.w("func %s(d *device.Device, grid, block gpu.Dim3", launch)
		for _, prm := range params {
			g.w(", %s", prm)
		}
		g.w(") error {\n\tif gpukvetErr != nil {\n\t\treturn gpukvetErr\n\t}\n")
		g.w("\treturn d.Launch(%s, grid, block", k.name)
		for _, a := range args {
			g.w(", %s", a)
		}
		g.w(")\n}\n")
	}
	return nil
}

// launchParams returns the parameters of kernel k's launch function after
// the grid and block ("name type", a device buffer for a slice) and their
// names: the kernel's, unless the function's own or a package-level name
// would clash.
func (g *generation) launchParams(k *kernel) (params, args []string) {
	reserved := map[string]bool{"d": true, "grid": true, "block": true, k.name: true}
	for i, v := range k.params {
		name := paramName(v, i)
		for reserved[name] || (g.scope.Lookup(name) != nil && name != v.Name()) {
			name += "_"
		}
		reserved[name] = true
		t := v.Type()
		var ts string
		if s, ok := t.Underlying().(*types.Slice); ok {
			ts = "*device.Buffer[" + types.TypeString(s.Elem(), g.imports.qualifier) + "]"
		} else {
			ts = types.TypeString(t, g.imports.qualifier)
		}
		params = append(params, name+" "+ts)
		args = append(args, name)
	}
	return params, args
}

// file assembles the generated file: header, package clause, imports and
// body, formatted, with the line directives that mark where its own
// positions resume.
func (g *generation) file() ([]byte, error) {
	var file bytes.Buffer
	fmt.Fprintf(&file, "%s\n\n", srchash.GeneratedHeader)
	fmt.Fprintf(&file, "package %s\n\n", g.p.pkg.Name)
	g.imports.write(&file)
	file.Write(g.body.Bytes())
	out, err := format.Source(file.Bytes())
	if err != nil {
		return nil, fmt.Errorf("internal error: generated code does not parse: %v", err)
	}
	return resetLines(out, g.opts.File), nil
}

// paramName is a kernel parameter's name, or pN for a blank or unnamed one.
func paramName(v *types.Var, i int) string {
	if v.Name() == "" || v.Name() == "_" {
		return fmt.Sprintf("p%d", i+1)
	}
	return v.Name()
}

// ptxLiteral quotes PTX text as a raw string when it can.
func ptxLiteral(ptx []byte) string {
	s := string(ptx)
	if !strings.ContainsAny(s, "`\r") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// ptxField is the PTX field of a kernel's backend.Code.
func (g *generation) ptxField() string {
	if !g.opts.Targets.PTX {
		return ""
	}
	return "PTX: gpukvetModule, "
}
