package layers

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
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
			"internal/kernelapi", "internal/apitable", "internal/gpuapi", "internal/deviceapi", "internal/math32api", "internal/targets", "internal/kerneldims", "internal/budget", "internal/cputime", "internal/cmpop",
			"internal/layers", "codegen/devmath"}},
	{"source", "kernel discovery and how an analyzer is defined", []string{"internal/define", "internal/kernels"}},
	{"ssa", "kernel SSA", []string{"internal/kernelssa", "internal/itervars"}},
	{"shared analyses", "what several checks build on: uniformity, the two-thread model and its solver, and the replay of its witnesses",
		[]string{"uniformity", "internal/twothread", "internal/twothread/lincon", "internal/replay"}},
	{"checks", "the analyzers", []string{"memspace", "ownership", "divergence", "races", "analyzers/ignore"}},
	{"suite", "the list of checks", []string{"analyzers"}},
	{"kernel IR", "lowering from SSA, the optimizer, the IR interpreter", []string{"codegen/kir", "codegen/lower", "codegen/internal/..."}},
	{"emitters", "PTX, SPIR-V and LLVM IR from kernel IR", []string{"codegen/ptx", "codegen/spirv", "codegen/llvm"}},
	{"compiler", "loads, checks (with the checks it is given) and compiles; writes the Go that embeds, registers and launches the compiled kernels",
		[]string{"codegen", "codegen/hostgen"}},
	{"runtime", "backends and the device API", []string{"device/backend", "device/cpu", "device/cuda", "device/vulkan", "device", "device/devicetest"}},
	{"commands", "what users run", []string{"cmd/..."}},
	{"users", "examples, benchmarks and test corpora: programs written against the public API; the documentation",
		[]string{"docs", "examples/...", "bench/...", "testdata/...", "internal/analysistestdata", "internal/corpustest", "internal/kerngen"}},
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

var (
	moduleOnce sync.Once
	modulePkgs []*packages.Package
	moduleErr  error
)

// loadModule returns the module's packages with their imports, loaded
// once for all tests.
func loadModule(t *testing.T) []*packages.Package {
	t.Helper()
	moduleOnce.Do(func() {
		cfg := &packages.Config{Mode: packages.NeedName | packages.NeedImports, Dir: "../.."}
		modulePkgs, moduleErr = packages.Load(cfg, "./...")
	})
	if moduleErr != nil {
		t.Fatal(moduleErr)
	}
	return slices.Clone(modulePkgs)
}

func TestLayers(t *testing.T) {
	pkgs := loadModule(t)
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

// checkLayers are the layers whose packages, outside internal/, are
// checks: analyzers, and the analyses they require.
var checkLayers = []string{"shared analyses", "checks"}

// allowedCheckImports are the imports of one check package by another,
// each allowed because the importer requires the other's Analyzer
// (go/analysis Requires) and reads its Result through ResultOf; the value
// says why. Code that two checks share goes in a package below both (as
// the two-thread model in internal/twothread), not in one of them.
var allowedCheckImports = map[[2]string]string{
	{"races", "memspace"}: "races requires memspace.Analyzer and reads its Result: a kernel memspace rejects gets no possible race",
	{"races", "uniformity"}: "races requires uniformity.Analyzer and hands its Result to the two-thread model, " +
		"which counts a value as divergent only when uniformity does too",
	{"divergence", "uniformity"}: "divergence requires uniformity.Analyzer: its Result holds the barrier sites divergence reports",
}

// isCheck reports whether the package at module-relative path rel is a
// check.
func isCheck(rel string) bool {
	if strings.HasPrefix(rel, "internal/") {
		return false
	}
	l := layerOf(module + "/" + rel)
	return l >= 0 && slices.Contains(checkLayers, layers[l].name)
}

// TestChecksStandAlone fails when a check package imports another check
// package other than as allowedCheckImports allows, and when an allowed
// import is no longer there.
func TestChecksStandAlone(t *testing.T) {
	seen := map[[2]string]bool{}
	for _, p := range loadModule(t) {
		from := rel(p.PkgPath)
		if !isCheck(from) {
			continue
		}
		for imp := range p.Imports {
			to := rel(imp)
			if !strings.HasPrefix(imp, module+"/") || !isCheck(to) {
				continue
			}
			edge := [2]string{from, to}
			seen[edge] = true
			if _, ok := allowedCheckImports[edge]; !ok {
				t.Errorf("check %s imports check %s: share code through a package below both (as internal/twothread), "+
					"or, if %s requires %s's Analyzer, add the import to allowedCheckImports with the reason", from, to, from, to)
			}
		}
	}
	for edge := range allowedCheckImports {
		if !seen[edge] {
			t.Errorf("allowedCheckImports lists %s → %s, which is no longer an import: remove it", edge[0], edge[1])
		}
	}
}
