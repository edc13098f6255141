package layers

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

var update = flag.Bool("update", false, "rewrite LAYERS.md")

const module = "github.com/gpukvet/gpukvet"

// layers are the module's packages from the bottom up. A pattern ending in
// "/..." matches a directory and everything below it.
var layers = []struct {
	name     string
	what     string
	packages []string
}{
	{"contracts", "what every side agrees on: the kernel API, the trap ABI, directives, limits, the calls kernel code may make",
		[]string{"gpu", "gpu/math32", "internal/gpuabi", "internal/directive", "internal/srchash", "internal/cpuexec",
			"internal/kernelapi", "internal/gpuapi", "internal/targets", "internal/kerneldims", "internal/budget",
			"internal/layers", "codegen/devmath"}},
	{"source", "kernel discovery and how an analyzer is defined", []string{"internal/define", "internal/kernels"}},
	{"ssa", "kernel SSA", []string{"internal/kernelssa"}},
	{"checks", "the analyzers", []string{"uniformity", "memspace", "ownership", "divergence", "races", "races/...", "analyzers/ignore"}},
	{"suite", "the list of checks", []string{"analyzers"}},
	{"kernel IR", "lowering from SSA, the optimizer, the IR interpreter", []string{"codegen/kir", "codegen/lower", "codegen/internal/..."}},
	{"emitters", "PTX, SPIR-V and LLVM IR from kernel IR", []string{"codegen/ptx", "codegen/spirv", "codegen/llvm"}},
	{"compiler", "loads, checks (with the checks it is given) and compiles; writes the Go that embeds, registers and launches the compiled kernels",
		[]string{"codegen", "codegen/hostgen"}},
	{"runtime", "backends and the device API", []string{"device/backend", "device/cpu", "device/cuda", "device/vulkan", "device", "device/devicetest"}},
	{"commands", "what users run", []string{"cmd/..."}},
	{"users", "examples, benchmarks and test corpora: programs written against the public API",
		[]string{"examples/...", "bench/...", "testdata/...", "internal/analysistestdata", "internal/corpustest"}},
}

func layerOf(pkg string) int {
	rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
	for i, l := range layers {
		for _, p := range l.packages {
			if rel == p || strings.HasSuffix(p, "/...") && strings.HasPrefix(rel+"/", strings.TrimSuffix(p, "...")) {
				return i
			}
		}
	}
	return -1
}

func TestLayers(t *testing.T) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedImports, Dir: "../.."}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(pkgs, func(a, b *packages.Package) int {
		return cmpLayer(a.PkgPath, b.PkgPath)
	})
	var report bytes.Buffer
	report.WriteString("# Import graph by layer\n\nWritten by `go test ./internal/layers -update` (see internal/layers/doc.go).\n" +
		"Each package lists the packages of this module it imports; none imports a package of a higher layer.\n")
	last := -2
	for _, p := range pkgs {
		l := layerOf(p.PkgPath)
		if l < 0 {
			t.Errorf("%s has no layer: add it to layers in internal/layers/layers_test.go", p.PkgPath)
			continue
		}
		if l != last {
			fmt.Fprintf(&report, "\n## %d. %s: %s\n\n", l, layers[l].name, layers[l].what)
			last = l
		}
		var deps []string
		for imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") && imp != module {
				continue
			}
			deps = append(deps, rel(imp))
			if il := layerOf(imp); il > l {
				t.Errorf("%s (layer %s) imports %s (layer %s, above it)", rel(p.PkgPath), layers[l].name, rel(imp), layers[il].name)
			}
		}
		slices.Sort(deps)
		fmt.Fprintf(&report, "- `%s`", rel(p.PkgPath))
		if len(deps) > 0 {
			fmt.Fprintf(&report, " → %s", "`"+strings.Join(deps, "`, `")+"`")
		}
		report.WriteString("\n")
	}
	if *update {
		if err := os.WriteFile("LAYERS.md", report.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile("LAYERS.md")
	if err != nil || !bytes.Equal(old, report.Bytes()) {
		t.Errorf("LAYERS.md is not the current import graph: run go test ./internal/layers -update")
	}
}

func rel(pkg string) string {
	return path.Clean(strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/"))
}

func cmpLayer(a, b string) int {
	if la, lb := layerOf(a), layerOf(b); la != lb {
		return la - lb
	}
	return strings.Compare(a, b)
}
