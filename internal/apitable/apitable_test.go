package apitable

import (
	"go/types"
	"testing"
)

type kind uint8

const (
	none kind = iota
	fn
	method
	missing
)

// table is a package p with a function F, a method T.M and a Kind with
// no entry.
var table = New[kind]("example.com/p", []Entry{fn: {Name: "F"}, method: {Recv: "T", Name: "M"}, missing: {}})

func TestNames(t *testing.T) {
	for _, c := range []struct {
		k              kind
		name, selector string
	}{
		{none, "None", "None"},
		{fn, "F", "F"},
		{method, "M", "T.M"},
		{missing, "Kind(3)", "Kind(3)"},
		{9, "None", "None"},
	} {
		if got := table.Name(c.k); got != c.name {
			t.Errorf("Name(%d) = %q, want %q", c.k, got, c.name)
		}
		if got := table.Selector(c.k); got != c.selector {
			t.Errorf("Selector(%d) = %q, want %q", c.k, got, c.selector)
		}
	}
	if table.Lookup("T.M") != method || table.Lookup("F") != fn || table.Lookup("M") != none {
		t.Error("Lookup does not invert Selector")
	}
}

// TestFunc builds package p's types by hand: F, the method M of T (on a
// pointer receiver) and a function of another package by the same name.
func TestFunc(t *testing.T) {
	p := types.NewPackage("example.com/p", "p")
	sig := types.NewSignatureType(nil, nil, nil, nil, nil, false)
	f := types.NewFunc(0, p, "F", sig)
	tn := types.NewTypeName(0, p, "T", nil)
	named := types.NewNamed(tn, types.NewStruct(nil, nil), nil)
	recv := types.NewVar(0, p, "t", types.NewPointer(named))
	m := types.NewFunc(0, p, "M", types.NewSignatureType(recv, nil, nil, nil, nil, false))
	named.AddMethod(m)
	other := types.NewFunc(0, types.NewPackage("example.com/q", "q"), "F", sig)
	for obj, want := range map[*types.Func]kind{f: fn, m: method, other: none, nil: none} {
		if got := table.Func(obj); got != want {
			t.Errorf("Func(%v) = %d, want %d", obj, got, want)
		}
	}
	if !table.IsType(named, "T") || table.IsType(types.NewPointer(named), "T") || Named(types.NewPointer(named)) != named {
		t.Error("IsType and Named disagree on T and *T")
	}
	funcs, typeNames, others := Exported(packageOf(p, f, tn))
	if len(funcs) != 2 || len(typeNames) != 1 || len(others) != 0 {
		t.Errorf("Exported: %v %v %v", funcs, typeNames, others)
	}
}

// packageOf declares objs in p's scope.
func packageOf(p *types.Package, objs ...types.Object) *types.Package {
	for _, o := range objs {
		p.Scope().Insert(o)
	}
	return p
}
