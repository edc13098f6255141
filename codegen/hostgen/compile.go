package hostgen

import (
	"fmt"
	"strings"

	"github.com/gpukvet/gpukvet/codegen"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// compiled is what the codegen produced for a package.
type compiled struct {
	ptx       []byte
	positions []string // trap position ids → "file:line:col", shared by the module's kernels
	kernels   map[string]compiledKernel
	// spirv is the SPIR-V module, when Targets.SPIRV asks for it, and
	// spirvFeatures the Vulkan device features it needs.
	spirv         []byte
	spirvFeatures []string
	// spirvFailed maps kernels left out of the SPIR-V module to why.
	spirvFailed map[string]string
}

// compiledKernel is what the codegen's manifest says of one kernel.
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

// compileKernels compiles a package's kernels with the codegen library
// (the same code as `gpukvet build`, checks included: a kernel a check
// reports on is refused, citing the diagnostic). Positions are relative to
// the module's root, so the output does not depend on where gen runs.
func compileKernels(p *Package, opts Options) (*compiled, error) {
	dir := p.dir
	if m := p.pkg.Module; m != nil && m.Dir != "" {
		dir = m.Dir
	}
	mod, err := codegen.Build([]string{p.pkg.PkgPath}, codegen.Options{Target: "ptx", Arch: opts.Arch, Dir: dir, SPIRV: opts.Targets.SPIRV, Checks: opts.Checks, Overlay: p.overlay, SkipPasses: opts.SkipPasses})
	if err != nil {
		return nil, err
	}
	c := &compiled{ptx: mod.PTX, positions: mod.Manifest.Positions, kernels: map[string]compiledKernel{}}
	if opts.Targets.SPIRV {
		c.spirv, c.spirvFeatures, c.spirvFailed = mod.SPIRV, mod.Manifest.SPIRVFeatures, mod.SPIRVFailed
	}
	for _, k := range mod.Manifest.Kernels {
		if k.Pkg != p.pkg.PkgPath {
			continue
		}
		c.kernels[k.Name] = compiledKernel{entry: k.Entry, entryNC: k.EntryNC, readOnly: k.ReadOnly, dims: k.Dims, block: k.Block, grid: k.Grid,
			entryFast: k.EntryFast, entryFastNC: k.EntryFastNC, facts: k.Facts}
	}
	for _, k := range p.kernels {
		if _, ok := c.kernels[k.name]; !ok {
			return nil, fmt.Errorf("the codegen produced no code for kernel %s", k.name)
		}
	}
	return c, nil
}

// ncFields are the fields of a kernel's backend.Code that name its entry
// point with non-coherent loads (codegen/ABI.md), when the PTX has one.
func (g *generation) ncFields(ck compiledKernel) string {
	if !g.opts.Targets.PTX || ck.entryNC == "" {
		return ""
	}
	return fmt.Sprintf("EntryNC: %q, ReadOnly: %#v, ", ck.entryNC, ck.readOnly)
}

// factsFields are the fields of a kernel's backend.Code that name its
// entry points compiled assuming its launch facts, and the facts
// (codegen/ABI.md, "Launch facts"), when the PTX has them: the facts as a
// composite literal of device/backend's aliases of internal/gpuabi's types,
// because the generated file lives in the user's module, which cannot
// import an internal package of gpukvet's.
func (g *generation) factsFields(ck compiledKernel) string {
	if !g.opts.Targets.PTX || ck.entryFast == "" || ck.facts == nil || len(ck.facts.Result) == 0 {
		return ""
	}
	s := fmt.Sprintf(", EntryFast: %q, ", ck.entryFast)
	if ck.entryFastNC != "" {
		s += fmt.Sprintf("EntryFastNC: %q, ", ck.entryFastNC)
	}
	return s + "Facts: " + factsLiteral(ck.facts)
}

// factsLiteral writes fs as a Go expression of type *backend.Facts, one
// op a line, leaving out zero fields.
func factsLiteral(fs *gpuabi.Facts) string {
	var b strings.Builder
	b.WriteString("&backend.Facts{\nOps: []backend.FactOp{\n")
	for _, op := range fs.Ops {
		fmt.Fprintf(&b, "{Op: %q, Kind: %q", op.Op, op.Kind)
		if len(op.Args) > 0 {
			fmt.Fprintf(&b, ", Args: %#v", op.Args)
		}
		switch {
		case op.Imm >= 1<<32:
			fmt.Fprintf(&b, ", Imm: %#x", op.Imm)
		case op.Imm != 0:
			fmt.Fprintf(&b, ", Imm: %d", op.Imm)
		}
		if op.Index != 0 {
			fmt.Fprintf(&b, ", Index: %d", op.Index)
		}
		b.WriteString("},\n")
	}
	fmt.Fprintf(&b, "},\nResult: %#v,\n}", fs.Result)
	return b.String()
}
