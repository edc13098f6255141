package codegen

import (
	"go/types"

	"golang.org/x/tools/go/packages"

	"github.com/gpukvet/gpukvet/codegen/kir"
	"github.com/gpukvet/gpukvet/codegen/ptx"
	"github.com/gpukvet/gpukvet/codegen/spirv"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
	"github.com/gpukvet/gpukvet/internal/kernels"
)

// Manifest says how to load and launch the kernels of a module from any
// host program. `gpukvet build` writes it as JSON beside the module; the
// docs/kernels.md and codegen/ABI.md document it.
type Manifest struct {
	Version int    `json:"version"` // of this format: 1
	Target  string `json:"target"`  // "ptx"
	Arch    string `json:"arch"`    // "sm_80"
	// Module is the file name of the module, set by `gpukvet build`.
	Module       string        `json:"module,omitempty"`
	SourceHashes []PackageHash `json:"sourceHashes"`
	Kernels      []*KernelInfo `json:"kernels"`
	Trap         TrapABI       `json:"trap"`
	// Positions maps a trap record's posid to "file:line:col".
	Positions []string `json:"positions"`
	// PanicMessages maps the posid of an explicit panic with a constant
	// argument to that argument's text ("negative length"), so that a
	// runtime can report panic("negative length") as Go would.
	PanicMessages map[int]string `json:"panicMessages,omitempty"`
	// SPIRVFeatures are the optional Vulkan device features the SPIR-V
	// module needs (target spirv): a device must have all of them to
	// create the module. ABI.md lists the vocabulary.
	SPIRVFeatures []string `json:"spirvFeatures,omitempty"`
}

// PackageHash is the source hash (internal/srchash) of one kernel package.
type PackageHash struct {
	Path string `json:"path"`
	Hash string `json:"hash"`
}

// KernelInfo describes one entry point.
type KernelInfo struct {
	Name  string `json:"name"`  // Go name, "Saxpy"
	Pkg   string `json:"pkg"`   // import path
	Entry string `json:"entry"` // PTX entry point
	Pos   string `json:"pos"`   // declaration, "file:line:col"
	// Block and Grid are the shapes fixed by block= and grid= (absent if
	// free).
	Block []int `json:"block,omitempty"`
	Grid  []int `json:"grid,omitempty"`
	// Dims is how many dimensions of indices the kernel reads; launch it
	// with extent 1 in the others.
	Dims int `json:"dims"`
	// Params are the Go parameters after the gpu.Thread, in order.
	Params []ParamInfo `json:"params"`
	// EntryParams are the PTX parameters in order, the hidden trap-record
	// pointer last.
	EntryParams []EntryParam `json:"entryParams"`
	// SPIRV is the kernel's Vulkan interface (target spirv).
	SPIRV *SPIRVInfo `json:"spirv,omitempty"`
	// EntryNC is the PTX entry point of the variant whose loads from the
	// ReadOnly slice parameters go through the non-coherent (read-only)
	// data cache, ld.global.nc; absent when the kernel reads no slice it
	// does not write, and under -O0. It takes the same parameters as
	// Entry. A runtime may launch it only when no other slice argument's
	// buffer overlaps a ReadOnly one (ABI.md).
	EntryNC string `json:"entryNC,omitempty"`
	// ReadOnly are the indices into Params of the slices EntryNC reads
	// through the non-coherent cache.
	ReadOnly []int `json:"readOnly,omitempty"`
	// EntryFast is the PTX entry point of the variant compiled assuming
	// Facts, the kernel's tests of uniform values (kir.AssumeFacts): no
	// test and no slow path where those tests held. A runtime may launch
	// it only when Facts.Eval is true for the launch (ABI.md, "Launch
	// facts"); EntryFastNC is the same with EntryNC's non-coherent loads,
	// under the same condition as EntryNC. Absent under -O0 and for a
	// kernel without such tests.
	EntryFast   string        `json:"entryFast,omitempty"`
	EntryFastNC string        `json:"entryFastNC,omitempty"`
	Facts       *gpuabi.Facts `json:"facts,omitempty"`
}

// SPIRVInfo is how to launch one SPIR-V entry point on Vulkan (ABI.md,
// "SPIR-V"): its parameters are one block laid out by
// internal/gpuabi.LayoutPush, the push-constant block itself or, over
// Vulkan's minimum of 128 bytes, an argument buffer whose device address
// is the one push constant.
type SPIRVInfo struct {
	// PushConstants are the entry parameters' places in the parameter
	// block, in entryParams order (the trap record's address last).
	PushConstants []PushConstant `json:"pushConstants"`
	// PushConstantSize is the push-constant block's size in bytes: the
	// pipeline layout's one push-constant range is [0, size) for the
	// compute stage (8 with an argument buffer).
	PushConstantSize int `json:"pushConstantSize"`
	// ArgsBuffer: the parameter block is in device memory (ArgsSize bytes,
	// 16-byte aligned, written before the dispatch and kept until it
	// ends) and the push constant at offset 0 is its u64 device address.
	ArgsBuffer bool `json:"argsBuffer"`
	// ArgsSize is the parameter block's size in bytes (the push-constant
	// block's without ArgsBuffer).
	ArgsSize int `json:"argsSize"`
	// WorkgroupSize is the LocalSize of a kernel with block=; absent, the
	// workgroup size is the spec constants SpecIDs (x, y, z; default 1).
	WorkgroupSize []int `json:"workgroupSize,omitempty"`
	SpecIDs       []int `json:"specIds,omitempty"`
	// SharedBytes is the Workgroup memory the entry point declares.
	SharedBytes int `json:"sharedBytes"`
	// Features are the optional device features this entry point's own
	// code uses (the module's are Manifest.SPIRVFeatures).
	Features []string `json:"features"`
	// EntryFast is the SPIR-V entry point of the kernel's variant
	// compiled assuming its launch facts (KernelInfo.Facts), with the
	// same push constants as the kernel; "" when the module has none (no
	// facts, or the SPIR-V emitter could not express the variant). A
	// Vulkan host may launch it only when the facts hold (ABI.md,
	// "Launch facts").
	EntryFast string `json:"entryFast,omitempty"`
}

// PushConstant is one entry parameter in the push-constant block.
type PushConstant struct {
	Name   string `json:"name"`
	Role   string `json:"role"` // as EntryParam.Role
	Offset int    `json:"offset"`
	Size   int    `json:"size"`
}

// ParamInfo is one Go parameter and the entry parameters that carry it.
type ParamInfo struct {
	Name string `json:"name"`
	Go   string `json:"go"`   // Go type
	Kind string `json:"kind"` // "scalar", "slice" or "struct"
	// Elem, ElemSize and ElemAlign describe a slice's elements (Go layout).
	Elem      string `json:"elem,omitempty"`
	ElemSize  int64  `json:"elemSize,omitempty"`
	ElemAlign int64  `json:"elemAlign,omitempty"`
	// Fields describe a struct's (or a slice element struct's) layout.
	Fields []FieldInfo `json:"fields,omitempty"`
	// Entry lists the indices into EntryParams: one for a scalar or a
	// struct, two (pointer, length) for a slice.
	Entry []int `json:"entry"`
}

// FieldInfo is one scalar field of a struct in Go's layout.
type FieldInfo struct {
	Name   string `json:"name"`
	Go     string `json:"go"`
	Offset int64  `json:"offset"`
	Size   int64  `json:"size"`
}

// EntryParam is one parameter of the PTX entry point.
type EntryParam struct {
	Name  string `json:"name"`
	PTX   string `json:"ptx"` // "u64", "s64", "f32", "b8[24]"...
	Size  int    `json:"size"`
	Align int    `json:"align"`
	// Role: "value", "slice.ptr", "slice.len", "struct", "trap".
	Role string `json:"role"`
}

// TrapABI documents the trap record every entry point takes as its last
// parameter.
type TrapABI struct {
	Param  string            `json:"param"`
	Size   int               `json:"size"`
	Align  int               `json:"align"`
	Fields []FieldInfo       `json:"fields"`
	Codes  map[string]string `json:"codes"`
	Notes  string            `json:"notes"`
}

func newManifest(opts Options) *Manifest {
	codes := map[string]string{}
	for _, c := range gpuabi.TrapCodes {
		codes[itoa(int(c))] = c.String()
	}
	var fields []FieldInfo
	for _, f := range gpuabi.TrapFields {
		fields = append(fields, FieldInfo{f.Name, f.Type, int64(f.Offset), int64(f.Size)})
	}
	return &Manifest{
		Version: 1, Target: opts.Target, Arch: opts.Arch,
		Trap: TrapABI{
			Param: gpuabi.TrapParamName, Size: gpuabi.TrapRecordSize, Align: 8,
			Fields: fields,
			Codes:  codes,
			Notes: "zero the record before launching; after the kernel, code != 0 means a thread trapped: " +
				"positions[posid] is the Go position, arg0/arg1 the index and length (code 1) or the bounds (code 2). " +
				"The first trapping thread writes the record (atomic CAS on code); trapping threads exit, others run on.",
		},
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

var sizes = types.SizesFor("gc", "amd64")

// kernelManifest describes kernel k compiled as f.
func kernelManifest(p *packages.Package, k *kernels.Kernel, f *kir.Func, pos string) *KernelInfo {
	ki := &KernelInfo{Name: k.Func.Name(), Pkg: p.PkgPath, Entry: f.Name, Pos: pos, Block: shape(k.Block), Grid: shape(k.Grid), Dims: k.Dims}
	for i, fp := range f.Params {
		ep := EntryParam{Name: ptx.ParamName(f, i), Role: "value"}
		if fp.Bytes > 0 {
			ep.PTX, ep.Size, ep.Align, ep.Role = "b8["+itoa(fp.Bytes)+"]", fp.Bytes, fp.Align, "struct"
		} else {
			ep.PTX = ptx.ParamType(fp.Type.Kind)
			ep.Size = fp.Type.Kind.Size()
			ep.Align = ep.Size
		}
		ki.EntryParams = append(ki.EntryParams, ep)
	}
	ki.EntryParams = append(ki.EntryParams, EntryParam{Name: gpuabi.TrapParamName, PTX: "u64", Size: 8, Align: 8, Role: "trap"})
	sig := k.Func.Signature()
	next := 0
	for i := 1; i < sig.Params().Len(); i++ {
		v := sig.Params().At(i)
		pi := ParamInfo{Name: v.Name(), Go: types.TypeString(v.Type(), types.RelativeTo(p.Types))}
		switch u := v.Type().Underlying().(type) {
		case *types.Slice:
			pi.Kind = "slice"
			pi.Elem = types.TypeString(u.Elem(), types.RelativeTo(p.Types))
			pi.ElemSize, pi.ElemAlign = sizes.Sizeof(u.Elem()), sizes.Alignof(u.Elem())
			pi.Fields = fieldsOf(u.Elem(), p)
			pi.Entry = []int{next, next + 1}
			ki.EntryParams[next].Role = "slice.ptr"
			ki.EntryParams[next+1].Role = "slice.len"
			next += 2
		case *types.Struct:
			pi.Kind = "struct"
			pi.Fields = fieldsOf(v.Type(), p)
			pi.Entry = []int{next}
			next++
		default:
			pi.Kind = "scalar"
			pi.Entry = []int{next}
			next++
		}
		ki.Params = append(ki.Params, pi)
	}
	return ki
}

// fieldsOf flattens a struct type's scalar fields with their offsets.
// nonCoherent fills in ki's EntryNC and ReadOnly from f's read-only
// loads (kir.ReadOnlyLoads), as the PTX emitter compiles them.
func nonCoherent(ki *KernelInfo, f *kir.Func) {
	loads, slots := kir.ReadOnlyLoads(f)
	if len(loads) == 0 {
		return
	}
	for _, s := range slots {
		for j, p := range ki.Params {
			if p.Kind == "slice" && p.Entry[0] == s {
				ki.ReadOnly = append(ki.ReadOnly, j)
			}
		}
	}
	ki.EntryNC = ptx.NCName(f)
}

// launchFacts names in ki the variant g of its kernel that assumes facts
// (kir.AssumeFacts), and g's non-coherent twin when the PTX emitter
// gives it one.
func launchFacts(ki *KernelInfo, g *kir.Func, facts *gpuabi.Facts) {
	ki.EntryFast, ki.Facts = g.Name, facts
	if loads, _ := kir.ReadOnlyLoads(g); len(loads) > 0 {
		ki.EntryFastNC = ptx.NCName(g)
	}
}

func fieldsOf(t types.Type, p *packages.Package) []FieldInfo {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []FieldInfo
	var walk func(st *types.Struct, prefix string, base int64)
	walk = func(st *types.Struct, prefix string, base int64) {
		fields := make([]*types.Var, st.NumFields())
		for i := range fields {
			fields[i] = st.Field(i)
		}
		offs := sizes.Offsetsof(fields)
		for i, f := range fields {
			if inner, ok := f.Type().Underlying().(*types.Struct); ok {
				walk(inner, prefix+f.Name()+".", base+offs[i])
				continue
			}
			out = append(out, FieldInfo{Name: prefix + f.Name(), Go: types.TypeString(f.Type(), types.RelativeTo(p.Types)),
				Offset: base + offs[i], Size: sizes.Sizeof(f.Type())})
		}
	}
	walk(st, "", 0)
	return out
}

// spirvInfo describes entry f's Vulkan interface.
func spirvInfo(f *kir.Func, k *KernelInfo, res *spirv.Result) *SPIRVInfo {
	params, slotOf := spirv.PushParams(f)
	l := gpuabi.LayoutPush(params)
	si := &SPIRVInfo{PushConstantSize: l.PushSize, ArgsBuffer: l.Indirect, ArgsSize: l.Size, SharedBytes: res.SharedBytes[f.Name], Features: res.EntryFeatures[f.Name]}
	if si.Features == nil {
		si.Features = []string{}
	}
	for i := range f.Params {
		s := l.Slots[slotOf[i]]
		si.PushConstants = append(si.PushConstants, PushConstant{Name: k.EntryParams[i].Name, Role: k.EntryParams[i].Role, Offset: s.Offset, Size: s.Size})
	}
	si.PushConstants = append(si.PushConstants, PushConstant{Name: gpuabi.TrapParamName, Role: "trap", Offset: l.Trap.Offset, Size: l.Trap.Size})
	if f.Block[0] != 0 {
		si.WorkgroupSize = []int{f.Block[0], max(f.Block[1], 1), max(f.Block[2], 1)}
	} else {
		si.SpecIDs = []int{0, 1, 2}
	}
	return si
}

func shape(s [3]int) []int {
	if s[0] == 0 {
		return nil
	}
	return s[:]
}
