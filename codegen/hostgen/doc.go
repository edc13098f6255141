// Package hostgen writes the Go side of compiled kernels: the file
// `gpukvet gen` puts into a package (gpukvet_gen.go by default), so that
// the package's kernels run on every backend of package device without a
// build step of their own.
//
// For each package holding //gpu:kernel functions it compiles the kernels
// with package codegen (checks included: a kernel a check reports on is
// refused) and renders one Go file holding
//
//   - the embedded modules: PTX for the cuda backend, SPIR-V for the
//     vulkan backend (Targets), and the table of trap positions;
//   - the hash of the package's sources, so that a GPU backend refuses
//     code compiled from other sources;
//   - an init function that registers each kernel with package device
//     (its shapes, parameter names, entry points, launch facts);
//   - one typed launch function per kernel, such as LaunchSaxpy(d, grid,
//     block, a, x, y) with device buffers for slices, so that wrong
//     arguments are compile errors;
//   - the cpu backend's entry to each kernel, which calls it without
//     reflection and runs a block as loops over its threads: copies of the
//     kernel's body, split at its barriers.
//
// The generated file imports device, device/backend and gpu; hostgen only
// writes text naming them and imports none of them, so the compiler stays
// below the runtime. The output is deterministic and independent of the
// machine (positions are relative), and Write never overwrites a file that
// gen did not write.
package hostgen
