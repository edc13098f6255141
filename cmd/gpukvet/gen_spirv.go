package main

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// genTargets are the modules gen embeds.
type genTargets struct {
	noPTX bool // leave out the PTX module (-targets without ptx)
	spirv bool // embed the SPIR-V module
}

func parseGenTargets(list string) (genTargets, error) {
	t := genTargets{noPTX: true}
	for _, name := range strings.Split(list, ",") {
		switch strings.TrimSpace(name) {
		case "ptx":
			t.noPTX = false
		case "spirv":
			t.spirv = true
		default:
			return t, fmt.Errorf("-targets=%s: unknown target %q (want ptx, spirv or both, comma-separated)", list, name)
		}
	}
	return t, nil
}

// spirvCode is the SPIR-V part of what the codegen produced for a package.
type spirvCode struct {
	spirv         []byte
	spirvFeatures []string
	// spirvFailed maps kernels left out of the SPIR-V module to why.
	spirvFailed map[string]string
}

// writeSPIRV writes the embedded SPIR-V module and, for each kernel the
// SPIR-V emitter could not express, a comment saying why (gen also says
// so on stderr): such a kernel registers no SPIR-V, and the vulkan backend
// refuses to launch it, naming the reason, while the cuda and cpu backends
// run it.
func writeSPIRV(w *bytes.Buffer, gp *genPackage, c *compiled) {
	if !gp.targets.spirv {
		return
	}
	gp.spirvFailed = c.spirvFailed
	if len(c.spirvFailed) > 0 {
		fmt.Fprintf(w, "// Kernels without SPIR-V (the vulkan backend cannot run them):\n")
		for _, k := range sortedKeys(c.spirvFailed) {
			fmt.Fprintf(w, "//   %s: %s\n", k, c.spirvFailed[k])
		}
		w.WriteString("\n")
	}
	if c.spirv == nil {
		return
	}
	fmt.Fprintf(w, "// gpukvetSPIRV is the SPIR-V module (1.5, Vulkan 1.2) of the package's kernels.\n")
	fmt.Fprintf(w, "var gpukvetSPIRV = []byte(\"\" +\n")
	for i := 0; i < len(c.spirv); i += 48 {
		chunk := c.spirv[i:min(i+48, len(c.spirv))]
		sep := " +"
		if i+48 >= len(c.spirv) {
			sep = ")"
		}
		fmt.Fprintf(w, "\t%s%s\n", strconv.Quote(string(chunk)), sep)
	}
	fmt.Fprintf(w, "\n// gpukvetSPIRVFeatures are the Vulkan device features the SPIR-V module needs.\n")
	fmt.Fprintf(w, "var gpukvetSPIRVFeatures = %#v\n\n", c.spirvFeatures)
}

// ptxField is the PTX field of a kernel's backend.Code.
func ptxField(gp *genPackage) string {
	if gp.targets.noPTX {
		return ""
	}
	return "PTX: gpukvetModule, "
}

// spirvFields are the SPIR-V fields of kernel name's backend.Code.
func spirvFields(gp *genPackage, c *compiled, name string) string {
	if !gp.targets.spirv || c.spirv == nil {
		return ""
	}
	if _, failed := c.spirvFailed[name]; failed {
		return ""
	}
	return ", SPIRV: gpukvetSPIRV, SPIRVFeatures: gpukvetSPIRVFeatures"
}

// reportSPIRVFailures tells the user which kernels got no SPIR-V.
func reportSPIRVFailures(stderr io.Writer, gp *genPackage) {
	for _, k := range sortedKeys(gp.spirvFailed) {
		fmt.Fprintf(stderr, "gpukvet gen: %s: kernel %s has no SPIR-V (the vulkan backend cannot run it): %s\n", gp.pkg.PkgPath, k, gp.spirvFailed[k])
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
