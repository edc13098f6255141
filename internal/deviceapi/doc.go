// Package deviceapi is the one recognizer of the device package's API,
// the host runtime: it says which function or method of package device a
// go/types object denotes, as a [Kind], and whether a type is
// device.Buffer or device.Device.
//
// The checks (memspace, which checks launches and keeps host code out of
// kernels; ownership, which follows buffers from Alloc to Free) and kernel
// discovery ask this package instead of comparing import paths and names
// themselves, so that they cannot disagree on what a call of the device
// package is. It is the only place, the device package itself and
// DIALECT.md aside, that spells the device package's import path and the
// names of its API; a test reads the device package's exported scope and
// fails when a function, method or type there is unknown here, so that a
// new one is classified (does it make a buffer? launch a kernel?) on
// purpose. Its siblings are internal/gpuapi (the kernel-side API) and
// internal/math32api (gpu/math32); the three share their lookup,
// internal/apitable.
package deviceapi
