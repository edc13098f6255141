package device_test

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gpukvet/gpukvet/device"
	"github.com/gpukvet/gpukvet/gpu"
)

// TestUnusableReceivers calls every exported method of *Device and
// *Buffer[T], and every exported function that takes one, on each kind of
// device or buffer that is not usable (nil, zero, closed, freed): each call
// must return an error that errors.Is classifies, never panic. The methods
// are enumerated by reflection, and the functions are checked against the
// package's source so that a new one cannot be left out.
func TestUnusableReceivers(t *testing.T) {
	closed, err := device.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	closedBuf, _ := device.Alloc[int32](closed, 4)
	closed.Close()
	live := openCPU(t)
	freed, _ := device.Alloc[int32](live, 4)
	freed.Free()

	devices := []struct {
		what string
		d    *device.Device
		kind error
	}{
		{"nil *Device", nil, device.ErrInvalid},
		{"zero device.Device{}", &device.Device{}, device.ErrInvalid},
		{"closed Device", closed, device.ErrClosed},
	}
	buffers := []struct {
		what string
		b    *device.Buffer[int32]
		kind error
	}{
		{"nil *Buffer", nil, device.ErrInvalid},
		{"zero device.Buffer{}", &device.Buffer[int32]{}, device.ErrInvalid},
		{"freed Buffer", freed, device.ErrFreed},
		{"Buffer of a closed Device", closedBuf, device.ErrClosed},
	}
	covered := map[string]bool{}
	for _, dv := range devices {
		for _, m := range methods(reflect.ValueOf(dv.d)) {
			covered["Device."+m.name] = true
			results := callNoPanic(t, dv.what+"."+m.name, m.fn, argsFor(m.fn.Type(), live))
			checkResults(t, dv.what+"."+m.name, results, dv.kind)
		}
		covered["Alloc"], covered["Upload"] = true, true
		_, err := device.Alloc[int32](dv.d, 4)
		checkKind(t, dv.what+": Alloc", err, dv.kind)
		_, err = device.Upload(dv.d, []int32{1})
		checkKind(t, dv.what+": Upload", err, dv.kind)
	}
	for _, bv := range buffers {
		for _, m := range methods(reflect.ValueOf(bv.b)) {
			covered["Buffer."+m.name] = true
			results := callNoPanic(t, bv.what+"."+m.name, m.fn, argsFor(m.fn.Type(), live))
			if m.name == "Len" || m.name == "Free" && bv.b == closedBuf {
				// Len has no error to return, and freeing a buffer
				// after Close is allowed (Close freed it): they
				// must only not panic.
				continue
			}
			checkResults(t, bv.what+"."+m.name, results, bv.kind)
		}
		// A buffer the device cannot use passed to Launch.
		covered["Device.Launch(buffer)"] = true
		err := live.Launch(addOne, dim(1, 1, 1), dim(1, 1, 1), bv.b)
		checkKind(t, bv.what+" passed to Launch", err, device.ErrLaunch)
	}
	for _, name := range apiTaking(t, "Device", "Buffer") {
		if !covered[name] {
			t.Errorf("%s takes a Device or Buffer but this test does not call it: add it", name)
		}
	}
}

type method struct {
	name string
	fn   reflect.Value
}

// methods returns the exported methods of v (a pointer), bound to v.
func methods(v reflect.Value) []method {
	var out []method
	for i := range v.NumMethod() {
		out = append(out, method{v.Type().Method(i).Name, v.Method(i)})
	}
	return out
}

// argsFor makes arguments for a method of type ft that would be valid on a
// usable device: a kernel, shapes of 1, a context, a buffer of live.
func argsFor(ft reflect.Type, live *device.Device) []reflect.Value {
	var args []reflect.Value
	for i := range ft.NumIn() {
		p := ft.In(i)
		switch {
		case ft.IsVariadic() && i == ft.NumIn()-1:
			xs, _ := device.Alloc[int32](live, 4)
			args = append(args, reflect.ValueOf(xs))
		case p == reflect.TypeFor[any]():
			args = append(args, reflect.ValueOf(any(addOne)))
		case p == reflect.TypeFor[gpu.Dim3]():
			args = append(args, reflect.ValueOf(gpu.Dim3{X: 1, Y: 1, Z: 1}))
		case p == reflect.TypeFor[context.Context]():
			args = append(args, reflect.ValueOf(context.Background()))
		default:
			args = append(args, reflect.Zero(p))
		}
	}
	return args
}

func callNoPanic(t *testing.T, what string, fn reflect.Value, args []reflect.Value) (results []reflect.Value) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s panicked: %v", what, r)
		}
	}()
	return fn.Call(args)
}

// checkResults checks that a call's last result, when it is an error, is
// one of kind; a method without an error result (Backend) must return
// its zero value.
func checkResults(t *testing.T, what string, results []reflect.Value, kind error) {
	t.Helper()
	if len(results) == 0 {
		return
	}
	last := results[len(results)-1]
	if last.Type() != reflect.TypeFor[error]() {
		// Backend names a closed device's backend still.
		if kind == device.ErrInvalid && !last.IsZero() {
			t.Errorf("%s = %v, want the zero value", what, last)
		}
		return
	}
	err, _ := last.Interface().(error)
	checkKind(t, what, err, kind)
}

func checkKind(t *testing.T, what string, err, kind error) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	if !errors.Is(err, kind) {
		t.Errorf("%s: %v: errors.Is(err, %q) is false", what, err, kind)
	}
	t.Logf("%s: %v", what, err)
}

// apiTaking lists the package's exported functions that take one of types
// (by pointer) and the exported methods of those types, as "Func" and
// "Type.Method", read from its non-test sources.
func apiTaking(t *testing.T, types ...string) []string {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	mentions := func(fl *ast.FieldList) string {
		if fl == nil {
			return ""
		}
		for _, f := range fl.List {
			found := ""
			ast.Inspect(f.Type, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && slices.Contains(types, id.Name) {
					found = id.Name
				}
				return found == ""
			})
			if found != "" {
				return found
			}
		}
		return ""
	}
	var names []string
	for _, f := range pkgs["device"].Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			if recv := mentions(fd.Recv); recv != "" {
				names = append(names, recv+"."+fd.Name.Name)
			} else if mentions(fd.Type.Params) != "" {
				names = append(names, fd.Name.Name)
			}
		}
	}
	slices.Sort(names)
	return names
}
