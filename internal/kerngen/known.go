package kerngen

// Known lists the mismatches between a backend and Go that the generated
// suites found and that are not fixed yet: "backend kernel slot" → what
// goes wrong, where backend is "kir" (the kernel-IR interpreter), a
// device backend by name, "*" for every backend that runs the kernel
// (where the reference itself is wrong), or "ptxas"/"spirv" with slot
// "build" for a kernel that target refuses. A listed mismatch does not
// fail the tests; a listed one that no longer happens does, so that the
// list cannot go stale: drop an entry with the fix that ends it.
var Known = map[string]string{
	// Every backend computes the true value where the amd64 reference is
	// wrong (the interpreter; on the H100, cuda and NVIDIA's Vulkan:
	// bench/gpu/runs/2026-12-05-h100-86c3af4 and -5ec6bd9).
	"* Call_math_Log 0":   asmLogWrong("Log"),
	"* Call_math_Log10 0": asmLogWrong("Log10"),
	"* Call_math_Pow 0":   asmLogWrong("Pow"),
}

// asmLogWrong says why every backend's math.Log-based result of the smallest
// subnormal differs from the cpu reference: the reference is wrong.
func asmLogWrong(f string) string {
	return "the reference is wrong: Go's amd64 assembly math." + f + " of the smallest subnormal (x = 0x1) is wrong (Log: -709.09; the kernel's pure-Go algorithm and the GPU give the true -744.44) (see asmTrouble in codegen/kernelapi_test.go)"
}
