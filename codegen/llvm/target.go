package llvm

import (
	"fmt"
	"strings"

	"github.com/gpukvet/gpukvet/codegen/kir"
)

// target holds everything that differs between LLVM's GPU back ends.
type target struct {
	name, triple string
	// space maps kir address spaces to LLVM address-space numbers.
	space    map[kir.Space]int
	kernelCC string
	// deviceFence orders the trap record's stores before the thread ends.
	deviceFence func(e *emitter)
	// special returns the expression reading a special register (i32).
	special func(e *emitter, idx int) string
	barrier func(e *emitter)
	// annotate returns metadata nodes naming f as a kernel (NVPTX).
	annotate func(f *kir.Func) []string
	fnAttrs  func(f *kir.Func) string
}

func targetFor(name string) (*target, error) {
	switch name {
	case "", "amdgcn":
		return amdgcn, nil
	case "nvptx":
		return nvptx, nil
	}
	return nil, fmt.Errorf("llvm: unknown target %q (want amdgcn or nvptx)", name)
}

var nvptx = &target{
	name: "nvptx", triple: "nvptx64-nvidia-cuda",
	// Local memory is reached through generic pointers from allocas.
	space: map[kir.Space]int{kir.Generic: 0, kir.Global: 1, kir.Shared: 3, kir.Local: 0},
	deviceFence: func(e *emitter) {
		e.declare("declare void @llvm.nvvm.membar.gl()")
		e.ins("call void @llvm.nvvm.membar.gl()")
	},
	special: func(e *emitter, idx int) string {
		name := "llvm.nvvm.read.ptx.sreg." + kir.SpecialName[idx]
		e.declare(fmt.Sprintf("declare i32 @%s()", name))
		return fmt.Sprintf("call i32 @%s()", name)
	},
	barrier: func(e *emitter) {
		e.declare("declare void @llvm.nvvm.barrier0()")
		e.ins("call void @llvm.nvvm.barrier0()")
	},
	annotate: func(f *kir.Func) []string {
		out := []string{fmt.Sprintf("!{ptr @%s, !\"kernel\", i32 1}", f.Name)}
		if f.Block[0] != 0 {
			for i, d := range []string{"x", "y", "z"} {
				out = append(out, fmt.Sprintf("!{ptr @%s, !\"reqntid%s\", i32 %d}", f.Name, d, f.Block[i]))
			}
		}
		return out
	},
	fnAttrs: func(*kir.Func) string { return "" },
}

var amdgcn = &target{
	name: "amdgcn", triple: "amdgcn-amd-amdhsa",
	space:       map[kir.Space]int{kir.Generic: 0, kir.Global: 1, kir.Shared: 3, kir.Local: 5},
	kernelCC:    "amdgpu_kernel ",
	deviceFence: func(e *emitter) { e.ins("fence syncscope(\"agent\") release") },
	special: func(e *emitter, idx int) string {
		d := "xyz"[idx%3 : idx%3+1]
		switch idx / 3 {
		case 0:
			e.declare(fmt.Sprintf("declare i32 @llvm.amdgcn.workitem.id.%s()", d))
			return fmt.Sprintf("call i32 @llvm.amdgcn.workitem.id.%s()", d)
		case 1:
			e.declare(fmt.Sprintf("declare i32 @llvm.amdgcn.workgroup.id.%s()", d))
			return fmt.Sprintf("call i32 @llvm.amdgcn.workgroup.id.%s()", d)
		}
		// Block and grid sizes come from the HSA dispatch packet:
		// workgroup_size_{x,y,z} are u16 at 4, 6, 8; grid_size_{x,y,z}
		// (in work items) u32 at 12, 16, 20.
		e.declare("declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()")
		dp, wp, ws := e.temp(), e.temp(), e.temp()
		e.ins("%s = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()", dp)
		e.ins("%s = getelementptr i8, ptr addrspace(4) %s, i64 %d", wp, dp, 4+2*(idx%3))
		e.ins("%s = load i16, ptr addrspace(4) %s, align 2", ws, wp)
		if idx/3 == 2 {
			return fmt.Sprintf("zext i16 %s to i32", ws)
		}
		gp, gs, w32 := e.temp(), e.temp(), e.temp()
		e.ins("%s = getelementptr i8, ptr addrspace(4) %s, i64 %d", gp, dp, 12+4*(idx%3))
		e.ins("%s = load i32, ptr addrspace(4) %s, align 4", gs, gp)
		e.ins("%s = zext i16 %s to i32", w32, ws)
		return fmt.Sprintf("udiv i32 %s, %s", gs, w32)
	},
	barrier: func(e *emitter) {
		e.declare("declare void @llvm.amdgcn.s.barrier()")
		e.ins("fence syncscope(\"workgroup\") release")
		e.ins("call void @llvm.amdgcn.s.barrier()")
		e.ins("fence syncscope(\"workgroup\") acquire")
	},
	annotate: func(*kir.Func) []string { return nil },
	fnAttrs: func(f *kir.Func) string {
		if f.Block[0] == 0 {
			return ""
		}
		n := f.Block[0] * f.Block[1] * f.Block[2]
		return fmt.Sprintf("\"amdgpu-flat-work-group-size\"=\"%d,%d\" ", n, n)
	},
}

// structParam declares a struct passed by value: byval on NVPTX (a .param
// byte array), byref in the kernel-argument segment on AMDGPU.
func (tg *target) structParam(p kir.Param, i int) string {
	if tg.name == "nvptx" {
		return fmt.Sprintf("ptr byval([%d x i8]) align %d %%p%d", p.Bytes, p.Align, i)
	}
	return fmt.Sprintf("ptr addrspace(4) byref([%d x i8]) align %d %%p%d", p.Bytes, p.Align, i)
}

func (tg *target) structPtrTy() string {
	if tg.name == "nvptx" {
		return "ptr"
	}
	return "ptr addrspace(4)"
}

func (tg *target) allocaSpace() string {
	if n := tg.space[kir.Local]; n != 0 {
		return fmt.Sprintf(", addrspace(%d)", n)
	}
	return ""
}

// metadata renders the module-level metadata.
func (tg *target) metadata(annotations []string) string {
	if len(annotations) == 0 {
		return ""
	}
	var sb strings.Builder
	var refs []string
	for i, a := range annotations {
		refs = append(refs, fmt.Sprintf("!%d", i))
		fmt.Fprintf(&sb, "!%d = %s\n", i, a)
	}
	return "\n!nvvm.annotations = !{" + strings.Join(refs, ", ") + "}\n" + sb.String()
}
