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
}
