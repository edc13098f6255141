// Package math32api is the one recognizer of package gpu/math32, float32
// math for kernels: it spells the package's import path and says, as a
// [Kind], which of its functions the compiler treats specially.
//
// Every function of gpu/math32 is a //gpu:device function: the checks see
// it as device code, and the lowering compiles it from its Go body, except
// the functions with a Kind, which it compiles to an instruction (FMA: the
// float32 fused multiply-add, whose Go body, exact through float64, is
// for the CPU). It is the only place, gpu/math32 itself aside, that spells
// the package's import path and those names; a test reads the package's
// exported scope and fails when a function there is not a //gpu:device
// function, or a Kind names none. Its siblings are internal/gpuapi (the
// kernel-side API) and internal/deviceapi (the host runtime); the three
// share their lookup, internal/apitable.
package math32api
