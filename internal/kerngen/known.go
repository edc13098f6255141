package kerngen

// Known lists the mismatches between a backend and Go that the generated
// suites found and that are not fixed yet: "backend kernel slot" → what
// goes wrong, where backend is "kir" (the kernel-IR interpreter), a
// device backend by name, or "ptxas"/"spirv" with slot "build" for a
// kernel that target refuses. A listed mismatch does not fail the tests;
// a listed one that no longer happens does, so that the list cannot go
// stale: drop an entry with the fix that ends it.
var Known = map[string]string{
	"ptxas Unary_uint build":    "PTX emitter writes neg.u32/neg.u64 for -x on an unsigned x; ptxas: Instruction 'neg' applies only to signed numeric types (helper ptx)",
	"ptxas Unary_uint8 build":   "PTX emitter writes neg.u32/neg.u64 for -x on an unsigned x; ptxas: Instruction 'neg' applies only to signed numeric types (helper ptx)",
	"ptxas Unary_uint16 build":  "PTX emitter writes neg.u32/neg.u64 for -x on an unsigned x; ptxas: Instruction 'neg' applies only to signed numeric types (helper ptx)",
	"ptxas Unary_uint32 build":  "PTX emitter writes neg.u32/neg.u64 for -x on an unsigned x; ptxas: Instruction 'neg' applies only to signed numeric types (helper ptx)",
	"ptxas Unary_uint64 build":  "PTX emitter writes neg.u32/neg.u64 for -x on an unsigned x; ptxas: Instruction 'neg' applies only to signed numeric types (helper ptx)",
	"ptxas Unary_uintptr build": "PTX emitter writes neg.u32/neg.u64 for -x on an unsigned x; ptxas: Instruction 'neg' applies only to signed numeric types (helper ptx)",
	"ptxas Conv_uint build":     "PTX emitter writes neg.u32/neg.u64 for -x on an unsigned x; ptxas: Instruction 'neg' applies only to signed numeric types (helper ptx)",
	"ptxas Conv_uint8 build":    "PTX emitter writes neg.u32/neg.u64 for -x on an unsigned x; ptxas: Instruction 'neg' applies only to signed numeric types (helper ptx)",
	"ptxas Conv_uint16 build":   "PTX emitter writes neg.u32/neg.u64 for -x on an unsigned x; ptxas: Instruction 'neg' applies only to signed numeric types (helper ptx)",
	"ptxas Conv_uint32 build":   "PTX emitter writes neg.u32/neg.u64 for -x on an unsigned x; ptxas: Instruction 'neg' applies only to signed numeric types (helper ptx)",
	"ptxas Conv_uint64 build":   "PTX emitter writes neg.u32/neg.u64 for -x on an unsigned x; ptxas: Instruction 'neg' applies only to signed numeric types (helper ptx)",
	"ptxas Conv_uintptr build":  "PTX emitter writes neg.u32/neg.u64 for -x on an unsigned x; ptxas: Instruction 'neg' applies only to signed numeric types (helper ptx)",
	"spirv R001 build":          "SPIR-V emitter cannot structure the kernel's branches (not shrunk yet; R001 shows one such shape); the kernel has no SPIR-V",
	"spirv R002 build":          "SPIR-V emitter cannot structure the kernel's branches (not shrunk yet; R001 shows one such shape); the kernel has no SPIR-V",
	"spirv R010 build":          "SPIR-V emitter cannot structure the kernel's branches (not shrunk yet; R001 shows one such shape); the kernel has no SPIR-V",
	"spirv R012 build":          "SPIR-V emitter cannot structure the kernel's branches (not shrunk yet; R001 shows one such shape); the kernel has no SPIR-V",
	"spirv R013 build":          "SPIR-V emitter cannot structure the kernel's branches (not shrunk yet; R001 shows one such shape); the kernel has no SPIR-V",
	"spirv R025 build":          "SPIR-V emitter cannot structure the kernel's branches (not shrunk yet; R001 shows one such shape); the kernel has no SPIR-V",
	"spirv R033 build":          "SPIR-V emitter cannot structure the kernel's branches (not shrunk yet; R001 shows one such shape); the kernel has no SPIR-V",
	"vulkan Arith_float32 46":   "lavapipe rewrites x*0 to 0: x = +Inf gives 0, Go NaN (0xffc00000) (helper vksem)",
	"vulkan Arith_float32 47":   "the branch on x*0 of the same rewrite: if x*0 < 1 taken and x*0 == x*0 true for x = +Inf (helper vksem)",
	"vulkan Arith_float32 48":   "lavapipe rewrites 0*y to 0: y = +Inf gives 0, Go NaN (helper vksem)",
	"vulkan Arith_float32 49":   "the branch on 0*y of the same rewrite (helper vksem)",
	"vulkan Arith_float32 68":   "lavapipe rewrites 0/y to 0: y = 0 (or NaN) gives 0, Go NaN (helper vksem)",
	"vulkan Arith_float32 69":   "the branch on 0/y of the same rewrite (helper vksem)",
	"vulkan Arith_float64 46":   "lavapipe rewrites x*0 to 0: x = +Inf gives 0, Go NaN (0xfff8000000000000) (helper vksem)",
	"vulkan Arith_float64 47":   "the branch on x*0 of the same rewrite: if x*0 < 1 taken and x*0 == x*0 true for x = +Inf (helper vksem)",
	"vulkan Arith_float64 48":   "lavapipe rewrites 0*y to 0: y = +Inf gives 0, Go NaN (helper vksem)",
	"vulkan Arith_float64 49":   "the branch on 0*y of the same rewrite (helper vksem)",
	"vulkan Arith_float64 68":   "lavapipe rewrites 0/y to 0: y = 0 (or NaN) gives 0, Go NaN (helper vksem)",
	"vulkan Arith_float64 69":   "the branch on 0/y of the same rewrite (helper vksem)",
	"kir Call_math_Log 0":       "the reference is wrong: Go's amd64 assembly math.Log of the smallest subnormal (x = 0x1) is wrong (Log: -709.09; the kernel's pure-Go algorithm gives the true -744.44) (see asmTrouble in codegen/kernelapi_test.go)",
	"kir Call_math_Log10 0":     "the reference is wrong: Go's amd64 assembly math.Log10 of the smallest subnormal (x = 0x1) is wrong (Log: -709.09; the kernel's pure-Go algorithm gives the true -744.44) (see asmTrouble in codegen/kernelapi_test.go)",
	"kir Call_math_Pow 0":       "the reference is wrong: Go's amd64 assembly math.Pow of the smallest subnormal (x = 0x1) is wrong (Log: -709.09; the kernel's pure-Go algorithm gives the true -744.44) (see asmTrouble in codegen/kernelapi_test.go)",
}
