package vulkan

// This file is the binding layer: the Vulkan entry points the backend uses,
// resolved from libvulkan.so.1 with purego (no cgo), and the C structures
// they take, laid out by hand. Each Go struct below mirrors its C namesake
// field for field; Go pads uint32/uint64/pointer fields exactly as the C ABI
// of linux/amd64 and linux/arm64 does, and vk_test.go checks every size and
// the offsets the backend reads against the values vulkan_core.h gives.
// Pointers inside structs are unsafe.Pointer (never uintptr) so that the
// garbage collector keeps what they point to alive while the struct is.

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Handles: dispatchable ones are pointers, non-dispatchable ones 64-bit
// integers; both are 8 bytes on the 64-bit platforms purego supports.
type (
	vkInstance       uintptr
	vkPhysicalDevice uintptr
	vkDevice         uintptr
	vkQueue          uintptr
	vkCommandBuffer  uintptr
	vkHandle         uint64 // buffers, memory, pipelines, layouts, ...
)

// VkResult values the backend names.
const (
	vkSuccess                  = 0
	vkNotReady                 = 1
	vkTimeout                  = 2
	vkIncomplete               = 5
	vkErrOutOfHostMemory       = -1
	vkErrOutOfDeviceMemory     = -2
	vkErrInitializationFailed  = -3
	vkErrDeviceLost            = -4
	vkErrMemoryMapFailed       = -5
	vkErrExtensionNotPresent   = -7
	vkErrFeatureNotPresent     = -8
	vkErrIncompatibleDriver    = -9
	vkErrTooManyObjects        = -10
	vkErrUnknown               = -13
	vkErrInvalidShaderNV       = -1000012000
	vkErrOutOfPoolMemory       = -1000069000
	vkErrInvalidOpaqueCaptAddr = -1000257000
)

var resultNames = map[int32]string{
	vkNotReady: "VK_NOT_READY", vkTimeout: "VK_TIMEOUT", vkIncomplete: "VK_INCOMPLETE",
	vkErrOutOfHostMemory: "VK_ERROR_OUT_OF_HOST_MEMORY", vkErrOutOfDeviceMemory: "VK_ERROR_OUT_OF_DEVICE_MEMORY",
	vkErrInitializationFailed: "VK_ERROR_INITIALIZATION_FAILED", vkErrDeviceLost: "VK_ERROR_DEVICE_LOST",
	vkErrMemoryMapFailed: "VK_ERROR_MEMORY_MAP_FAILED", vkErrExtensionNotPresent: "VK_ERROR_EXTENSION_NOT_PRESENT",
	vkErrFeatureNotPresent: "VK_ERROR_FEATURE_NOT_PRESENT", vkErrIncompatibleDriver: "VK_ERROR_INCOMPATIBLE_DRIVER",
	vkErrTooManyObjects: "VK_ERROR_TOO_MANY_OBJECTS", vkErrUnknown: "VK_ERROR_UNKNOWN",
	vkErrInvalidShaderNV: "VK_ERROR_INVALID_SHADER_NV", vkErrOutOfPoolMemory: "VK_ERROR_OUT_OF_POOL_MEMORY",
	vkErrInvalidOpaqueCaptAddr: "VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS",
}

// Error is a failed Vulkan call.
type Error struct {
	Call   string // the entry point, e.g. "vkAllocateMemory"
	Result int32  // the VkResult
}

func (e *Error) Error() string {
	name, ok := resultNames[e.Result]
	if !ok {
		name = fmt.Sprintf("VkResult %d", e.Result)
	}
	return fmt.Sprintf("%s: %s", e.Call, name)
}

// isResult reports whether err is a Vulkan error with the given VkResult.
func isResult(err error, r int32) bool {
	var e *Error
	return errors.As(err, &e) && e.Result == r
}

// VkStructureType values.
const (
	stApplicationInfo            = 0
	stInstanceCreateInfo         = 1
	stDeviceQueueCreateInfo      = 2
	stDeviceCreateInfo           = 3
	stSubmitInfo                 = 4
	stMemoryAllocateInfo         = 5
	stQueryPoolCreateInfo        = 11
	stSemaphoreCreateInfo        = 9
	stBufferCreateInfo           = 12
	stShaderModuleCreateInfo     = 16
	stPipelineShaderStageInfo    = 18
	stComputePipelineCreateInfo  = 29
	stPipelineLayoutCreateInfo   = 30
	stCommandPoolCreateInfo      = 39
	stCommandBufferAllocateInfo  = 40
	stCommandBufferBeginInfo     = 42
	stMemoryBarrier              = 46
	stPhysicalDeviceVulkan11Feat = 49
	stPhysicalDeviceVulkan12Feat = 51
	stPhysicalDeviceVulkan12Prop = 52
	stPhysicalDeviceFeatures2    = 1000059000
	stPhysicalDeviceProperties2  = 1000059001
	stMemoryAllocateFlagsInfo    = 1000060000
	stSemaphoreTypeCreateInfo    = 1000207002
	stTimelineSemaphoreSubmit    = 1000207003
	stSemaphoreWaitInfo          = 1000207004
	stBufferDeviceAddressInfo    = 1000244001
	stAtomicFloatFeaturesEXT     = 1000260000
	stPipelineExecFeaturesKHR    = 1000269000
	stPipelineInfoKHR            = 1000269001
	stPipelineExecPropsKHR       = 1000269002
	stPipelineExecInfoKHR        = 1000269003
	stPipelineExecStatisticKHR   = 1000269004
	stPipelineExecInternalKHR    = 1000269005
)

// Flags and enums.
const (
	apiVersion12 = 1<<22 | 2<<12 // VK_API_VERSION_1_2

	queueCompute = 0x2

	deviceTypeIntegrated = 1
	deviceTypeDiscrete   = 2
	deviceTypeVirtual    = 3
	deviceTypeCPU        = 4

	memDeviceLocal  = 0x1
	memHostVisible  = 0x2
	memHostCoherent = 0x4
	memHostCached   = 0x8
	heapDeviceLocal = 0x1

	memAllocateDeviceAddress = 0x2

	bufTransferSrc   = 0x1
	bufTransferDst   = 0x2
	bufStorage       = 0x20
	bufDeviceAddress = 0x20000

	stageCompute        = 0x20 // VK_SHADER_STAGE_COMPUTE_BIT
	bindPointCompute    = 1
	poolResetCommandBuf = 0x2
	cmdOneTimeSubmit    = 0x1
	semaphoreTimeline   = 1

	pipeComputeShader = 0x800
	pipeTransfer      = 0x1000
	pipeBottomOfPipe  = 0x2000
	pipeHost          = 0x4000
	pipeAllCommands   = 0x10000

	accShaderRead    = 0x20
	accShaderWrite   = 0x40
	accTransferRead  = 0x800
	accTransferWrite = 0x1000
	accHostRead      = 0x2000
	accHostWrite     = 0x4000

	queryTypeTimestamp = 2

	pipeCaptureStatistics = 0x40 // VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR
	pipeCaptureInternal   = 0x80 // VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR

	statBool32    = 0 // VkPipelineExecutableStatisticFormatKHR
	statInt64     = 1
	statUint64    = 2
	statFloat64   = 3
	queryResult64 = 0x1
)

type applicationInfo struct {
	sType              uint32
	pNext              unsafe.Pointer
	pApplicationName   *byte
	applicationVersion uint32
	pEngineName        *byte
	engineVersion      uint32
	apiVersion         uint32
}

type instanceCreateInfo struct {
	sType                   uint32
	pNext                   unsafe.Pointer
	flags                   uint32
	pApplicationInfo        *applicationInfo
	enabledLayerCount       uint32
	ppEnabledLayerNames     unsafe.Pointer
	enabledExtensionCount   uint32
	ppEnabledExtensionNames unsafe.Pointer
}

// physicalDeviceLimits keeps the limits the backend checks; the runs of
// fields it does not read are blank arrays of the same size.
type physicalDeviceLimits struct {
	_                              [8]uint32 // maxImageDimension1D … maxStorageBufferRange
	maxPushConstantsSize           uint32
	maxMemoryAllocationCount       uint32
	_                              uint32    // maxSamplerAllocationCount
	_                              [2]uint64 // bufferImageGranularity, sparseAddressSpaceSize
	_                              [38]uint32
	maxComputeSharedMemorySize     uint32
	maxComputeWorkGroupCount       [3]uint32
	maxComputeWorkGroupInvocations uint32
	maxComputeWorkGroupSize        [3]uint32
	_                              [44]uint32 // subPixelPrecisionBits … maxSampleMaskWords, timestampComputeAndGraphics
	timestampPeriod                float32
	_                              [19]uint32 // maxClipDistances … nonCoherentAtomSize
}

type physicalDeviceProperties struct {
	apiVersion        uint32
	driverVersion     uint32
	vendorID          uint32
	deviceID          uint32
	deviceType        uint32
	deviceName        [256]byte
	pipelineCacheUUID [16]byte
	limits            physicalDeviceLimits
	_                 [5]uint32 // sparseProperties
}

// VkPhysicalDeviceProperties2, chained to VkPhysicalDeviceVulkan12Properties
// for the float-controls properties.
type physicalDeviceProperties2 struct {
	sType      uint32
	pNext      unsafe.Pointer
	properties physicalDeviceProperties
}

// Indices into VkPhysicalDeviceVulkan12Properties' float-controls booleans
// (its fields from shaderSignedZeroInfNanPreserveFloat16 on, in order).
const (
	prop12SignedZeroInfNanPreserveFloat32 = 1
	prop12SignedZeroInfNanPreserveFloat64 = 2
	prop12DenormPreserveFloat32           = 4
	prop12DenormPreserveFloat64           = 5
	prop12RoundingModeRTEFloat32          = 10
	prop12RoundingModeRTEFloat64          = 11
)

type physicalDeviceVulkan12Properties struct {
	sType                      uint32
	pNext                      unsafe.Pointer
	driverID                   uint32
	driverName                 [256]byte
	driverInfo                 [256]byte
	conformanceVersion         [4]uint8
	denormBehaviorIndependence uint32
	roundingModeIndependence   uint32
	floatControls              [15]uint32
	// The descriptor-indexing, resolve and timeline-semaphore limits that
	// follow (unread; room to spare for the driver to write them).
	_ [64]uint64
}

// Indices into VkPhysicalDeviceFeatures (55 VkBool32s).
const (
	featShaderFloat64 = 39
	featShaderInt64   = 40
	featShaderInt16   = 41
)

type physicalDeviceFeatures2 struct {
	sType    uint32
	pNext    unsafe.Pointer
	features [55]uint32
}

// Indices into VkPhysicalDeviceVulkan11Features' booleans.
const feat11StorageBuffer16BitAccess = 0

type physicalDeviceVulkan11Features struct {
	sType uint32
	pNext unsafe.Pointer
	b     [12]uint32
}

// Indices into VkPhysicalDeviceVulkan12Features' booleans.
const (
	feat12StorageBuffer8BitAccess      = 2
	feat12ShaderBufferInt64Atomics     = 5
	feat12ShaderSharedInt64Atomics     = 6
	feat12ShaderInt8                   = 8
	feat12TimelineSemaphore            = 37
	feat12BufferDeviceAddress          = 38
	feat12VulkanMemoryModel            = 41
	feat12VulkanMemoryModelDeviceScope = 42
)

type physicalDeviceVulkan12Features struct {
	sType uint32
	pNext unsafe.Pointer
	b     [47]uint32
}

// Indices into VkPhysicalDeviceShaderAtomicFloatFeaturesEXT's booleans.
const (
	featAtomicBufferFloat32Add = 1
	featAtomicBufferFloat64Add = 3
	featAtomicSharedFloat32Add = 5
	featAtomicSharedFloat64Add = 7
)

type physicalDeviceAtomicFloatFeatures struct {
	sType uint32
	pNext unsafe.Pointer
	b     [12]uint32
}

// VK_KHR_pipeline_executable_properties (pipestats.go).
type (
	physicalDevicePipelineExecutableFeatures struct {
		sType                  uint32
		pNext                  unsafe.Pointer
		pipelineExecutableInfo uint32
	}
	pipelineInfo struct {
		sType    uint32
		pNext    unsafe.Pointer
		pipeline vkHandle
	}
	pipelineExecutableProperties struct {
		sType        uint32
		pNext        unsafe.Pointer
		stages       uint32
		name         [256]byte
		description  [256]byte
		subgroupSize uint32
	}
	pipelineExecutableInfo struct {
		sType           uint32
		pNext           unsafe.Pointer
		pipeline        vkHandle
		executableIndex uint32
	}
	pipelineExecutableStatistic struct {
		sType       uint32
		pNext       unsafe.Pointer
		name        [256]byte
		description [256]byte
		format      uint32
		value       uint64 // a union: VkBool32, int64, uint64 or double by format
	}
	pipelineExecutableInternalRepresentation struct {
		sType       uint32
		pNext       unsafe.Pointer
		name        [256]byte
		description [256]byte
		isText      uint32
		dataSize    uintptr
		pData       unsafe.Pointer
	}
)

type queueFamilyProperties struct {
	queueFlags                  uint32
	queueCount                  uint32
	timestampValidBits          uint32
	minImageTransferGranularity [3]uint32
}

type memoryType struct{ propertyFlags, heapIndex uint32 }

type memoryHeap struct {
	size  uint64
	flags uint32
}

type physicalDeviceMemoryProperties struct {
	memoryTypeCount uint32
	memoryTypes     [32]memoryType
	memoryHeapCount uint32
	memoryHeaps     [16]memoryHeap
}

type extensionProperties struct {
	extensionName [256]byte
	specVersion   uint32
}

type deviceQueueCreateInfo struct {
	sType            uint32
	pNext            unsafe.Pointer
	flags            uint32
	queueFamilyIndex uint32
	queueCount       uint32
	pQueuePriorities *float32
}

type deviceCreateInfo struct {
	sType                   uint32
	pNext                   unsafe.Pointer
	flags                   uint32
	queueCreateInfoCount    uint32
	pQueueCreateInfos       *deviceQueueCreateInfo
	enabledLayerCount       uint32
	ppEnabledLayerNames     unsafe.Pointer
	enabledExtensionCount   uint32
	ppEnabledExtensionNames unsafe.Pointer
	pEnabledFeatures        unsafe.Pointer
}

type bufferCreateInfo struct {
	sType                 uint32
	pNext                 unsafe.Pointer
	flags                 uint32
	size                  uint64
	usage                 uint32
	sharingMode           uint32
	queueFamilyIndexCount uint32
	pQueueFamilyIndices   unsafe.Pointer
}

type memoryRequirements struct {
	size, alignment uint64
	memoryTypeBits  uint32
}

type memoryAllocateInfo struct {
	sType           uint32
	pNext           unsafe.Pointer
	allocationSize  uint64
	memoryTypeIndex uint32
}

type memoryAllocateFlagsInfo struct {
	sType      uint32
	pNext      unsafe.Pointer
	flags      uint32
	deviceMask uint32
}

type bufferDeviceAddressInfo struct {
	sType  uint32
	pNext  unsafe.Pointer
	buffer vkHandle
}

type shaderModuleCreateInfo struct {
	sType    uint32
	pNext    unsafe.Pointer
	flags    uint32
	codeSize uintptr
	pCode    unsafe.Pointer
}

type pushConstantRange struct{ stageFlags, offset, size uint32 }

type pipelineLayoutCreateInfo struct {
	sType                  uint32
	pNext                  unsafe.Pointer
	flags                  uint32
	setLayoutCount         uint32
	pSetLayouts            unsafe.Pointer
	pushConstantRangeCount uint32
	pPushConstantRanges    *pushConstantRange
}

type specializationMapEntry struct {
	constantID, offset uint32
	size               uintptr
}

type specializationInfo struct {
	mapEntryCount uint32
	pMapEntries   *specializationMapEntry
	dataSize      uintptr
	pData         unsafe.Pointer
}

type pipelineShaderStageCreateInfo struct {
	sType               uint32
	pNext               unsafe.Pointer
	flags               uint32
	stage               uint32
	module              vkHandle
	pName               *byte
	pSpecializationInfo *specializationInfo
}

type computePipelineCreateInfo struct {
	sType              uint32
	pNext              unsafe.Pointer
	flags              uint32
	stage              pipelineShaderStageCreateInfo
	layout             vkHandle
	basePipelineHandle vkHandle
	basePipelineIndex  int32
}

type commandPoolCreateInfo struct {
	sType            uint32
	pNext            unsafe.Pointer
	flags            uint32
	queueFamilyIndex uint32
}

type commandBufferAllocateInfo struct {
	sType              uint32
	pNext              unsafe.Pointer
	commandPool        vkHandle
	level              uint32
	commandBufferCount uint32
}

type commandBufferBeginInfo struct {
	sType            uint32
	pNext            unsafe.Pointer
	flags            uint32
	pInheritanceInfo unsafe.Pointer
}

type memoryBarrier struct {
	sType         uint32
	pNext         unsafe.Pointer
	srcAccessMask uint32
	dstAccessMask uint32
}

type bufferCopy struct{ srcOffset, dstOffset, size uint64 }

type submitInfo struct {
	sType                uint32
	pNext                unsafe.Pointer
	waitSemaphoreCount   uint32
	pWaitSemaphores      unsafe.Pointer
	pWaitDstStageMask    unsafe.Pointer
	commandBufferCount   uint32
	pCommandBuffers      *vkCommandBuffer
	signalSemaphoreCount uint32
	pSignalSemaphores    *vkHandle
}

type timelineSemaphoreSubmitInfo struct {
	sType                     uint32
	pNext                     unsafe.Pointer
	waitSemaphoreValueCount   uint32
	pWaitSemaphoreValues      unsafe.Pointer
	signalSemaphoreValueCount uint32
	pSignalSemaphoreValues    *uint64
}

type semaphoreTypeCreateInfo struct {
	sType         uint32
	pNext         unsafe.Pointer
	semaphoreType uint32
	initialValue  uint64
}

type semaphoreCreateInfo struct {
	sType uint32
	pNext unsafe.Pointer
	flags uint32
}

type queryPoolCreateInfo struct {
	sType              uint32
	pNext              unsafe.Pointer
	flags              uint32
	queryType          uint32
	queryCount         uint32
	pipelineStatistics uint32
}

type semaphoreWaitInfo struct {
	sType          uint32
	pNext          unsafe.Pointer
	flags          uint32
	semaphoreCount uint32
	pSemaphores    *vkHandle
	pValues        *uint64
}

// loader holds libvulkan and the entry points the backend calls.
type loader struct {
	lib uintptr

	getInstanceProcAddr uintptr
	getDeviceProcAddr   uintptr

	enumerateInstanceVersion uintptr
	createInstanceFn         uintptr

	destroyInstance                    uintptr
	enumeratePhysicalDevices           uintptr
	getPhysicalDeviceProperties        uintptr
	getPhysicalDeviceFeatures2         uintptr
	getPhysicalDeviceProperties2       uintptr
	getPhysicalDeviceQueueFamilyProps  uintptr
	getPhysicalDeviceMemoryProperties  uintptr
	enumerateDeviceExtensionProperties uintptr
	createDevice                       uintptr
	destroyDevice                      uintptr
	getDeviceQueue                     uintptr
	deviceWaitIdle                     uintptr
	createBuffer, destroyBuffer        uintptr
	getBufferMemoryRequirements        uintptr
	allocateMemory, freeMemory         uintptr
	bindBufferMemory                   uintptr
	mapMemory                          uintptr
	getBufferDeviceAddress             uintptr
	createShaderModule                 uintptr
	destroyShaderModule                uintptr
	createPipelineLayout               uintptr
	destroyPipelineLayout              uintptr
	createComputePipelines             uintptr
	destroyPipeline                    uintptr
	createCommandPool, destroyCmdPool  uintptr
	allocateCommandBuffers             uintptr
	resetCommandBuffer                 uintptr
	beginCommandBuffer                 uintptr
	endCommandBuffer                   uintptr
	cmdPipelineBarrier                 uintptr
	cmdBindPipeline                    uintptr
	cmdPushConstants                   uintptr
	cmdDispatch                        uintptr
	cmdCopyBuffer                      uintptr
	cmdFillBuffer                      uintptr
	cmdUpdateBuffer                    uintptr
	queueSubmit                        uintptr
	createSemaphore, destroySemaphore  uintptr
	waitSemaphores                     uintptr
	getSemaphoreCounterValue           uintptr
	createQueryPool, destroyQueryPool  uintptr
	cmdResetQueryPool                  uintptr
	cmdWriteTimestamp                  uintptr
	getQueryPoolResults                uintptr
	// VK_KHR_pipeline_executable_properties, resolved only when enabled.
	getPipelineExecutableProperties    uintptr
	getPipelineExecutableStatistics    uintptr
	getPipelineExecutableInternalReprs uintptr
}

// libName is the Vulkan loader's soname; GPUKVET_LIBVULKAN may name another.
const libName = "libvulkan.so.1"

func openLoader(path string) (*loader, error) {
	lib, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("vulkan: no Vulkan loader: cannot load %s (install libvulkan1 and a driver, e.g. scripts/install-vulkan.sh for Mesa's lavapipe): %v", path, err)
	}
	l := &loader{lib: lib}
	if l.getInstanceProcAddr, err = purego.Dlsym(lib, "vkGetInstanceProcAddr"); err != nil || l.getInstanceProcAddr == 0 {
		return nil, fmt.Errorf("vulkan: %s has no vkGetInstanceProcAddr: not a Vulkan loader", path)
	}
	l.createInstanceFn = l.instanceProc(0, "vkCreateInstance")
	l.enumerateInstanceVersion = l.instanceProc(0, "vkEnumerateInstanceVersion") // 0 on a 1.0 loader
	if l.createInstanceFn == 0 {
		return nil, fmt.Errorf("vulkan: %s does not resolve vkCreateInstance", path)
	}
	return l, nil
}

func (l *loader) instanceProc(inst vkInstance, name string) uintptr {
	b := append([]byte(name), 0)
	r, _, _ := purego.SyscallN(l.getInstanceProcAddr, uintptr(inst), uintptr(unsafe.Pointer(&b[0])))
	return r
}

func (l *loader) deviceProc(dev vkDevice, name string) uintptr {
	b := append([]byte(name), 0)
	r, _, _ := purego.SyscallN(l.getDeviceProcAddr, uintptr(dev), uintptr(unsafe.Pointer(&b[0])))
	return r
}

// resolveInstance resolves the instance-level entry points.
func (l *loader) resolveInstance(inst vkInstance) error {
	syms := []struct {
		fn   *uintptr
		name string
	}{
		{&l.destroyInstance, "vkDestroyInstance"},
		{&l.enumeratePhysicalDevices, "vkEnumeratePhysicalDevices"},
		{&l.getPhysicalDeviceProperties, "vkGetPhysicalDeviceProperties"},
		{&l.getPhysicalDeviceFeatures2, "vkGetPhysicalDeviceFeatures2"},
		{&l.getPhysicalDeviceProperties2, "vkGetPhysicalDeviceProperties2"},
		{&l.getPhysicalDeviceQueueFamilyProps, "vkGetPhysicalDeviceQueueFamilyProperties"},
		{&l.getPhysicalDeviceMemoryProperties, "vkGetPhysicalDeviceMemoryProperties"},
		{&l.enumerateDeviceExtensionProperties, "vkEnumerateDeviceExtensionProperties"},
		{&l.createDevice, "vkCreateDevice"},
		{&l.getDeviceProcAddr, "vkGetDeviceProcAddr"},
	}
	for _, s := range syms {
		if *s.fn = l.instanceProc(inst, s.name); *s.fn == 0 {
			return fmt.Errorf("vulkan: the Vulkan loader lacks %s (a Vulkan 1.1 loader or newer is needed)", s.name)
		}
	}
	return nil
}

// resolveDevice resolves the device-level entry points through
// vkGetDeviceProcAddr, which skips the loader's dispatch trampolines.
func (l *loader) resolveDevice(dev vkDevice) error {
	syms := []struct {
		fn   *uintptr
		name string
	}{
		{&l.destroyDevice, "vkDestroyDevice"},
		{&l.getDeviceQueue, "vkGetDeviceQueue"},
		{&l.deviceWaitIdle, "vkDeviceWaitIdle"},
		{&l.createBuffer, "vkCreateBuffer"},
		{&l.destroyBuffer, "vkDestroyBuffer"},
		{&l.getBufferMemoryRequirements, "vkGetBufferMemoryRequirements"},
		{&l.allocateMemory, "vkAllocateMemory"},
		{&l.freeMemory, "vkFreeMemory"},
		{&l.bindBufferMemory, "vkBindBufferMemory"},
		{&l.mapMemory, "vkMapMemory"},
		{&l.getBufferDeviceAddress, "vkGetBufferDeviceAddress"},
		{&l.createShaderModule, "vkCreateShaderModule"},
		{&l.destroyShaderModule, "vkDestroyShaderModule"},
		{&l.createPipelineLayout, "vkCreatePipelineLayout"},
		{&l.destroyPipelineLayout, "vkDestroyPipelineLayout"},
		{&l.createComputePipelines, "vkCreateComputePipelines"},
		{&l.destroyPipeline, "vkDestroyPipeline"},
		{&l.createCommandPool, "vkCreateCommandPool"},
		{&l.destroyCmdPool, "vkDestroyCommandPool"},
		{&l.allocateCommandBuffers, "vkAllocateCommandBuffers"},
		{&l.resetCommandBuffer, "vkResetCommandBuffer"},
		{&l.beginCommandBuffer, "vkBeginCommandBuffer"},
		{&l.endCommandBuffer, "vkEndCommandBuffer"},
		{&l.cmdPipelineBarrier, "vkCmdPipelineBarrier"},
		{&l.cmdBindPipeline, "vkCmdBindPipeline"},
		{&l.cmdPushConstants, "vkCmdPushConstants"},
		{&l.cmdDispatch, "vkCmdDispatch"},
		{&l.cmdCopyBuffer, "vkCmdCopyBuffer"},
		{&l.cmdFillBuffer, "vkCmdFillBuffer"},
		{&l.cmdUpdateBuffer, "vkCmdUpdateBuffer"},
		{&l.queueSubmit, "vkQueueSubmit"},
		{&l.createSemaphore, "vkCreateSemaphore"},
		{&l.destroySemaphore, "vkDestroySemaphore"},
		{&l.waitSemaphores, "vkWaitSemaphores"},
		{&l.getSemaphoreCounterValue, "vkGetSemaphoreCounterValue"},
		{&l.createQueryPool, "vkCreateQueryPool"},
		{&l.destroyQueryPool, "vkDestroyQueryPool"},
		{&l.cmdResetQueryPool, "vkCmdResetQueryPool"},
		{&l.cmdWriteTimestamp, "vkCmdWriteTimestamp"},
		{&l.getQueryPoolResults, "vkGetQueryPoolResults"},
	}
	for _, s := range syms {
		if *s.fn = l.deviceProc(dev, s.name); *s.fn == 0 {
			return fmt.Errorf("vulkan: the driver lacks %s (a Vulkan 1.2 device is needed)", s.name)
		}
	}
	return nil
}

// call invokes an entry point that returns a VkResult and turns a negative
// result into an *Error. Like purego.SyscallN it keeps what its uintptr
// arguments point to alive on the heap for the call's duration.
//
//go:uintptrescapes
func call(name string, fn uintptr, args ...uintptr) error {
	r, _, _ := purego.SyscallN(fn, args...)
	if res := int32(r); res < 0 {
		return &Error{Call: name, Result: res}
	}
	return nil
}

// callResult is call returning non-error results (VK_TIMEOUT, VK_INCOMPLETE) too.
//
//go:uintptrescapes
func callResult(name string, fn uintptr, args ...uintptr) (int32, error) {
	r, _, _ := purego.SyscallN(fn, args...)
	if res := int32(r); res < 0 {
		return res, &Error{Call: name, Result: res}
	}
	return int32(r), nil
}

// raw invokes an entry point and returns its result as is.
//
//go:uintptrescapes
func raw(fn uintptr, args ...uintptr) uintptr {
	r, _, _ := purego.SyscallN(fn, args...)
	return r
}

// void invokes an entry point that returns nothing.
//
//go:uintptrescapes
func void(fn uintptr, args ...uintptr) {
	purego.SyscallN(fn, args...)
}

// cString is s NUL-terminated.
func cString(s string) *byte {
	b := append([]byte(s), 0)
	return &b[0]
}

// goString copies a NUL-terminated byte array.
func goString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
