package vulkan

import (
	"testing"
	"unsafe"
)

// TestLayouts checks the hand-laid-out structs against vulkan_core.h
// (1.3.239) on linux/amd64: sizes, and the offsets the backend reads or
// writes past a run of blank fields.
func TestLayouts(t *testing.T) {
	var props physicalDeviceProperties
	var f2 physicalDeviceFeatures2
	var mp physicalDeviceMemoryProperties
	var cp computePipelineCreateInfo
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"VkPhysicalDeviceProperties", unsafe.Sizeof(props), 824},
		{"VkPhysicalDeviceLimits", unsafe.Sizeof(props.limits), 504},
		{"VkPhysicalDeviceProperties.limits", unsafe.Offsetof(props.limits), 296},
		{"VkPhysicalDeviceLimits.maxPushConstantsSize", unsafe.Offsetof(props.limits.maxPushConstantsSize), 32},
		{"VkPhysicalDeviceLimits.maxMemoryAllocationCount", unsafe.Offsetof(props.limits.maxMemoryAllocationCount), 36},
		{"VkPhysicalDeviceLimits.maxComputeSharedMemorySize", unsafe.Offsetof(props.limits.maxComputeSharedMemorySize), 216},
		{"VkPhysicalDeviceLimits.maxComputeWorkGroupCount", unsafe.Offsetof(props.limits.maxComputeWorkGroupCount), 220},
		{"VkPhysicalDeviceLimits.maxComputeWorkGroupInvocations", unsafe.Offsetof(props.limits.maxComputeWorkGroupInvocations), 232},
		{"VkPhysicalDeviceLimits.maxComputeWorkGroupSize", unsafe.Offsetof(props.limits.maxComputeWorkGroupSize), 236},
		{"VkPhysicalDeviceLimits.timestampPeriod", unsafe.Offsetof(props.limits.timestampPeriod), 424},
		{"VkPhysicalDeviceFeatures2", unsafe.Sizeof(f2), 240},
		{"VkPhysicalDeviceFeatures.shaderFloat64", unsafe.Offsetof(f2.features) + 4*featShaderFloat64, 16 + 156},
		{"VkPhysicalDeviceFeatures.shaderInt16", unsafe.Offsetof(f2.features) + 4*featShaderInt16, 16 + 164},
		{"VkPhysicalDeviceVulkan11Features", unsafe.Sizeof(physicalDeviceVulkan11Features{}), 64},
		{"VkPhysicalDeviceVulkan12Features", unsafe.Sizeof(physicalDeviceVulkan12Features{}), 208},
		{"VkPhysicalDeviceVulkan12Features.shaderInt8", 16 + 4*feat12ShaderInt8, 48},
		{"VkPhysicalDeviceVulkan12Features.timelineSemaphore", 16 + 4*feat12TimelineSemaphore, 164},
		{"VkPhysicalDeviceVulkan12Features.bufferDeviceAddress", 16 + 4*feat12BufferDeviceAddress, 168},
		{"VkPhysicalDeviceVulkan12Features.vulkanMemoryModelDeviceScope", 16 + 4*feat12VulkanMemoryModelDeviceScope, 184},
		{"VkPhysicalDeviceVulkan12Properties.shaderSignedZeroInfNanPreserveFloat16", unsafe.Offsetof(physicalDeviceVulkan12Properties{}.floatControls), 544},
		{"VkPhysicalDeviceVulkan12Properties.shaderRoundingModeRTEFloat64", unsafe.Offsetof(physicalDeviceVulkan12Properties{}.floatControls) + 4*prop12RoundingModeRTEFloat64, 588},
		{"VkPhysicalDeviceProperties2.properties", unsafe.Offsetof(physicalDeviceProperties2{}.properties), 16},
		{"VkPhysicalDeviceShaderAtomicFloatFeaturesEXT", unsafe.Sizeof(physicalDeviceAtomicFloatFeatures{}), 64},
		{"VkPhysicalDeviceMemoryProperties", unsafe.Sizeof(mp), 520},
		{"VkPhysicalDeviceMemoryProperties.memoryHeaps", unsafe.Offsetof(mp.memoryHeaps), 264},
		{"VkQueueFamilyProperties", unsafe.Sizeof(queueFamilyProperties{}), 24},
		{"VkExtensionProperties", unsafe.Sizeof(extensionProperties{}), 260},
		{"VkApplicationInfo", unsafe.Sizeof(applicationInfo{}), 48},
		{"VkInstanceCreateInfo", unsafe.Sizeof(instanceCreateInfo{}), 64},
		{"VkDeviceQueueCreateInfo", unsafe.Sizeof(deviceQueueCreateInfo{}), 40},
		{"VkDeviceCreateInfo", unsafe.Sizeof(deviceCreateInfo{}), 72},
		{"VkBufferCreateInfo", unsafe.Sizeof(bufferCreateInfo{}), 56},
		{"VkMemoryRequirements", unsafe.Sizeof(memoryRequirements{}), 24},
		{"VkMemoryAllocateInfo", unsafe.Sizeof(memoryAllocateInfo{}), 32},
		{"VkMemoryAllocateFlagsInfo", unsafe.Sizeof(memoryAllocateFlagsInfo{}), 24},
		{"VkBufferDeviceAddressInfo", unsafe.Sizeof(bufferDeviceAddressInfo{}), 24},
		{"VkShaderModuleCreateInfo", unsafe.Sizeof(shaderModuleCreateInfo{}), 40},
		{"VkPushConstantRange", unsafe.Sizeof(pushConstantRange{}), 12},
		{"VkPipelineLayoutCreateInfo", unsafe.Sizeof(pipelineLayoutCreateInfo{}), 48},
		{"VkSpecializationMapEntry", unsafe.Sizeof(specializationMapEntry{}), 16},
		{"VkSpecializationInfo", unsafe.Sizeof(specializationInfo{}), 32},
		{"VkPipelineShaderStageCreateInfo", unsafe.Sizeof(pipelineShaderStageCreateInfo{}), 48},
		{"VkComputePipelineCreateInfo", unsafe.Sizeof(cp), 96},
		{"VkComputePipelineCreateInfo.stage", unsafe.Offsetof(cp.stage), 24},
		{"VkComputePipelineCreateInfo.layout", unsafe.Offsetof(cp.layout), 72},
		{"VkCommandPoolCreateInfo", unsafe.Sizeof(commandPoolCreateInfo{}), 24},
		{"VkCommandBufferAllocateInfo", unsafe.Sizeof(commandBufferAllocateInfo{}), 32},
		{"VkCommandBufferBeginInfo", unsafe.Sizeof(commandBufferBeginInfo{}), 32},
		{"VkMemoryBarrier", unsafe.Sizeof(memoryBarrier{}), 24},
		{"VkBufferCopy", unsafe.Sizeof(bufferCopy{}), 24},
		{"VkSubmitInfo", unsafe.Sizeof(submitInfo{}), 72},
		{"VkTimelineSemaphoreSubmitInfo", unsafe.Sizeof(timelineSemaphoreSubmitInfo{}), 48},
		{"VkSemaphoreTypeCreateInfo", unsafe.Sizeof(semaphoreTypeCreateInfo{}), 32},
		{"VkSemaphoreCreateInfo", unsafe.Sizeof(semaphoreCreateInfo{}), 24},
		{"VkSemaphoreWaitInfo", unsafe.Sizeof(semaphoreWaitInfo{}), 40},
		{"VkQueryPoolCreateInfo", unsafe.Sizeof(queryPoolCreateInfo{}), 32},
		{"VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR", unsafe.Sizeof(physicalDevicePipelineExecutableFeatures{}), 24},
		{"VkPipelineInfoKHR", unsafe.Sizeof(pipelineInfo{}), 24},
		{"VkPipelineExecutablePropertiesKHR", unsafe.Sizeof(pipelineExecutableProperties{}), 536},
		{"VkPipelineExecutableInfoKHR", unsafe.Sizeof(pipelineExecutableInfo{}), 32},
		{"VkPipelineExecutableStatisticKHR", unsafe.Sizeof(pipelineExecutableStatistic{}), 544},
		{"VkPipelineExecutableStatisticKHR.value", unsafe.Offsetof(pipelineExecutableStatistic{}.value), 536},
		{"VkPipelineExecutableInternalRepresentationKHR", unsafe.Sizeof(pipelineExecutableInternalRepresentation{}), 552},
		{"VkPipelineExecutableInternalRepresentationKHR.dataSize", unsafe.Offsetof(pipelineExecutableInternalRepresentation{}.dataSize), 536},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
}
