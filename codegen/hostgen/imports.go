package hostgen

import (
	"bytes"
	"fmt"
	"go/types"
	"sort"
	"strings"

	"github.com/gpukvet/gpukvet/internal/deviceapi"
	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// importSet is the imports of a generated file: the packages every one
// uses (device, device/backend, gpu) and those the kernels' parameter types
// name, each under a name that no name of the package hides.
type importSet struct {
	g     *generation
	names map[string]string // path → name used
	paths map[string]string // name used → path
}

// newImportSet returns the imports every generated file has, or an error
// if the package declares one of their names itself.
func newImportSet(g *generation) (*importSet, error) {
	s := &importSet{g: g, names: map[string]string{}, paths: map[string]string{}}
	for name, path := range map[string]string{
		"device":  deviceapi.Path,
		"backend": deviceapi.BackendPath,
		"gpu":     gpuapi.Path,
	} {
		s.names[path], s.paths[name] = name, path
	}
	for _, name := range []string{"device", "backend", "gpu"} {
		if obj := g.scope.Lookup(name); obj != nil && !g.generated(obj) {
			return nil, fmt.Errorf("package %s declares %s, which the generated file needs as a package name", g.p.Path(), name)
		}
	}
	return s, nil
}

// qualifier names pkg in the generated file (a types.Qualifier), adding
// its import: by its name, or its name and a number when that is taken.
func (s *importSet) qualifier(pkg *types.Package) string {
	if pkg == s.g.p.pkg.Types {
		return ""
	}
	if name, ok := s.names[pkg.Path()]; ok {
		return name
	}
	name := pkg.Name()
	for i := 2; ; i++ {
		if _, taken := s.paths[name]; !taken && s.g.scope.Lookup(name) == nil {
			break
		}
		name = fmt.Sprintf("%s%d", pkg.Name(), i)
	}
	s.names[pkg.Path()], s.paths[name] = name, pkg.Path()
	return name
}

// write writes the import declaration: the standard library first, then
// the rest, as goimports groups them.
func (s *importSet) write(file *bytes.Buffer) {
	file.WriteString("import (\n")
	paths := make([]string, 0, len(s.names))
	for path := range s.names {
		paths = append(paths, path)
	}
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
		name := s.names[path]
		if name == path[strings.LastIndex(path, "/")+1:] {
			fmt.Fprintf(file, "\t%q\n", path)
		} else {
			fmt.Fprintf(file, "\t%s %q\n", name, path)
		}
	}
	file.WriteString(")\n\n")
}
