package deviceapi

import (
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/gpukvet/gpukvet/internal/apitable"
)

// plainTypes are the exported types of package device that no check treats
// specially (Buffer and Device are IsBuffer's and IsDevice's).
var plainTypes = []string{"KernelSpec", "Option", "Validation"}

// loadDevice type-checks package device.
func loadDevice(t *testing.T) *types.Package {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes}
	pkgs, err := packages.Load(cfg, Path)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 || pkgs[0].Types == nil {
		t.Fatalf("loading %s: %v", Path, pkgs)
	}
	return pkgs[0].Types
}

// TestEveryAPIHasAKind reads the exported scope of package device: every
// function and every method of its types must have a Kind, and every type
// must be one deviceapi knows, so that adding to the device package's API
// without deciding what the checks make of it fails here. Conversely every
// Kind must name a function or method that exists, with the shape its
// classification claims.
func TestEveryAPIHasAKind(t *testing.T) {
	pkg := loadDevice(t)
	funcs, typeNames, others := apitable.Exported(pkg)
	sigs := map[Kind]*types.Signature{}
	for _, fn := range funcs {
		k := Func(fn)
		if k == None {
			t.Errorf("%s has no deviceapi.Kind: add it to internal/deviceapi, and to ownership and memspace if they must know it", fn.FullName())
		}
		sigs[k] = fn.Signature()
	}
	for _, tn := range typeNames {
		if !IsBuffer(tn.Type()) && !IsDevice(tn.Type()) && !slices.Contains(plainTypes, tn.Name()) {
			t.Errorf("type device.%s is unknown to deviceapi", tn.Name())
		}
	}
	for _, obj := range others {
		if !isPlainValue(obj) {
			t.Errorf("device.%s (%T) is unknown to deviceapi", obj.Name(), obj)
		}
	}
	for k := None + 1; k < numKinds; k++ {
		if sigs[k] == nil {
			t.Errorf("Kind %s names no exported function or method of package device", k.Selector())
			continue
		}
		checkShape(t, k, sigs[k])
	}
}

// isPlainValue reports whether obj is a value of package device that no
// check follows: a constant, or a sentinel error variable (ErrClosed, ...)
// that callers compare with errors.Is.
func isPlainValue(obj types.Object) bool {
	switch obj := obj.(type) {
	case *types.Const:
		return true
	case *types.Var:
		return types.Identical(obj.Type(), types.Universe.Lookup("error").Type())
	}
	return false
}

// checkShape checks that sig, the signature of the function or method of
// Kind k, has the shape its classification claims.
func checkShape(t *testing.T, k Kind, sig *types.Signature) {
	t.Helper()
	switch {
	case k.NewBuffer():
		if sig.Results().Len() != 2 || !IsBuffer(sig.Results().At(0).Type()) {
			t.Errorf("%s is classified as making a buffer but does not return a *Buffer[T] first: %s", k.Selector(), sig)
		}
	case k == Launch || k == LaunchWithin:
		if !sig.Variadic() || !IsDevice(sig.Recv().Type()) {
			t.Errorf("%s is classified as a launch but is not a variadic method of *Device: %s", k.Selector(), sig)
		}
	case k == Free:
		if sig.Recv() == nil || !IsBuffer(sig.Recv().Type()) || sig.Params().Len() != 0 {
			t.Errorf("Free is not a method of *Buffer[T] without parameters: %s", sig)
		}
	}
}

func TestKindNames(t *testing.T) {
	for k := None + 1; k < numKinds; k++ {
		if api.Lookup(k.Selector()) != k {
			t.Errorf("%s does not round-trip through its selector", k.Selector())
		}
	}
	if Launch.String() != "Launch" || Free.Selector() != "Buffer.Free" || Alloc.Selector() != "Alloc" || None.String() != "None" {
		t.Error("names are not the device package's")
	}
	if !Alloc.NewBuffer() || !Upload.NewBuffer() || Free.NewBuffer() || None.NewBuffer() {
		t.Error("classification is wrong")
	}
}
