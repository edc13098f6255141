package main

import (
	"fmt"

	"github.com/gpukvet/gpukvet/analyzers"
	"github.com/gpukvet/gpukvet/codegen"
)

// compileForGen compiles a package's kernels with the codegen library (the
// same code as `gpukvet build`, checks included: a kernel a check reports
// on is refused, citing the diagnostic). Positions are relative to the
// module's root, so the output does not depend on where gen runs.
var compileForGen = func(gp *genPackage, arch string) (*compiled, error) {
	dir := gp.dir
	if m := gp.pkg.Module; m != nil && m.Dir != "" {
		dir = m.Dir
	}
	mod, err := codegen.Build([]string{gp.pkg.PkgPath}, codegen.Options{Target: "ptx", Arch: arch, Dir: dir, SPIRV: gp.targets.spirv, Checks: analyzers.All(), Overlay: gp.overlay})
	if err != nil {
		return nil, err
	}
	c := &compiled{ptx: mod.PTX, positions: mod.Manifest.Positions, kernels: map[string]compiledKernel{}}
	if gp.targets.spirv {
		c.spirvCode = spirvCode{spirv: mod.SPIRV, spirvFeatures: mod.Manifest.SPIRVFeatures, spirvFailed: mod.SPIRVFailed}
	}
	for _, k := range mod.Manifest.Kernels {
		if k.Pkg != gp.pkg.PkgPath {
			continue
		}
		c.kernels[k.Name] = compiledKernel{entry: k.Entry, entryNC: k.EntryNC, readOnly: k.ReadOnly, dims: k.Dims, block: k.Block, grid: k.Grid}
	}
	for _, k := range gp.kernels {
		if _, ok := c.kernels[k.name]; !ok {
			return nil, fmt.Errorf("the codegen produced no code for kernel %s", k.name)
		}
	}
	return c, nil
}

// ncFields are the fields of a kernel's backend.Code that name its entry
// point with non-coherent loads (codegen/ABI.md), when the PTX has one.
func ncFields(gp *genPackage, ck compiledKernel) string {
	if gp.targets.noPTX || ck.entryNC == "" {
		return ""
	}
	return fmt.Sprintf("EntryNC: %q, ReadOnly: %#v, ", ck.entryNC, ck.readOnly)
}
