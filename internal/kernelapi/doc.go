// Package kernelapi is the contract of what kernel code may call beyond
// the gpu package and //gpu:device functions: the functions of the
// standard library (package math and math/bits) that every target
// compiles.
//
// It is the one table both sides of that contract read. The memspace check
// allows a kernel to call exactly these functions (and reports any other
// function of these packages), and the lowering (codegen/lower) compiles
// exactly these: it refuses a call of any other standard-library function
// even with the checks off. codegen's TestKernelAPI builds a kernel
// calling every entry for every target (PTX through ptxas, SPIR-V through
// spirv-val, LLVM IR for AMD GPUs), so an entry cannot be added here
// without its lowering, and a function cannot be lowered without its
// entry.
package kernelapi
