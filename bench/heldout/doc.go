// Package heldout is the second twin suite against nvcc: kernels
// translated from public GPU suites the project had not used for speed
// (PolyBench/GPU, the CUDA samples, Rodinia, Parboil, SHOC) and the
// issue-22 outside twins that bench/kernels lacks, each written twice,
// statement for statement, before any tuning for them: the CUDA C kernel
// as its source has it in twins.cu, and the Go kernel here as a Go user
// would write it (bounds checks on, guards a Go user would write).
//
// Go's int is 64 bits, so where the Go kernel has int the twin has
// `long long` (bench/kernels' rule); where a source computes in double
// because of an unsuffixed constant (Rodinia's 2.0, ETA and MOMENTUM) the
// twin computes in float as the Go kernel does, and constant-memory arrays
// are passed as pointers (the harness loads a cubin, it sets no symbols).
// Each twin in twins.cu says where it departs from its source.
//
// The tests check every kernel on the cpu backend against plain Go and on
// Vulkan against the cpu backend; with a GPU and the twins' cubin,
// TestTwins times both sides (bench/internal/twinharness; run-h200.sh).
package heldout

//go:generate go tool gpukvet gen
