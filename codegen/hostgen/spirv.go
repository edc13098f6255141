package hostgen

import (
	"maps"
	"slices"
	"strconv"
)

// writeSPIRV writes the embedded SPIR-V module and, for each kernel the
// SPIR-V emitter could not express, a comment saying why (gen also says
// so on stderr): such a kernel registers no SPIR-V, and the vulkan backend
// refuses to launch it, naming the reason, while the cuda and cpu backends
// run it.
func (g *generation) writeSPIRV() {
	if !g.opts.Targets.SPIRV {
		return
	}
	c := g.c
	g.noSPIRV = c.spirvFailed
	if len(c.spirvFailed) > 0 {
		g.w("// Kernels without SPIR-V (the vulkan backend cannot run them):\n")
		for _, k := range slices.Sorted(maps.Keys(c.spirvFailed)) {
			g.w("//   %s: %s\n", k, c.spirvFailed[k])
		}
		g.w("\n")
	}
	if c.spirv == nil {
		return
	}
	g.w("// gpukvetSPIRV is the SPIR-V module (1.5, Vulkan 1.2) of the package's kernels.\n")
	g.w("var gpukvetSPIRV = []byte(\"\" +\n")
	for i := 0; i < len(c.spirv); i += 48 {
		chunk := c.spirv[i:min(i+48, len(c.spirv))]
		sep := " +"
		if i+48 >= len(c.spirv) {
			sep = ")"
		}
		g.w("\t%s%s\n", strconv.Quote(string(chunk)), sep)
	}
	g.w("\n// gpukvetSPIRVFeatures are the Vulkan device features the SPIR-V module needs.\n")
	g.w("var gpukvetSPIRVFeatures = %#v\n\n", c.spirvFeatures)
}

// spirvFields are the SPIR-V fields of kernel name's backend.Code.
func (g *generation) spirvFields(name string) string {
	if !g.opts.Targets.SPIRV || g.c.spirv == nil {
		return ""
	}
	if _, failed := g.c.spirvFailed[name]; failed {
		return ""
	}
	return ", SPIRV: gpukvetSPIRV, SPIRVFeatures: gpukvetSPIRVFeatures"
}
