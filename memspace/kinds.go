package memspace

import (
	"go/types"

	"github.com/gpukvet/gpukvet/internal/deviceapi"
	"github.com/gpukvet/gpukvet/internal/gpuapi"
)

// A hostKind is a kind of value that lives in host memory or needs host
// services, or that no GPU target compiles (complex numbers), and so cannot
// appear in kernel code.
type hostKind int

const (
	noHostKind hostKind = iota
	mapKind
	chanKind
	funcKind
	interfaceKind
	stringKind
	unsafeKind
	deviceKind
	reflectKind
	complexKind
)

// hostPackageKind maps the import paths of packages that kernel code may
// not use at all to the kind of their values.
var hostPackageKind = map[string]hostKind{
	"unsafe":       unsafeKind,
	"reflect":      reflectKind,
	deviceapi.Path: deviceKind,
}

// what names the kind with an article, and why says why kernel code cannot
// use it.
var hostKinds = [...]struct{ what, why string }{
	mapKind:       {"a map", "maps live in host memory"},
	chanKind:      {"a channel", "channels are a host service"},
	funcKind:      {"a function value", "kernel code calls only functions named at compile time"},
	interfaceKind: {"an interface", "interfaces need host run-time type information"},
	stringKind:    {"a string", "strings live in host memory; only constant strings are allowed"},
	unsafeKind:    {"package unsafe", "memory layout and raw pointers differ on the device"},
	deviceKind:    {"package device", "it is host code: allocation, copies and launches"},
	reflectKind:   {"reflection", "it needs host run-time type information"},
	complexKind:   {"a complex number", "no GPU target compiles complex arithmetic; use a pair of floats"},
}

func (k hostKind) what() string { return hostKinds[k].what }
func (k hostKind) why() string  { return hostKinds[k].why }

// hostKindOf returns the first host kind that t is or holds (through struct
// fields, array, slice and pointer elements), or noHostKind. Type
// parameters are fine: they are instantiated with kernel types.
func hostKindOf(t types.Type) hostKind {
	return hostKindIn(t, map[types.Type]bool{})
}

func hostKindIn(t types.Type, seen map[types.Type]bool) hostKind {
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return noHostKind
	case *types.Named:
		if pkg := t.Obj().Pkg(); pkg != nil {
			if pkg.Path() == gpuapi.Path {
				return noHostKind
			}
			if k, ok := hostPackageKind[pkg.Path()]; ok {
				return k
			}
		}
		if seen[t] {
			return noHostKind
		}
		seen[t] = true
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			return stringKind
		case u.Kind() == types.UnsafePointer:
			return unsafeKind
		case u.Info()&types.IsComplex != 0:
			return complexKind
		}
	case *types.Map:
		return mapKind
	case *types.Chan:
		return chanKind
	case *types.Signature:
		return funcKind
	case *types.Interface:
		return interfaceKind
	case *types.Pointer:
		return hostKindIn(u.Elem(), seen)
	case *types.Slice:
		return hostKindIn(u.Elem(), seen)
	case *types.Array:
		return hostKindIn(u.Elem(), seen)
	case *types.Struct:
		for f := range u.Fields() {
			if k := hostKindIn(f.Type(), seen); k != noHostKind {
				return k
			}
		}
	}
	return noHostKind
}
