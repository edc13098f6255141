// Package divergence is the verdict corpus of the divergence check: kernels
// whose barriers some threads of a block may not reach, and kernels that are
// correct but easy to get wrong. Each kernel's doc comment holds
//
//	verdict: divergent   (or: verdict: clean)
//	launch: block=64 grid=2 n=40 ...
//
// The verdict is what the divergence analyzer must say. The launch line is
// how the runtime cross-check launches the kernel on the cpu backend: the
// block and grid shapes, a value for each scalar parameter by name, len= the
// length of every slice parameter (default 1024), fill= how slices start
// (iota: element i holds i; zero), and expect=trap for a kernel whose
// divergence shows at run time as a panic rather than as a barrier error.
// The launches are chosen so that every divergent kernel's divergence shows.
//
// The patterns follow GPUVerify's barrier-divergence tests and CUDA
// practice. The package is compiled with the module (it is imported by
// divergence's tests) but lies under testdata, so `./...` skips it.
//
// Regenerate the report with
//
//	go test ./divergence -run Corpus -v -update
package divergence
