package codegen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// fileExts are the extensions of each target's module file.
var fileExts = map[string]string{"ptx": ".ptx", "spirv": ".spv", "llvm-amdgcn": ".ll", "llvm-nvptx": ".ll", "hsaco": ".hsaco"}

// FileExt returns the extension of target's module file (.ptx, .spv, .ll
// or .hsaco), and false for a target Build does not support.
func FileExt(target string) (string, bool) {
	ext, ok := fileExts[target]
	return ext, ok
}

// WriteFiles writes the module's code for target to file and its manifest,
// as indented JSON, to file+".json" (setting Manifest.Module to file's
// base name), for any host program to load: `gpukvet build`'s output. An
// empty file is the name of the package of the module's first kernel
// ("module" if none) with the target's extension. WriteFiles returns the
// name it wrote.
func (m *Module) WriteFiles(target, file string) (string, error) {
	if file == "" {
		file = m.defaultFile(target)
	}
	m.Manifest.Module = filepath.Base(file)
	manifest, err := json.MarshalIndent(m.Manifest, "", "  ")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(file, m.code(target), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(file+".json", append(manifest, '\n'), 0o644); err != nil {
		return "", err
	}
	return file, nil
}

// defaultFile is WriteFiles' name for the module's file.
func (m *Module) defaultFile(target string) string {
	name := "module"
	if len(m.Manifest.Kernels) > 0 {
		pkg := m.Manifest.Kernels[0].Pkg
		name = pkg[strings.LastIndex(pkg, "/")+1:]
	}
	ext, _ := FileExt(target)
	return name + ext
}

// code is the module's code for target.
func (m *Module) code(target string) []byte {
	switch target {
	case "spirv":
		return m.SPIRV
	case "llvm-amdgcn", "llvm-nvptx":
		return m.LLVM
	case "hsaco":
		return m.HSACO
	}
	return m.PTX
}
