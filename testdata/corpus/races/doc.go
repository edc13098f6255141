// Package racecorpus is the verdict corpus of the races check: kernels that
// race, and kernels that are correct but tricky, each marked in its doc
// comment with "verdict: race" or "verdict: clean". Patterns come from
// GPUVerify's test suite, the CUDA SDK samples (reduction, scan, transpose,
// matrixMul, histogram) and the classic textbook stencils.
//
// races/corpus_test.go measures the analysis against the verdicts, and,
// under -race with GPUKVET_RACECHECK=1, against Go's race detector running
// the kernels on the cpu backend. The launch used for a dynamic run: the
// kernel's block=/grid= when fixed, else block 256 (16×16 for 2-D) and grid
// 4 (2×2); slices of 4096 elements; int parameters n=1024, w=h=32, others 4.
package racecorpus
