package deviceapi

import (
	"go/types"

	"github.com/gpukvet/gpukvet/internal/apitable"
)

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
	numKinds // the number of Kinds, None included
)

// api is the device package's API, one Entry per Kind.
var api = apitable.New[Kind](Path, []apitable.Entry{
	Alloc:           {Name: "Alloc"},
	Upload:          {Name: "Upload"},
	Download:        {Recv: "Buffer", Name: "Download"},
	DownloadContext: {Recv: "Buffer", Name: "DownloadContext"},
	Free:            {Recv: "Buffer", Name: "Free"},
	Len:             {Recv: "Buffer", Name: "Len"},
	Launch:          {Recv: "Device", Name: "Launch"},
	LaunchWithin:    {Recv: "Device", Name: "LaunchWithin"},
	Backend:         {Recv: "Device", Name: "Backend"},
	Close:           {Recv: "Device", Name: "Close"},
	Sync:            {Recv: "Device", Name: "Sync"},
	SyncContext:     {Recv: "Device", Name: "SyncContext"},
	RegisterKernel:  {Name: "RegisterKernel"},
	Backends:        {Name: "Backends"},
	Compare:         {Name: "Compare"},
	New:             {Name: "New"},
	Open:            {Name: "Open"},
	OpenBackend:     {Name: "OpenBackend"},
	WithTimeout:     {Name: "WithTimeout"},
	WithValidation:  {Name: "WithValidation"},
})

// String returns the API name without its receiver, e.g. "Launch",
// "Alloc"; "None" for None.
func (k Kind) String() string { return api.Name(k) }

// Selector returns the name qualified by its receiver type, e.g.
// "Device.Launch" or "Alloc" (the name after "device.").
func (k Kind) Selector() string { return api.Selector(k) }

// NewBuffer reports whether k makes a new buffer that its caller owns.
func (k Kind) NewBuffer() bool { return k == Alloc || k == Upload }

// Func returns the Kind of a function or method object: its origin if it
// is an instantiation of a generic function or a method of the generic
// Buffer[T]. A method is recognized whether its receiver is the type or a
// pointer to it.
func Func(obj *types.Func) Kind { return api.Func(obj) }

// IsBuffer reports whether t is device.Buffer[T] or a pointer to it.
func IsBuffer(t types.Type) bool { return isType(t, "Buffer") }

// IsDevice reports whether t is device.Device or a pointer to it.
func IsDevice(t types.Type) bool { return isType(t, "Device") }

// isType reports whether t is the device package's type name or a
// pointer to it.
func isType(t types.Type, name string) bool {
	n := apitable.Named(t)
	return n != nil && api.IsType(n, name)
}
