// Package apitable is what the recognizers of the APIs gpukvet knows
// (internal/gpuapi, internal/deviceapi, internal/math32api) have in
// common: a table of one package's functions and methods indexed by the
// recognizer's own small Kind type, and the lookup of a go/types function
// or a go/ssa callee in it. Each recognizer keeps its Kinds, its
// classifications and its import path; this package only keeps them from
// writing the same lookup three times.
package apitable

import (
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// Entry is one function (Recv "") or method of a package's API.
type Entry struct{ Recv, Name string }

// Table is the API of one package: Kind k is entries[k], and Kind 0 is
// None, anything else.
type Table[K ~uint8] struct {
	path    string
	entries []Entry
	byName  map[string]K
}

// New returns the table of the package at path; entries[0] is None's and
// stays empty.
func New[K ~uint8](path string, entries []Entry) *Table[K] {
	t := &Table[K]{path: path, entries: entries, byName: map[string]K{}}
	for k := 1; k < len(entries); k++ {
		t.byName[t.Selector(K(k))] = K(k)
	}
	return t
}

// Name returns k's function or method name without its receiver, e.g.
// "Barrier"; "None" for None or a value outside the table, and "Kind(N)"
// for a Kind the table has no entry for.
func (t *Table[K]) Name(k K) string {
	switch {
	case k == 0 || int(k) >= len(t.entries):
		return "None"
	case t.entries[k].Name == "":
		return "Kind(" + strconv.Itoa(int(k)) + ")"
	}
	return t.entries[k].Name
}

// Selector returns k's name qualified by its receiver type, e.g.
// "Thread.Barrier", or the function's name, e.g. "AtomicAdd": the name
// after the package's.
func (t *Table[K]) Selector(k K) string {
	if k == 0 || int(k) >= len(t.entries) || t.entries[k].Recv == "" {
		return t.Name(k)
	}
	return t.entries[k].Recv + "." + t.entries[k].Name
}

// Lookup returns the Kind of a selector (as Selector spells it), or None.
func (t *Table[K]) Lookup(selector string) K { return t.byName[selector] }

// IsPackage reports whether pkg is the table's package.
func (t *Table[K]) IsPackage(pkg *types.Package) bool { return pkg != nil && pkg.Path() == t.path }

// Func returns the Kind of a function or method object: its origin if it
// is an instantiation of a generic function or a method of a generic type.
// A method is recognized whether it was declared on the type or on a
// pointer to it.
func (t *Table[K]) Func(obj *types.Func) K {
	if obj == nil {
		return 0
	}
	obj = obj.Origin()
	if !t.IsPackage(obj.Pkg()) {
		return 0
	}
	name := obj.Name()
	if recv := obj.Signature().Recv(); recv != nil {
		n := Named(recv.Type())
		if n == nil {
			return 0
		}
		name = n.Obj().Name() + "." + name
	}
	return t.byName[name]
}

// Callee returns the Kind of the function an SSA call statically calls:
// a declared function or method, an instance of a generic one, or one of
// the wrappers go/ssa makes for a method (through a pointer receiver, a
// method value or a method expression). nil is None.
func (t *Table[K]) Callee(fn *ssa.Function) K {
	if fn == nil {
		return 0
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil {
		if o := fn.Origin(); o != nil {
			obj, _ = o.Object().(*types.Func)
		}
	}
	return t.Func(obj)
}

// IsType reports whether typ (not a pointer to it) is the package's named
// type name.
func (t *Table[K]) IsType(typ types.Type, name string) bool {
	n, ok := types.Unalias(typ).(*types.Named)
	return ok && t.IsPackage(n.Obj().Pkg()) && n.Obj().Name() == name
}

// Named returns the named type typ is, through one pointer, or nil.
func Named(typ types.Type) *types.Named {
	typ = types.Unalias(typ)
	if p, ok := typ.(*types.Pointer); ok {
		typ = types.Unalias(p.Elem())
	}
	n, _ := typ.(*types.Named)
	return n
}

// Exported returns the exported functions of pkg and the exported methods
// of its exported types (of the type or a pointer to it), and the exported
// objects that are neither a function nor a type: what a recognizer's test
// holds against its table.
func Exported(pkg *types.Package) (funcs []*types.Func, typeNames []*types.TypeName, others []types.Object) {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			if obj.Exported() {
				funcs = append(funcs, obj)
			}
		case *types.TypeName:
			if !obj.Exported() {
				continue
			}
			typeNames = append(typeNames, obj)
			mset := types.NewMethodSet(types.NewPointer(obj.Type()))
			for i := 0; i < mset.Len(); i++ {
				if m := mset.At(i).Obj().(*types.Func); m.Exported() {
					funcs = append(funcs, m)
				}
			}
		default:
			if obj.Exported() {
				others = append(others, obj)
			}
		}
	}
	return funcs, typeNames, others
}
