package vulkan

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

// kernelCode is what the backend learned about a kernel's code the first
// time it was launched: its SPIR-V module, its push-constant layout, and
// that the device can run it.
type kernelCode struct {
	module [32]byte // the SPIR-V module's hash: the key of b.modules
	name   string   // the entry point's name
	entry  *byte    // the same, NUL-terminated
	layout gpuabi.PushLayout
	shared int // bytes of Workgroup memory the entry point uses
	// cells are the entry parameters' places in the parameter block, for
	// the launch facts (backend.FactsHold).
	cells []cell
	// fast is the entry point of the variant compiled assuming the
	// kernel's launch facts (backend.Code.EntryFast), with the same
	// parameters; nil when the code has no facts or its SPIR-V module no
	// such entry point.
	fast *kernelCode
}

// cell is one entry parameter (the numbering of the manifest's
// entryParams: a slice is two, its pointer then its length) in the
// parameter block: size bytes at offset off, size being its PTX size (a
// narrow scalar's own size; the block holds it extended to 4 bytes, so
// its low bytes are the same little-endian).
type cell struct{ off, size int }

// paramCells lists k's entry parameters in the parameter block of layout l.
func paramCells(k *backend.Kernel, l gpuabi.PushLayout) []cell {
	var cs []cell
	for i, t := range k.Params {
		slots := l.Entry[i]
		switch t.Kind() {
		case reflect.Slice:
			cs = append(cs, cell{l.Slots[slots[0]].Offset, 8}, cell{l.Slots[slots[1]].Offset, 8})
		default:
			cs = append(cs, cell{l.Slots[slots[0]].Offset, int(t.Size())})
		}
	}
	return cs
}

// factsHold reports whether k's launch facts hold for a launch with the
// parameter block params (marshalPush's) and this shape.
func factsHold(k *backend.Kernel, kc *kernelCode, params []byte, grid, block gpu.Dim3) bool {
	read := func(i, off, size int) (uint64, bool) {
		if i < 0 || i >= len(kc.cells) || off < 0 || size < 1 || size > 8 || off > kc.cells[i].size-size {
			return 0, false
		}
		at := kc.cells[i].off + off
		if at+size > len(params) {
			return 0, false
		}
		var v uint64
		for j := size - 1; j >= 0; j-- {
			v = v<<8 | uint64(params[at+j])
		}
		return v, true
	}
	return backend.FactsHold(k.Code.Facts, read, block, grid)
}

// choose returns the entry point a launch of k with the parameter block
// params and this shape runs: the variant assuming the launch facts when
// the module has it and the facts hold, else the kernel's entry.
func choose(k *backend.Kernel, kc *kernelCode, params []byte, grid, block gpu.Dim3) *kernelCode {
	if kc.fast != nil && factsHold(k, kc, params, grid, block) {
		return kc.fast
	}
	return kc
}

type pipeKey struct {
	module [32]byte
	entry  string
	block  gpu.Dim3
}

// features every gpukvet SPIR-V module needs whatever the kernel does
// (codegen/ABI.md: the Int64 capability is always declared).
var alwaysNeeded = []string{"int64"}

// featureNames maps codegen/ABI.md's feature vocabulary to the name of the
// Vulkan feature a user finds in vulkaninfo.
var featureNames = map[string]string{
	"int64": "shaderInt64", "float64": "shaderFloat64", "int16": "shaderInt16", "int8": "shaderInt8",
	"storageBuffer8BitAccess": "storageBuffer8BitAccess", "storageBuffer16BitAccess": "storageBuffer16BitAccess",
	"shaderBufferFloat32AtomicAdd": "shaderBufferFloat32AtomicAdd (VK_EXT_shader_atomic_float)",
	"shaderBufferFloat64AtomicAdd": "shaderBufferFloat64AtomicAdd (VK_EXT_shader_atomic_float)",
	"shaderSharedFloat32AtomicAdd": "shaderSharedFloat32AtomicAdd (VK_EXT_shader_atomic_float)",
	"shaderSharedFloat64AtomicAdd": "shaderSharedFloat64AtomicAdd (VK_EXT_shader_atomic_float)",
	"shaderBufferInt64Atomics":     "shaderBufferInt64Atomics", "shaderSharedInt64Atomics": "shaderSharedInt64Atomics",
	"shaderSignedZeroInfNanPreserveFloat32": "shaderSignedZeroInfNanPreserveFloat32 (Vulkan 1.2 float controls)",
	"shaderSignedZeroInfNanPreserveFloat64": "shaderSignedZeroInfNanPreserveFloat64 (Vulkan 1.2 float controls)",
	"shaderRoundingModeRTEFloat32":          "shaderRoundingModeRTEFloat32 (Vulkan 1.2 float controls)",
	"shaderRoundingModeRTEFloat64":          "shaderRoundingModeRTEFloat64 (Vulkan 1.2 float controls)",
	"shaderDenormPreserveFloat32":           "shaderDenormPreserveFloat32 (Vulkan 1.2 float controls)",
	"shaderDenormPreserveFloat64":           "shaderDenormPreserveFloat64 (Vulkan 1.2 float controls)",
}

// requested maps the features a device may lack and still run a kernel
// that lists them to the float width of the DenormPreserve execution mode
// that is then dropped from the module: without it the driver's default
// denormal handling applies (subnormal float32/float64 values may be
// flushed to zero where Go keeps them; lavapipe, which lacks the property,
// preserves them anyway). Every other feature is required.
var requested = map[string]uint32{"shaderDenormPreserveFloat32": 32, "shaderDenormPreserveFloat64": 64}

// kernel checks k's code once: that there is SPIR-V, that it is not stale,
// that its entry point is in the module, that the device has every feature
// it needs, that its push constants and shared memory fit; and creates its
// shader module and pipeline layout.
func (b *Backend) kernel(k *backend.Kernel) (*kernelCode, error) {
	c := k.Code
	if c == nil || len(c.SPIRV) == 0 {
		return nil, fmt.Errorf("kernel %s has no SPIR-V code for the vulkan backend: run `go generate` (//go:generate go tool gpukvet gen, with the spirv target) in its package", k.Name)
	}
	if kc, ok := b.kernels[c]; ok {
		return kc, nil
	}
	if err := backend.CheckStale(k); err != nil {
		return nil, err
	}
	drop, err := droppedFloatModes() // float-controls modes to drop from the module
	if err != nil {
		return nil, err
	}
	keep, narrow, err := barrierKeep() // the memory the barriers order, if narrowed
	if err != nil {
		return nil, err
	}
	for _, f := range append(alwaysNeeded, c.SPIRVFeatures...) {
		has, known := b.has[f]
		if !known {
			return nil, fmt.Errorf("kernel %s needs the device feature %q, which this version of the vulkan backend does not know (is the code newer than the runtime?)", k.Name, f)
		}
		if w, ok := requested[f]; ok && !has {
			addWidth(drop, floatModes["DenormPreserve"].mode, w)
			continue
		}
		if !has {
			return nil, fmt.Errorf("kernel %s needs the Vulkan device feature %s, which %s lacks (its package's SPIR-V module uses it: Vulkan refuses a module whose capabilities the device lacks, whichever of its kernels runs; the manifest of `gpukvet build -target=spirv` lists each kernel's own features)", k.Name, featureNames[f], b.info.Name)
		}
	}
	mod, err := parseSPIRV(c.SPIRV)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: its SPIR-V module: %w", k.Name, err)
	}
	ep, ok := mod.entries[c.Entry]
	if !ok {
		return nil, fmt.Errorf("kernel %s: entry point %q is not in its SPIR-V module (regenerate with `gpukvet gen`)", k.Name, c.Entry)
	}
	if ep.shared > b.info.MaxSharedMemory {
		return nil, fmt.Errorf("kernel %s uses %d bytes of shared (Workgroup) memory, more than the %d bytes (maxComputeSharedMemorySize) of %s", k.Name, ep.shared, b.info.MaxSharedMemory, b.info.Name)
	}
	layout, err := pushLayout(k)
	if err != nil {
		return nil, err
	}
	// Over Vulkan's minimum of 128 bytes the parameters go in an argument
	// buffer (layout.Indirect) and the push constants are its address.
	if layout.PushSize > b.info.MaxPushConstantsSize {
		return nil, fmt.Errorf("kernel %s: its push constants take %d bytes, more than the %d bytes (maxPushConstantsSize) of %s", k.Name, layout.PushSize, b.info.MaxPushConstantsSize, b.info.Name)
	}
	if layout.Size > gpuabi.MaxArgsSize {
		return nil, fmt.Errorf("kernel %s: its parameters take %d bytes, more than the %d the vulkan backend passes; pass large structs in a slice", k.Name, layout.Size, gpuabi.MaxArgsSize)
	}
	kc := &kernelCode{module: sha256.Sum256(c.SPIRV), name: c.Entry, entry: cString(c.Entry), layout: layout, shared: ep.shared, cells: paramCells(k, layout)}
	if c.EntryFast != "" && c.Facts != nil {
		// The variant only drops code, but check its shared memory as
		// the kernel's: without it the kernel still runs.
		if fep, ok := mod.entries[c.EntryFast]; ok && fep.shared <= b.info.MaxSharedMemory {
			fast := *kc
			fast.name, fast.entry, fast.shared = c.EntryFast, cString(c.EntryFast), fep.shared
			kc.fast = &fast
		}
	}
	if _, ok := b.modules[kc.module]; !ok {
		if len(c.SPIRV)%4 != 0 {
			return nil, fmt.Errorf("kernel %s: its SPIR-V module is %d bytes, not whole words", k.Name, len(c.SPIRV))
		}
		words := make([]uint32, len(c.SPIRV)/4) // 4-byte aligned copy
		for i := range words {
			words[i] = binary.LittleEndian.Uint32(c.SPIRV[4*i:])
		}
		words = dropFloatModes(words, drop)
		if narrow {
			words = narrowBarriers(words, keep)
		}
		ci := &shaderModuleCreateInfo{sType: stShaderModuleCreateInfo, codeSize: uintptr(4 * len(words)), pCode: unsafe.Pointer(&words[0])}
		var sm vkHandle
		if err := call("vkCreateShaderModule", b.l.createShaderModule, uintptr(b.dev), uintptr(unsafe.Pointer(ci)), 0, uintptr(unsafe.Pointer(&sm))); err != nil {
			return nil, fmt.Errorf("kernel %s: loading its SPIR-V module: %w", k.Name, err)
		}
		b.modules[kc.module] = sm
	}
	if _, ok := b.layouts[layout.PushSize]; !ok {
		r := &pushConstantRange{stageFlags: stageCompute, offset: 0, size: uint32(layout.PushSize)}
		ci := &pipelineLayoutCreateInfo{sType: stPipelineLayoutCreateInfo, pushConstantRangeCount: 1, pPushConstantRanges: r}
		var pl vkHandle
		if err := call("vkCreatePipelineLayout", b.l.createPipelineLayout, uintptr(b.dev), uintptr(unsafe.Pointer(ci)), 0, uintptr(unsafe.Pointer(&pl))); err != nil {
			return nil, fmt.Errorf("kernel %s: %w", k.Name, err)
		}
		b.layouts[layout.PushSize] = pl
	}
	b.kernels[c] = kc
	return kc, nil
}

// pipeline returns the compute pipeline of a kernel's entry point kc for a block shape,
// creating it the first time: the workgroup size is given to the module's
// specialization constants 0, 1 and 2 (a kernel with a fixed block= has
// LocalSize instead, and the constants do not affect it).
func (b *Backend) pipeline(k *backend.Kernel, kc *kernelCode, block gpu.Dim3) (vkHandle, error) {
	key := pipeKey{module: kc.module, entry: kc.name, block: block}
	if p, ok := b.pipelines[key]; ok {
		return p, nil
	}
	data := &[3]uint32{uint32(block.X), uint32(block.Y), uint32(block.Z)}
	entries := &[3]specializationMapEntry{{0, 0, 4}, {1, 4, 4}, {2, 8, 4}}
	spec := &specializationInfo{mapEntryCount: 3, pMapEntries: &entries[0], dataSize: 12, pData: unsafe.Pointer(data)}
	ci := &computePipelineCreateInfo{sType: stComputePipelineCreateInfo, flags: b.pipelineCreateFlags(),
		stage: pipelineShaderStageCreateInfo{sType: stPipelineShaderStageInfo, stage: stageCompute,
			module: b.modules[kc.module], pName: kc.entry, pSpecializationInfo: spec},
		layout: b.layouts[kc.layout.PushSize], basePipelineIndex: -1}
	var p vkHandle
	if err := call("vkCreateComputePipelines", b.l.createComputePipelines, uintptr(b.dev), 0, 1, uintptr(unsafe.Pointer(ci)), 0, uintptr(unsafe.Pointer(&p))); err != nil {
		return 0, fmt.Errorf("kernel %s: creating its compute pipeline for block %v on %s: %w (the driver rejected its SPIR-V module, or a function in it: check the module with `gpukvet build -target=spirv -o k.spv PKG` and `spirv-val --target-env vulkan1.2 k.spv`)", k.Name, block, b.info.Name, err)
	}
	b.pipelines[key] = p
	if err := b.writePipelineStats(k, kc, block, p); err != nil {
		return 0, fmt.Errorf("kernel %s: %w", k.Name, err)
	}
	return p, nil
}

// pushLayout is the push-constant layout of k's parameters (gpuabi.LayoutPush).
func pushLayout(k *backend.Kernel) (gpuabi.PushLayout, error) {
	var ps []gpuabi.Param
	for i, t := range k.Params {
		switch {
		case t.Kind() == reflect.Slice:
			ps = append(ps, gpuabi.Param{Kind: gpuabi.Slice})
		case t.Kind() == reflect.Struct:
			ps = append(ps, gpuabi.Param{Kind: gpuabi.Struct, Size: int(t.Size()), Align: t.Align()})
		case backend.ScalarKind(t.Kind()):
			ps = append(ps, gpuabi.Param{Kind: gpuabi.Scalar, Size: int(t.Size()), Align: t.Align()})
		default:
			return gpuabi.PushLayout{}, fmt.Errorf("kernel %s: parameter %d has type %v, which the vulkan backend cannot pass", k.Name, i+1, t)
		}
	}
	return gpuabi.LayoutPush(ps), nil
}

// marshalPush lays out a launch's arguments in the parameter block (the
// push-constant block, or the argument buffer's contents when l.Indirect):
// narrow scalars zero- or sign-extended to 4 bytes, a slice as its buffer's
// device address (0 when empty) and length, a struct as its Go bytes, and
// the trap record's address last.
func marshalPush(k *backend.Kernel, l gpuabi.PushLayout, args []backend.Arg, trap uint64) ([]byte, error) {
	if len(args) != len(k.Params) {
		return nil, fmt.Errorf("kernel %s takes %d arguments, got %d", k.Name, len(k.Params), len(args))
	}
	buf := make([]byte, l.Size)
	le := binary.LittleEndian
	for i, t := range k.Params {
		a, slots := args[i], l.Entry[i]
		at := buf[l.Slots[slots[0]].Offset:]
		switch t.Kind() {
		case reflect.Slice:
			m, err := backend.Own[*memory](a.Mem, "vulkan", fmt.Sprintf("kernel %s, argument %d", k.Name, i+1))
			if err != nil {
				return nil, err
			}
			if m.buf != nil {
				le.PutUint64(at, m.buf.addr)
			}
			le.PutUint64(buf[l.Slots[slots[1]].Offset:], uint64(m.n))
		case reflect.Struct:
			v := reflect.New(t).Elem()
			v.Set(a.Value)
			copy(at, unsafe.Slice((*byte)(v.Addr().UnsafePointer()), t.Size()))
		default:
			putScalar(at, a.Value)
		}
	}
	le.PutUint64(buf[l.Trap.Offset:], trap)
	return buf, nil
}

// putScalar writes v at its size, or as 4 bytes (zero- or sign-extended)
// when it is narrower.
func putScalar(at []byte, v reflect.Value) {
	le := binary.LittleEndian
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			le.PutUint32(at, 1)
		}
	case reflect.Int8, reflect.Int16, reflect.Int32:
		le.PutUint32(at, uint32(int32(v.Int())))
	case reflect.Int, reflect.Int64:
		le.PutUint64(at, uint64(v.Int()))
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		le.PutUint32(at, uint32(v.Uint()))
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		le.PutUint64(at, v.Uint())
	case reflect.Float32:
		le.PutUint32(at, math.Float32bits(float32(v.Float())))
	case reflect.Float64:
		le.PutUint64(at, math.Float64bits(v.Float()))
	}
}
