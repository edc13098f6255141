// Package gpuapi is the one recognizer of the gpu package's API: it says
// which function or method of package gpu a go/types object or a go/ssa
// call denotes, as a [Kind], and whether a type is gpu.Thread or gpu.Dim3.
//
// Every analysis (races, uniformity, memspace, divergence, kernel
// discovery) and the lowering to kernel IR ask this package instead of
// comparing import paths and names themselves, so that they cannot
// disagree on what a call of the gpu package is. It is the only place,
// the gpu package itself and DIALECT.md aside, that spells the gpu
// package's import path and the names of its API; a test reads the gpu
// package's exported scope and fails when a function or method there has
// no Kind. Its siblings are internal/deviceapi (the host runtime) and
// internal/math32api (gpu/math32); the three share their lookup,
// internal/apitable.
package gpuapi
