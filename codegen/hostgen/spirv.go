package hostgen

import (
	"maps"
	"slices"
	"strconv"
	"strings"
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
	g.w("var gpukvetSPIRV = []byte(%s)\n", bytesLiteral(c.spirv))
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

// literalChunk is how many bytes of a module each quoted line holds.
const literalChunk = 48

// maxChain is the most operands that one + chain of bytesLiteral joins.
// go/parser counts each operand of a chain as a level of nesting and
// refuses a file past 100000 levels in all (maxNestLev in go/parser), and
// go/printer, which gen formats the file with, takes time quadratic in a
// chain's length; so a chain must not grow with the module: a longer one
// is cut into parenthesized chains, joined the same way, level upon level.
// Each level holds maxChain times more (two hold 768 MiB), so the
// literal nests about levels*maxChain deep.
const maxChain = 1 << 12

// bytesLiteral is a string constant holding data: quoted chunks of
// literalChunk bytes, one a line, joined by + in chains of at most
// maxChain operands.
func bytesLiteral(data []byte) string {
	terms := []string{`""`}
	for i := 0; i < len(data); i += literalChunk {
		terms = append(terms, strconv.Quote(string(data[i:min(i+literalChunk, len(data))])))
	}
	for len(terms) > maxChain {
		var groups []string
		for i := 0; i < len(terms); i += maxChain {
			groups = append(groups, "("+strings.Join(terms[i:min(i+maxChain, len(terms))], " +\n\t")+")")
		}
		terms = groups
	}
	return strings.Join(terms, " +\n\t")
}
