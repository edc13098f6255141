// Package vulkan is gpukvet's backend for any GPU with a Vulkan 1.2 driver
// (NVIDIA, AMD's RADV and AMDVLK, Intel's ANV, Apple's through MoltenVK) and
// for Mesa's lavapipe, a conformant Vulkan on the CPU that CI runs. It drives
// libvulkan.so.1 through purego, without cgo, so binaries built with
// CGO_ENABLED=0 use a Vulkan GPU wherever there is one.
//
// Every Backend of a process shares one Vulkan loader and VkInstance,
// which outlive the last Close (NVIDIA's driver refused a new instance
// after 30 create/destroy cycles in one process); a Backend owns its
// VkDevice and everything on it, and Close frees them, buffers the program
// did not free included.
//
// Kernels run from the SPIR-V modules that the codegen compiled from their
// Go source (`gpukvet gen` embeds them beside the PTX and registers them as
// backend.Code.SPIRV), built to internal/gpuabi's contract (codegen/ABI.md):
// no descriptor sets; every argument in one parameter block laid out by
// gpuabi.LayoutPush, slices as buffer device addresses
// (PhysicalStorageBuffer64) with their lengths, the trap record's address
// last; the block is the push constants, or, over Vulkan's minimum of 128
// bytes, in an argument buffer whose address is the one push constant
// (each launch gets its own slot). A kernel without a fixed block= gets its workgroup size from
// specialization constants 0, 1 and 2: the backend keeps one pipeline per
// kernel and block shape.
//
// The device: GPUKVET_VULKAN_DEVICE=N picks the N-th physical device in the
// loader's order; otherwise the first discrete GPU, then integrated, virtual,
// and CPU devices (lavapipe) in that order. It must have Vulkan 1.2 and the
// bufferDeviceAddress feature. Buffers live in device-local memory and move
// through a host-visible staging buffer; on a device whose device-local
// memory the host can map (lavapipe, integrated GPUs) they are mapped and
// copied directly.
//
// Launches are asynchronous: Launch records into a command buffer (a
// barrier after all earlier work, the push constants, the dispatch) and
// returns. The command buffer is submitted, with a signal of one timeline
// semaphore, at once unless two earlier submissions are unfinished; then
// further launches are recorded into the same command buffer, up to 64,
// and submitted together by the next launch that finds fewer unfinished,
// by the 64th, or by Sync, Read, Write, Free or a copy, so that a series
// of launches costs a few submissions rather than one each (a launch
// recorded so waits for one of those: a program that launches a long
// series and then computes on the host before its Sync may start the
// series' tail only at the Sync). Sync waits for the semaphore's last
// value. Every launch gets its own 56-byte trap record;
// Sync and Read decode the records of the launches since the last check
// with backend.DecodeTrap and report the first trap, naming the kernel and
// its Go file:line, and the device stays usable.
//
// Benchmarks time dispatches on the GPU with Backend.Time: timestamps
// written before and after each dispatch (vkCmdWriteTimestamp), scaled by
// the device's timestampPeriod, rather than the host clock. With
// GPUKVET_VK_PIPELINE_STATS=<file> set, on a driver with
// VK_KHR_pipeline_executable_properties, every pipeline's executable
// statistics and internal representations (what the driver compiled the
// SPIR-V to) are appended to the file (pipestats.go).
package vulkan

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/internal/gpuabi"
)

const (
	// trapSlots is the number of launches whose trap records are kept
	// between two checks; a launch beyond it checks first.
	trapSlots = 4096
	// stagingSize is the size of the host-visible buffer that Write and
	// Read move data through on a device whose memory the host cannot map.
	stagingSize = 32 << 20
	// maxInFlight is the number of submitted command buffers after which a
	// launch waits for the oldest to finish before recording another.
	maxInFlight = 1024
)

// Info describes the device a Backend runs on.
type Info struct {
	Name          string // e.g. "NVIDIA H200" or "llvmpipe (LLVM 15.0.6, 256 bits)"
	Type          string // "discrete GPU", "integrated GPU", "virtual GPU", "CPU" or "other"
	Index         int    // in the loader's order (GPUKVET_VULKAN_DEVICE)
	APIVersion    string // the device's Vulkan version, e.g. "1.3.230"
	DriverVersion uint32 // vendor-specific encoding
	Unified       bool   // buffers are host-mapped device-local memory
	// Limits the backend checks launches against.
	MaxPushConstantsSize     int
	MaxSharedMemory          int
	MaxWorkGroupInvocations  int
	MaxWorkGroupSize         [3]int
	MaxWorkGroupCount        [3]int
	MaxMemoryAllocationCount int
	// Features lists the optional features (codegen/ABI.md's vocabulary)
	// the device has and the backend enabled.
	Features []string
	// Deviations says where kernels on this device may not compute what
	// Go computes, and why (a float-controls property the device lacks);
	// empty on a device that keeps all of Go's float semantics.
	Deviations []string
}

// Backend is the vulkan backend. Open returns it as a backend.Backend; the
// extra methods (Info, CopyDeviceToDevice) serve tests and benchmarks.
type Backend struct {
	l      *loader
	inst   vkInstance
	phys   vkPhysicalDevice
	dev    vkDevice
	queue  vkQueue
	family uint32
	tsBits uint32 // the queue family's timestampValidBits (timing.go)
	props  physicalDeviceProperties
	mem    physicalDeviceMemoryProperties
	has    map[string]bool // optional features, codegen/ABI.md's names, plus "int64"
	info   Info

	pool      vkHandle
	sem       vkHandle // timeline: submission i signals value i
	submitted uint64   // the last value signalled
	free      []vkCommandBuffer
	inflight  []inflightCB
	open      batch // recorded, not yet submitted (submit.go)

	staging  *vkBuffer // allocated on first use
	trap     *vkBuffer // trapSlots trap records
	args     *vkBuffer // argument blocks of launches since the last wait (args.go)
	argsUsed uint64    // bytes of args handed out
	launched []*backend.Kernel
	pending  error // a trap or failure found early, reported by the next Sync or Read
	timer    timer // Time's timestamps
	// statsPath is the file the pipelines' executable statistics are
	// appended to (GPUKVET_VK_PIPELINE_STATS, pipestats.go); "" when off.
	statsPath string

	modules   map[[32]byte]vkHandle // VkShaderModule per SPIR-V module
	layouts   map[int]vkHandle      // VkPipelineLayout per push-constant size
	pipelines map[pipeKey]vkHandle
	kernels   map[*backend.Code]*kernelCode // checked once per code
	live      map[*memory]bool              // allocations not freed, which Close frees
	closed    bool

	// staged makes data buffers go through the staging buffer even where
	// the host could map them: tests set it to run a discrete GPU's path on
	// lavapipe.
	staged bool
}

type inflightCB struct {
	cb    vkCommandBuffer
	value uint64
}

// Open opens the Vulkan device that GPUKVET_VULKAN_DEVICE numbers, or the
// best one (a discrete GPU first). It fails with a clear error when there is
// no loader, no device, or no device with Vulkan 1.2 and bufferDeviceAddress.
func Open() (backend.Backend, error) {
	b, err := OpenBackend()
	if err != nil {
		return nil, err
	}
	return b, nil
}

// OpenGPU is Open for package device's choice of a backend when
// GPUKVET_DEVICE is unset: it refuses a Vulkan device that runs on the CPU
// (lavapipe), for which gpukvet's cpu backend is the better runner, unless
// GPUKVET_VULKAN_DEVICE chose it.
func OpenGPU() (backend.Backend, error) {
	b, err := OpenBackend()
	if err != nil {
		return nil, err
	}
	if b.props.deviceType == deviceTypeCPU && os.Getenv("GPUKVET_VULKAN_DEVICE") == "" {
		name := b.info.Name
		b.Close()
		return nil, fmt.Errorf("vulkan: the best Vulkan device here, %s, runs on the CPU (GPUKVET_DEVICE=vulkan uses it)", name)
	}
	return b, nil
}

// OpenBackend is Open returning the concrete type.
func OpenBackend() (*Backend, error) {
	path := libName
	if p := os.Getenv("GPUKVET_LIBVULKAN"); p != "" {
		path = p
	}
	choice := -1
	if s := os.Getenv("GPUKVET_VULKAN_DEVICE"); s != "" {
		var err error
		if choice, err = strconv.Atoi(s); err != nil || choice < 0 {
			return nil, fmt.Errorf("vulkan: GPUKVET_VULKAN_DEVICE=%q is not a device number", s)
		}
	}
	l, inst, err := openInstance(path)
	if err != nil {
		return nil, err
	}
	b := &Backend{l: l, inst: inst, modules: map[[32]byte]vkHandle{}, layouts: map[int]vkHandle{},
		pipelines: map[pipeKey]vkHandle{}, kernels: map[*backend.Code]*kernelCode{}, live: map[*memory]bool{}}
	if err := b.setup(choice); err != nil {
		b.destroy()
		return nil, err
	}
	return b, nil
}

// candidate is one physical device the loader lists.
type candidate struct {
	index int
	phys  vkPhysicalDevice
	props physicalDeviceProperties
}

var typeRank = map[uint32]int{deviceTypeDiscrete: 0, deviceTypeIntegrated: 1, deviceTypeVirtual: 2, deviceTypeCPU: 3}

var typeNames = map[uint32]string{deviceTypeDiscrete: "discrete GPU", deviceTypeIntegrated: "integrated GPU", deviceTypeVirtual: "virtual GPU", deviceTypeCPU: "CPU"}

func typeName(t uint32) string {
	if s, ok := typeNames[t]; ok {
		return s
	}
	return "other"
}

func versionString(v uint32) string {
	return fmt.Sprintf("%d.%d.%d", v>>22&0x7f, v>>12&0x3ff, v&0xfff)
}

// setup chooses the physical device and creates the logical device, the
// queue, the command pool, the timeline semaphore and the trap records.
func (b *Backend) setup(choice int) error {
	l := b.l
	var n uint32
	if err := call("vkEnumeratePhysicalDevices", l.enumeratePhysicalDevices, uintptr(b.inst), uintptr(unsafe.Pointer(&n)), 0); err != nil {
		return fmt.Errorf("vulkan: %w", err)
	}
	if n == 0 {
		return errors.New("vulkan: no Vulkan device found (no driver reports one: install a driver, e.g. Mesa's lavapipe with scripts/install-vulkan.sh, or point VK_DRIVER_FILES at a driver's ICD json)")
	}
	physs := make([]vkPhysicalDevice, n)
	if err := call("vkEnumeratePhysicalDevices", l.enumeratePhysicalDevices, uintptr(b.inst), uintptr(unsafe.Pointer(&n)), uintptr(unsafe.Pointer(&physs[0]))); err != nil {
		return fmt.Errorf("vulkan: %w", err)
	}
	var cands []candidate
	for i, p := range physs[:n] {
		c := candidate{index: i, phys: p}
		void(l.getPhysicalDeviceProperties, uintptr(p), uintptr(unsafe.Pointer(&c.props)))
		cands = append(cands, c)
	}
	describe := func(c candidate) string {
		return fmt.Sprintf("%d: %s (%s, Vulkan %s)", c.index, goString(c.props.deviceName[:]), typeName(c.props.deviceType), versionString(c.props.apiVersion))
	}
	var chosen *candidate
	if choice >= 0 {
		if choice >= len(cands) {
			var all []string
			for _, c := range cands {
				all = append(all, describe(c))
			}
			return fmt.Errorf("vulkan: GPUKVET_VULKAN_DEVICE=%d, but the devices are %s", choice, strings.Join(all, "; "))
		}
		chosen = &cands[choice]
		if chosen.props.apiVersion < apiVersion12 {
			return fmt.Errorf("vulkan: device %s has no Vulkan 1.2, which gpukvet's SPIR-V (1.5, buffer device addresses) needs", describe(*chosen))
		}
	} else {
		ok := cands[:0:0]
		var old []string
		for _, c := range cands {
			if c.props.apiVersion < apiVersion12 {
				old = append(old, describe(c))
				continue
			}
			ok = append(ok, c)
		}
		if len(ok) == 0 {
			return fmt.Errorf("vulkan: no device with Vulkan 1.2 (gpukvet's SPIR-V needs it): %s", strings.Join(old, "; "))
		}
		sort.SliceStable(ok, func(i, j int) bool {
			ri, okI := typeRank[ok[i].props.deviceType]
			rj, okJ := typeRank[ok[j].props.deviceType]
			if !okI {
				ri = 9
			}
			if !okJ {
				rj = 9
			}
			return ri < rj
		})
		chosen = &ok[0]
	}
	b.phys, b.props = chosen.phys, chosen.props
	name := describe(*chosen)
	void(l.getPhysicalDeviceMemoryProperties, uintptr(b.phys), uintptr(unsafe.Pointer(&b.mem)))

	// A queue family with compute.
	var nf uint32
	void(l.getPhysicalDeviceQueueFamilyProps, uintptr(b.phys), uintptr(unsafe.Pointer(&nf)), 0)
	fams := make([]queueFamilyProperties, max(nf, 1))
	void(l.getPhysicalDeviceQueueFamilyProps, uintptr(b.phys), uintptr(unsafe.Pointer(&nf)), uintptr(unsafe.Pointer(&fams[0])))
	family := -1
	for i, f := range fams[:nf] {
		if f.queueFlags&queueCompute != 0 && f.queueCount > 0 {
			family = i
			break
		}
	}
	if family < 0 {
		return fmt.Errorf("vulkan: device %s has no compute queue", name)
	}
	b.family, b.tsBits = uint32(family), fams[family].timestampValidBits

	feats, err := b.queryFeatures()
	if err != nil {
		return err
	}
	if feats.v12.b[feat12BufferDeviceAddress] == 0 {
		return fmt.Errorf("vulkan: device %s lacks the bufferDeviceAddress feature, which gpukvet's SPIR-V (PhysicalStorageBuffer64) needs", name)
	}
	if feats.v12.b[feat12TimelineSemaphore] == 0 {
		return fmt.Errorf("vulkan: device %s lacks the timelineSemaphore feature (core in Vulkan 1.2)", name)
	}
	if err := b.createDevice(feats); err != nil {
		return fmt.Errorf("vulkan: device %s: %w", name, err)
	}
	if err := b.l.resolveDevice(b.dev); err != nil {
		return err
	}
	void(l.getDeviceQueue, uintptr(b.dev), uintptr(b.family), 0, uintptr(unsafe.Pointer(&b.queue)))
	if err := b.openPipelineStats(feats); err != nil {
		return err
	}

	pci := &commandPoolCreateInfo{sType: stCommandPoolCreateInfo, flags: poolResetCommandBuf, queueFamilyIndex: b.family}
	if err := call("vkCreateCommandPool", l.createCommandPool, uintptr(b.dev), uintptr(unsafe.Pointer(pci)), 0, uintptr(unsafe.Pointer(&b.pool))); err != nil {
		return fmt.Errorf("vulkan: %w", err)
	}
	tci := &semaphoreTypeCreateInfo{sType: stSemaphoreTypeCreateInfo, semaphoreType: semaphoreTimeline}
	sci := &semaphoreCreateInfo{sType: stSemaphoreCreateInfo, pNext: unsafe.Pointer(tci)}
	if err := call("vkCreateSemaphore", l.createSemaphore, uintptr(b.dev), uintptr(unsafe.Pointer(sci)), 0, uintptr(unsafe.Pointer(&b.sem))); err != nil {
		return fmt.Errorf("vulkan: %w", err)
	}

	lim := &b.props.limits
	b.info = Info{
		Name: goString(b.props.deviceName[:]), Type: typeName(b.props.deviceType), Index: chosen.index,
		APIVersion: versionString(b.props.apiVersion), DriverVersion: b.props.driverVersion,
		MaxPushConstantsSize:     int(lim.maxPushConstantsSize),
		MaxSharedMemory:          int(lim.maxComputeSharedMemorySize),
		MaxWorkGroupInvocations:  int(lim.maxComputeWorkGroupInvocations),
		MaxMemoryAllocationCount: int(lim.maxMemoryAllocationCount),
	}
	for i := range 3 {
		b.info.MaxWorkGroupSize[i] = int(lim.maxComputeWorkGroupSize[i])
		b.info.MaxWorkGroupCount[i] = int(lim.maxComputeWorkGroupCount[i])
	}
	for f, ok := range b.has {
		if ok && f != "int64" {
			b.info.Features = append(b.info.Features, f)
		}
	}
	sort.Strings(b.info.Features)
	b.info.Deviations = slices.Concat(deviations(b.has, b.info.Name), floatModesDeviation(), barrierDeviation())
	b.info.Unified = b.unified()

	if b.trap, err = b.newBuffer(trapSlots*gpuabi.TrapRecordSize, true); err != nil {
		return fmt.Errorf("vulkan: allocating trap records: %w", err)
	}
	return b.zero(b.trap, 0, b.trap.size)
}

// features is what vkGetPhysicalDeviceFeatures2 reports.
type features struct {
	f2                physicalDeviceFeatures2
	v11               physicalDeviceVulkan11Features
	v12               physicalDeviceVulkan12Features
	atomic            physicalDeviceAtomicFloatFeatures
	hasAtomicFloatExt bool
	// VK_KHR_pipeline_executable_properties, queried where the device
	// lists it (pipestats.go).
	pipelineExec       physicalDevicePipelineExecutableFeatures
	hasPipelineExecExt bool
}

const extAtomicFloat = "VK_EXT_shader_atomic_float"

// loopLimitDeviation is the Info().Deviations entry of lavapipe's loop
// limiter, which no flag of the driver turns off.
const loopLimitDeviation = "a loop that runs 65535 or more iterations ends the invocation (lavapipe's loop limiter): the stores after it are not made and no error is reported"

// deviations lists what the device does to Go's semantics: lavapipe's
// loop limiter, and a missing float-controls property that the backend
// lets kernels run without (requested, in kernel.go).
func deviations(has map[string]bool, deviceName string) []string {
	var d []string
	if strings.HasPrefix(deviceName, "llvmpipe") {
		// Measured on Mesa 22.3.6: a counted loop of 65534 iterations
		// gives Go's result; one of 65535 or more ends the invocation
		// without the stores after the loop, and Sync reports success.
		d = append(d, loopLimitDeviation)
	}
	for _, w := range []string{"32", "64"} {
		if w == "64" && !has["float64"] {
			continue
		}
		if !has["shaderDenormPreserveFloat"+w] {
			d = append(d, "float"+w+" subnormal values may be flushed to zero (the device lacks shaderDenormPreserveFloat"+w+
				"): float"+w+" arithmetic, conversions and comparisons may read or give 0 where Go keeps a value below the smallest normal")
		}
	}
	return d
}

func (b *Backend) queryFeatures() (*features, error) {
	l := b.l
	exts, err := b.deviceExtensions()
	if err != nil {
		return nil, err
	}
	f := &features{hasAtomicFloatExt: exts[extAtomicFloat], hasPipelineExecExt: exts[extPipelineExecutable]}
	f.f2.sType, f.v11.sType, f.v12.sType, f.atomic.sType = stPhysicalDeviceFeatures2, stPhysicalDeviceVulkan11Feat, stPhysicalDeviceVulkan12Feat, stAtomicFloatFeaturesEXT
	f.f2.pNext = unsafe.Pointer(&f.v11)
	f.v11.pNext = unsafe.Pointer(&f.v12)
	if f.hasPipelineExecExt {
		f.pipelineExec = physicalDevicePipelineExecutableFeatures{sType: stPipelineExecFeaturesKHR, pNext: f.f2.pNext}
		f.f2.pNext = unsafe.Pointer(&f.pipelineExec)
	}
	if f.hasAtomicFloatExt {
		f.v12.pNext = unsafe.Pointer(&f.atomic)
	}
	void(l.getPhysicalDeviceFeatures2, uintptr(b.phys), uintptr(unsafe.Pointer(&f.f2)))
	core, v11, v12, at := f.f2.features, f.v11.b, f.v12.b, f.atomic.b
	b.has = map[string]bool{
		"int64":                        core[featShaderInt64] != 0,
		"float64":                      core[featShaderFloat64] != 0,
		"int16":                        core[featShaderInt16] != 0,
		"int8":                         v12[feat12ShaderInt8] != 0,
		"storageBuffer8BitAccess":      v12[feat12StorageBuffer8BitAccess] != 0,
		"storageBuffer16BitAccess":     v11[feat11StorageBuffer16BitAccess] != 0,
		"shaderBufferInt64Atomics":     v12[feat12ShaderBufferInt64Atomics] != 0,
		"shaderSharedInt64Atomics":     v12[feat12ShaderSharedInt64Atomics] != 0,
		"shaderBufferFloat32AtomicAdd": f.hasAtomicFloatExt && at[featAtomicBufferFloat32Add] != 0,
		"shaderBufferFloat64AtomicAdd": f.hasAtomicFloatExt && at[featAtomicBufferFloat64Add] != 0,
		"shaderSharedFloat32AtomicAdd": f.hasAtomicFloatExt && at[featAtomicSharedFloat32Add] != 0,
		"shaderSharedFloat64AtomicAdd": f.hasAtomicFloatExt && at[featAtomicSharedFloat64Add] != 0,
	}
	// The float-controls properties (Vulkan 1.2) behind the execution
	// modes that give kernels Go's IEEE semantics (codegen/ABI.md).
	p12 := &physicalDeviceVulkan12Properties{sType: stPhysicalDeviceVulkan12Prop}
	p2 := &physicalDeviceProperties2{sType: stPhysicalDeviceProperties2, pNext: unsafe.Pointer(p12)}
	void(l.getPhysicalDeviceProperties2, uintptr(b.phys), uintptr(unsafe.Pointer(p2)))
	fc := p12.floatControls
	for name, i := range map[string]int{
		"shaderSignedZeroInfNanPreserveFloat32": prop12SignedZeroInfNanPreserveFloat32,
		"shaderSignedZeroInfNanPreserveFloat64": prop12SignedZeroInfNanPreserveFloat64,
		"shaderDenormPreserveFloat32":           prop12DenormPreserveFloat32,
		"shaderDenormPreserveFloat64":           prop12DenormPreserveFloat64,
		"shaderRoundingModeRTEFloat32":          prop12RoundingModeRTEFloat32,
		"shaderRoundingModeRTEFloat64":          prop12RoundingModeRTEFloat64,
	} {
		b.has[name] = fc[i] != 0
	}
	return f, nil
}

func (b *Backend) deviceExtensions() (map[string]bool, error) {
	l := b.l
	var n uint32
	if err := call("vkEnumerateDeviceExtensionProperties", l.enumerateDeviceExtensionProperties, uintptr(b.phys), 0, uintptr(unsafe.Pointer(&n)), 0); err != nil {
		return nil, fmt.Errorf("vulkan: %w", err)
	}
	exts := map[string]bool{}
	if n == 0 {
		return exts, nil
	}
	props := make([]extensionProperties, n)
	if _, err := callResult("vkEnumerateDeviceExtensionProperties", l.enumerateDeviceExtensionProperties, uintptr(b.phys), 0, uintptr(unsafe.Pointer(&n)), uintptr(unsafe.Pointer(&props[0]))); err != nil {
		return nil, fmt.Errorf("vulkan: %w", err)
	}
	for _, p := range props[:n] {
		exts[goString(p.extensionName[:])] = true
	}
	return exts, nil
}

// createDevice creates the logical device with one compute queue and every
// optional feature gpukvet's SPIR-V may use that the device has: the
// features structs as queried, with the ones the backend never wants
// (robustness, which costs speed, and the rest) cleared.
func (b *Backend) createDevice(q *features) error {
	en := &features{}
	en.f2.sType, en.v11.sType, en.v12.sType, en.atomic.sType = stPhysicalDeviceFeatures2, stPhysicalDeviceVulkan11Feat, stPhysicalDeviceVulkan12Feat, stAtomicFloatFeaturesEXT
	for _, i := range []int{featShaderFloat64, featShaderInt64, featShaderInt16} {
		en.f2.features[i] = q.f2.features[i]
	}
	en.v11.b[feat11StorageBuffer16BitAccess] = q.v11.b[feat11StorageBuffer16BitAccess]
	for _, i := range []int{feat12StorageBuffer8BitAccess, feat12ShaderBufferInt64Atomics, feat12ShaderSharedInt64Atomics,
		feat12ShaderInt8, feat12TimelineSemaphore, feat12BufferDeviceAddress, feat12VulkanMemoryModel, feat12VulkanMemoryModelDeviceScope} {
		en.v12.b[i] = q.v12.b[i]
	}
	en.f2.pNext = unsafe.Pointer(&en.v11)
	en.v11.pNext = unsafe.Pointer(&en.v12)
	var extNames []*byte
	if q.hasAtomicFloatExt {
		for _, i := range []int{featAtomicBufferFloat32Add, featAtomicBufferFloat64Add, featAtomicSharedFloat32Add, featAtomicSharedFloat64Add,
			featAtomicBufferFloat32Add - 1, featAtomicBufferFloat64Add - 1, featAtomicSharedFloat32Add - 1, featAtomicSharedFloat64Add - 1} {
			en.atomic.b[i] = q.atomic.b[i] // the ...Atomics (load/store/exchange) and ...AtomicAdd pairs
		}
		en.v12.pNext = unsafe.Pointer(&en.atomic)
		extNames = append(extNames, cString(extAtomicFloat))
	}
	if wantPipelineStats(q) {
		en.pipelineExec = physicalDevicePipelineExecutableFeatures{sType: stPipelineExecFeaturesKHR, pNext: en.f2.pNext, pipelineExecutableInfo: 1}
		en.f2.pNext = unsafe.Pointer(&en.pipelineExec)
		extNames = append(extNames, cString(extPipelineExecutable))
	}
	prio := new(float32)
	*prio = 1
	qci := &deviceQueueCreateInfo{sType: stDeviceQueueCreateInfo, pNext: nil, flags: 0, queueFamilyIndex: b.family, queueCount: 1, pQueuePriorities: prio}
	dci := &deviceCreateInfo{sType: stDeviceCreateInfo, pNext: unsafe.Pointer(&en.f2), queueCreateInfoCount: 1, pQueueCreateInfos: qci}
	if len(extNames) > 0 {
		dci.enabledExtensionCount = uint32(len(extNames))
		dci.ppEnabledExtensionNames = unsafe.Pointer(&extNames[0])
	}
	if err := call("vkCreateDevice", b.l.createDevice, uintptr(b.phys), uintptr(unsafe.Pointer(dci)), 0, uintptr(unsafe.Pointer(&b.dev))); err != nil {
		return fmt.Errorf("creating the logical device: %w", err)
	}
	return nil
}

// Name returns "vulkan".
func (b *Backend) Name() string { return "vulkan" }

// Info describes the device.
func (b *Backend) Info() Info { return b.info }

// memory is one allocation handed to package device.
type memory struct {
	buf   *vkBuffer // nil for an empty allocation
	n     int
	size  int
	elem  reflect.Type
	freed bool
}

func (m *memory) Len() int { return m.n }

// Alloc returns n zeroed elements of type elem.
func (b *Backend) Alloc(elem reflect.Type, n int) (backend.Memory, error) {
	size := int(elem.Size()) * n
	if n > 0 && size/n != int(elem.Size()) {
		return nil, fmt.Errorf("vulkan: %d elements of %v overflow the address space", n, elem)
	}
	m := &memory{n: n, size: size, elem: elem}
	if size == 0 {
		return m, nil
	}
	buf, err := b.newBuffer(uint64(size), false)
	if err != nil {
		return nil, err
	}
	if err := b.zero(buf, 0, buf.size); err != nil {
		b.destroyBuffer(buf)
		return nil, err
	}
	m.buf = buf
	b.live[m] = true
	return m, nil
}

func (b *Backend) memOf(m backend.Memory, op string) (*memory, error) {
	return backend.Own[*memory](m, "vulkan", op)
}

// Freed reports whether m was freed (backend.Owned).
func (m *memory) Freed() bool { return m.freed }

// Write copies src, a slice of dst's element type and length, to the device.
// It waits for its own copy (and so for the work launched before it).
func (b *Backend) Write(dst backend.Memory, src reflect.Value) error {
	m, err := b.memOf(dst, "Write")
	if err != nil {
		return err
	}
	if src.Kind() != reflect.Slice || src.Len() != m.n {
		return fmt.Errorf("vulkan: Write of %v into %d elements", src.Type(), m.n)
	}
	if m.size == 0 {
		return nil
	}
	host := unsafe.Slice((*byte)(src.UnsafePointer()), m.size)
	return b.upload(m.buf, host)
}

// Read waits for launched work, reports its first trap, and otherwise copies
// the device memory into dst.
func (b *Backend) Read(dst reflect.Value, src backend.Memory) error {
	m, err := b.memOf(src, "Read")
	if err != nil {
		return err
	}
	if dst.Kind() != reflect.Slice || dst.Len() != m.n {
		return fmt.Errorf("vulkan: Read of %d elements into %v", m.n, dst.Type())
	}
	if err := b.Sync(); err != nil {
		return err
	}
	if m.size == 0 {
		return nil
	}
	host := unsafe.Slice((*byte)(dst.UnsafePointer()), m.size)
	return b.download(host, m.buf, 0)
}

// Free releases device memory, after the work that may use it.
func (b *Backend) Free(mem backend.Memory) error {
	m, err := b.memOf(mem, "Free")
	if err != nil {
		return err
	}
	m.freed = true
	if m.buf == nil {
		return nil
	}
	if err := b.waitIdle(); err != nil {
		return err
	}
	delete(b.live, m)
	b.destroyBuffer(m.buf)
	return nil
}

// CopyDeviceToDevice copies src into dst (same size) with vkCmdCopyBuffer;
// benchmarks use it to measure the device's copy bandwidth. It is
// asynchronous like a launch.
func (b *Backend) CopyDeviceToDevice(dst, src backend.Memory) error {
	md, err := b.memOf(dst, "CopyDeviceToDevice")
	if err != nil {
		return err
	}
	ms, err := b.memOf(src, "CopyDeviceToDevice")
	if err != nil {
		return err
	}
	if md.size != ms.size {
		return fmt.Errorf("vulkan: CopyDeviceToDevice of %d bytes into %d", ms.size, md.size)
	}
	if ms.size == 0 {
		return nil
	}
	return b.submit(func(cb vkCommandBuffer) {
		region := &bufferCopy{size: uint64(ms.size)}
		void(b.l.cmdCopyBuffer, uintptr(cb), uintptr(ms.buf.buf), uintptr(md.buf.buf), 1, uintptr(unsafe.Pointer(region)))
	})
}

// Launch checks k against the device (its SPIR-V, features, shared memory,
// push-constant size, shape limits), then records and submits its dispatch
// and returns without waiting for it.
func (b *Backend) Launch(k *backend.Kernel, grid, block gpu.Dim3, args []backend.Arg) error {
	if b.closed {
		return errors.New("vulkan: the device is closed")
	}
	kc, err := b.kernel(k)
	if err != nil {
		return err
	}
	g, bl := extent(grid), extent(block)
	if err := b.checkShape(k, g, bl); err != nil {
		return err
	}
	if len(b.launched) == trapSlots {
		// Out of trap records: check the ones in use now, keeping a trap
		// for the next Sync (Launch never reports a trap).
		if err := b.syncLocked(); err != nil && b.pending == nil {
			b.pending = err
		}
	}
	trapAddr := b.trap.addr + uint64(len(b.launched)*gpuabi.TrapRecordSize)
	push, err := marshalPush(k, kc.layout, args, trapAddr)
	if err != nil {
		return err
	}
	pipe, err := b.pipeline(k, choose(k, kc, push, g, bl), bl)
	if err != nil {
		return err
	}
	var argBlock []byte // a parameter block for the argument buffer
	var blockOff uint64
	if kc.layout.Indirect {
		if blockOff, err = b.argsSlot(len(push)); err != nil {
			return fmt.Errorf("vulkan: launching kernel %s: %w", k.Name, err)
		}
		if !b.writeArgs(blockOff, push) {
			argBlock = push
		}
		push = binary.LittleEndian.AppendUint64(nil, b.args.addr+blockOff)
	}
	layout := b.layouts[kc.layout.PushSize]
	err = b.record(func(cb vkCommandBuffer) {
		l := b.l
		if argBlock != nil {
			b.writeArgsCmd(cb, blockOff, argBlock)
		}
		void(l.cmdBindPipeline, uintptr(cb), bindPointCompute, uintptr(pipe))
		void(l.cmdPushConstants, uintptr(cb), uintptr(layout), stageCompute, 0, uintptr(len(push)), uintptr(unsafe.Pointer(&push[0])))
		q := b.stampDispatch(cb)
		void(l.cmdDispatch, uintptr(cb), uintptr(g.X), uintptr(g.Y), uintptr(g.Z))
		b.stampDone(cb, q)
	})
	if err != nil {
		return fmt.Errorf("vulkan: launching kernel %s with grid %v block %v: %w", k.Name, grid, block, err)
	}
	// Recorded, it owns its trap record whether or not it is submitted.
	b.launched = append(b.launched, k)
	if err := b.submitLaunches(); err != nil {
		return fmt.Errorf("vulkan: launching kernel %s with grid %v block %v: %w", k.Name, grid, block, err)
	}
	return nil
}

// submitLaunches submits the open command buffer of launches unless the
// queue has two or more unfinished submissions (and the buffer is not
// full): then the launches wait in it for the next Launch, Sync, Read,
// Write or Free to submit them together. Two, not one, so that the GPU
// still has a whole submission to run while the host comes back: a
// program that launches one kernel between stretches of host work keeps
// the GPU as busy as with a submission per launch.
func (b *Backend) submitLaunches() error {
	if b.open.n < maxBatch {
		if n, err := b.unfinished(); n >= 2 || err != nil {
			return err
		}
	}
	return b.submitBatch()
}

// LaunchChoice reports whether Launch would start, for these arguments and
// shape, k's variant compiled assuming its launch facts
// (backend.Code.EntryFast; codegen/ABI.md, "Launch facts") rather than its
// entry point: the facts hold and the SPIR-V module has the variant.
func (b *Backend) LaunchChoice(k *backend.Kernel, grid, block gpu.Dim3, args []backend.Arg) (fast bool, err error) {
	if b.closed {
		return false, errors.New("vulkan: the device is closed")
	}
	kc, err := b.kernel(k)
	if err != nil {
		return false, err
	}
	push, err := marshalPush(k, kc.layout, args, 0)
	if err != nil {
		return false, err
	}
	return choose(k, kc, push, extent(grid), extent(block)) != kc, nil
}

func extent(d gpu.Dim3) gpu.Dim3 {
	one := func(v int) int { return max(v, 1) }
	return gpu.Dim3{X: one(d.X), Y: one(d.Y), Z: one(d.Z)}
}

// checkShape checks a launch's grid and block against the device's limits.
func (b *Backend) checkShape(k *backend.Kernel, g, bl gpu.Dim3) error {
	in := b.info
	gs, bs := [3]int{g.X, g.Y, g.Z}, [3]int{bl.X, bl.Y, bl.Z}
	for i, axis := range []string{"X", "Y", "Z"} {
		if bs[i] > in.MaxWorkGroupSize[i] {
			return fmt.Errorf("kernel %s: block %v: %s = %d exceeds the device's maxComputeWorkGroupSize[%d] = %d (%s)", k.Name, bl, axis, bs[i], i, in.MaxWorkGroupSize[i], in.Name)
		}
		if gs[i] > in.MaxWorkGroupCount[i] {
			return fmt.Errorf("kernel %s: grid %v: %s = %d exceeds the device's maxComputeWorkGroupCount[%d] = %d (%s)", k.Name, g, axis, gs[i], i, in.MaxWorkGroupCount[i], in.Name)
		}
	}
	if t := bl.X * bl.Y * bl.Z; t > in.MaxWorkGroupInvocations {
		return fmt.Errorf("kernel %s: block %v has %d threads, more than the device's maxComputeWorkGroupInvocations = %d (%s)", k.Name, bl, t, in.MaxWorkGroupInvocations, in.Name)
	}
	return nil
}

// Sync waits for every launched kernel and returns the first trap.
func (b *Backend) Sync() error {
	if b.closed {
		return errors.New("vulkan: the device is closed")
	}
	return b.syncLocked()
}

// syncLocked waits for the device, then reads and clears the trap records of
// the launches since the last check.
func (b *Backend) syncLocked() error {
	if err := b.waitIdle(); err != nil {
		if len(b.launched) > 0 {
			return fmt.Errorf("vulkan: a kernel failed (last launched: %s); the device may be unusable now: %w", b.launched[len(b.launched)-1].Name, err)
		}
		return fmt.Errorf("vulkan: %w", err)
	}
	var first error
	if n := len(b.launched); n > 0 {
		recs := make([]byte, n*gpuabi.TrapRecordSize)
		if err := b.download(recs, b.trap, 0); err != nil {
			return fmt.Errorf("vulkan: reading trap records: %w", err)
		}
		trapped := false
		for i, k := range b.launched {
			if err := backend.DecodeTrap(recs[i*gpuabi.TrapRecordSize:(i+1)*gpuabi.TrapRecordSize], k); err != nil {
				trapped = true
				if first == nil {
					first = err
				}
			}
		}
		if trapped {
			if err := b.zero(b.trap, 0, uint64(len(recs))); err != nil {
				return fmt.Errorf("vulkan: clearing trap records: %w", err)
			}
			if err := b.waitIdle(); err != nil {
				return fmt.Errorf("vulkan: clearing trap records: %w", err)
			}
		}
		b.launched = b.launched[:0]
	}
	b.argsUsed = 0 // every launch is done: the argument buffer is free
	if b.pending != nil {
		first, b.pending = b.pending, nil
	}
	return first
}

// Close waits for launched work and releases every Vulkan object.
func (b *Backend) Close() error {
	if b.closed {
		return errors.New("vulkan: Close of a closed device")
	}
	err := b.syncLocked()
	b.closed = true
	b.destroy()
	return err
}

// destroy releases what setup created (any part of it) and the
// allocations not freed; the instance is the process's (instance.go).
func (b *Backend) destroy() {
	l := b.l
	if b.dev != 0 {
		if l.deviceWaitIdle != 0 {
			call("vkDeviceWaitIdle", l.deviceWaitIdle, uintptr(b.dev))
		}
		for _, p := range b.pipelines {
			void(l.destroyPipeline, uintptr(b.dev), uintptr(p), 0)
		}
		for _, pl := range b.layouts {
			void(l.destroyPipelineLayout, uintptr(b.dev), uintptr(pl), 0)
		}
		for _, m := range b.modules {
			void(l.destroyShaderModule, uintptr(b.dev), uintptr(m), 0)
		}
		// Allocations the program did not free: a device's memory
		// does not outlive it (nor, for lavapipe, its host memory).
		for m := range b.live {
			b.destroyBuffer(m.buf)
			m.freed = true
		}
		b.live = nil
		for _, buf := range []*vkBuffer{b.trap, b.staging, b.args} {
			if buf != nil {
				b.destroyBuffer(buf)
			}
		}
		if b.timer.pool != 0 {
			void(l.destroyQueryPool, uintptr(b.dev), uintptr(b.timer.pool), 0)
		}
		if b.sem != 0 {
			void(l.destroySemaphore, uintptr(b.dev), uintptr(b.sem), 0)
		}
		if b.pool != 0 {
			void(l.destroyCmdPool, uintptr(b.dev), uintptr(b.pool), 0)
		}
		if l.destroyDevice != 0 {
			void(l.destroyDevice, uintptr(b.dev), 0)
		}
		b.dev = 0
	}
}
