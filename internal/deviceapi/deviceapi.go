package deviceapi

import "go/types"

// Path is the import path of package device, the host runtime.
const Path = "github.com/gpukvet/gpukvet/device"

// BackendPath is the import path of package device/backend, the contract
// between package device and its backends, which the code gpukvet gen
// writes also imports.
const BackendPath = Path + "/backend"

// Kind names one function or method of package device; None is anything
// else.
type Kind uint8

// The functions and methods of package device.
const (
	None Kind = iota
	// Alloc and Upload make a new *Buffer[T], which the caller owns.
	Alloc
	Upload
	// The methods of *Buffer[T]; Free releases it.
	Download
	DownloadContext
	Free
	Len
	// The launches, (*Device).Launch and (*Device).LaunchWithin: the
	// kernel, its grid and block, then its arguments (LaunchWithin puts
	// a tolerance first).
	Launch
	LaunchWithin
	// The other methods of *Device.
	Backend
	Close
	Sync
	SyncContext
	// RegisterKernel registers a kernel's launcher (generated code calls
	// it).
	RegisterKernel
	// The other functions.
	Backends
	Compare
	New
	Open
	OpenBackend
	WithTimeout
	WithValidation
	numKinds
)

// api is each Kind's receiver type name ("" for a function) and name.
var api = [numKinds]struct{ recv, name string }{
	Alloc:           {"", "Alloc"},
	Upload:          {"", "Upload"},
	Download:        {"Buffer", "Download"},
	DownloadContext: {"Buffer", "DownloadContext"},
	Free:            {"Buffer", "Free"},
	Len:             {"Buffer", "Len"},
	Launch:          {"Device", "Launch"},
	LaunchWithin:    {"Device", "LaunchWithin"},
	Backend:         {"Device", "Backend"},
	Close:           {"Device", "Close"},
	Sync:            {"Device", "Sync"},
	SyncContext:     {"Device", "SyncContext"},
	RegisterKernel:  {"", "RegisterKernel"},
	Backends:        {"", "Backends"},
	Compare:         {"", "Compare"},
	New:             {"", "New"},
	Open:            {"", "Open"},
	OpenBackend:     {"", "OpenBackend"},
	WithTimeout:     {"", "WithTimeout"},
	WithValidation:  {"", "WithValidation"},
}

// byName maps "Buffer.Free" and "Alloc" (Kind.Selector) to the Kind.
var byName = func() map[string]Kind {
	m := map[string]Kind{}
	for k := None + 1; k < numKinds; k++ {
		m[k.Selector()] = k
	}
	return m
}()

// String returns the API name without its receiver, e.g. "Launch",
// "Alloc"; "None" for None.
func (k Kind) String() string {
	if k == None || k >= numKinds {
		return "None"
	}
	return api[k].name
}

// Selector returns the name qualified by its receiver type, e.g.
// "Device.Launch" or "Alloc" (the name after "device.").
func (k Kind) Selector() string {
	if k == None || k >= numKinds || api[k].recv == "" {
		return k.String()
	}
	return api[k].recv + "." + api[k].name
}

// NewBuffer reports whether k makes a new buffer that its caller owns.
func (k Kind) NewBuffer() bool { return k == Alloc || k == Upload }

// IsPackage reports whether pkg is package device.
func IsPackage(pkg *types.Package) bool { return pkg != nil && pkg.Path() == Path }

// Func returns the Kind of a function or method object: its origin if it
// is an instantiation of a generic function or a method of the generic
// Buffer[T]. A method is recognized whether its receiver is the type or a
// pointer to it.
func Func(obj *types.Func) Kind {
	if obj == nil {
		return None
	}
	obj = obj.Origin()
	if !IsPackage(obj.Pkg()) {
		return None
	}
	name := obj.Name()
	if recv := obj.Signature().Recv(); recv != nil {
		n := named(recv.Type())
		if n == nil {
			return None
		}
		name = n.Obj().Name() + "." + name
	}
	return byName[name]
}

// IsBuffer reports whether t is device.Buffer[T] or a pointer to it.
func IsBuffer(t types.Type) bool { return isType(t, "Buffer") }

// IsDevice reports whether t is device.Device or a pointer to it.
func IsDevice(t types.Type) bool { return isType(t, "Device") }

func isType(t types.Type, name string) bool {
	n := named(t)
	return n != nil && IsPackage(n.Obj().Pkg()) && n.Obj().Name() == name
}

// named returns the named type t is, through one pointer, or nil.
func named(t types.Type) *types.Named {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, _ := t.(*types.Named)
	return n
}
