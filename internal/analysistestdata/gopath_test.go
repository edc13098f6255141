package analysistestdata

import (
	"fmt"
	"go/types"
	"os"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/gpukvet/gpukvet/internal/deviceapi"
	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// TestStubsMatch keeps the stubs' exported API equal to the real gpu and
// device packages': every exported name, with the same type or signature,
// so that analysistest sees what users' code sees (device's names whose
// types come from device/backend aside: kernel registration, which only
// generated code uses).
func TestStubsMatch(t *testing.T) {
	for _, path := range []string{gpuapi.Path, deviceapi.Path} {
		real := api(t, &packages.Config{Mode: packages.NeedTypes | packages.NeedName, Dir: "../.."}, path)
		dir := GOPATH(t)
		stub := api(t, &packages.Config{Mode: packages.NeedTypes | packages.NeedName, Dir: dir,
			Env: append(packages.Config{}.Env, "GOPATH="+dir, "GO111MODULE=off", "GOFLAGS=", "GOTOOLCHAIN=local")}, path)
		for name, sig := range real {
			if strings.Contains(sig, "device/backend") {
				continue // a stub of device/backend would be one more tree to keep
			}
			if got, ok := stub[name]; !ok {
				t.Errorf("the stub of %s lacks %s %s", path, name, sig)
			} else if got != sig {
				t.Errorf("the stub of %s has %s %s, the package has %s", path, name, got, sig)
			}
		}
		for name := range stub {
			if _, ok := real[name]; !ok {
				t.Errorf("the stub of %s has %s, which the package does not", path, name)
			}
		}
	}
}

// api maps each exported name of the package at path (methods as T.M) to
// its type, written relative to the package.
func api(t *testing.T, cfg *packages.Config, path string) map[string]string {
	t.Helper()
	if cfg.Env != nil {
		cfg.Env = append(os.Environ(), cfg.Env...)
	}
	pkgs, err := packages.Load(cfg, path)
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading %s: %v %v", path, err, pkgs)
	}
	p := pkgs[0].Types
	qual := types.RelativeTo(p)
	out := map[string]string{}
	scope := p.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		out[name] = types.ObjectString(obj, qual)
		if tn, ok := obj.(*types.TypeName); ok {
			// The methods of T and *T, exported ones only.
			ms := types.NewMethodSet(types.NewPointer(tn.Type()))
			for i := range ms.Len() {
				m := ms.At(i).Obj()
				if m.Exported() {
					out[name+"."+m.Name()] = types.TypeString(m.Type(), qual)
				}
			}
			out[name] = "type " + name + " " + kind(tn.Type().Underlying())
		}
	}
	return out
}

// kind is what a type is made of, without unexported detail: the exported
// fields of a struct, or the underlying type.
func kind(u types.Type) string {
	s, ok := u.(*types.Struct)
	if !ok {
		return u.String()
	}
	var fields []string
	for i := range s.NumFields() {
		if f := s.Field(i); f.Exported() {
			fields = append(fields, f.Name()+" "+f.Type().String())
		}
	}
	slices.Sort(fields)
	return "struct" + fmt.Sprint(fields)
}
