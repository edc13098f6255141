package vulkan

import (
	"fmt"
	"math"
	"os"
	"strings"
	"unsafe"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// This file writes what the driver compiled each pipeline to, for the
// study of a kernel's speed: with GPUKVET_VK_PIPELINE_STATS=<file> set and
// a driver that has VK_KHR_pipeline_executable_properties, every pipeline
// is created capturing its statistics and internal representations, and
// they are appended to the file (registers, shared memory, instruction
// counts and whatever else the driver reports; NVIDIA's, AMD's and Mesa's
// drivers each name their own).

// envPipelineStats names the file the pipelines' statistics go to.
const envPipelineStats = "GPUKVET_VK_PIPELINE_STATS"

const extPipelineExecutable = "VK_KHR_pipeline_executable_properties"

// wantPipelineStats reports whether the device is to be created with
// VK_KHR_pipeline_executable_properties: GPUKVET_VK_PIPELINE_STATS is set
// and the device has the extension and its feature.
func wantPipelineStats(q *features) bool {
	return os.Getenv(envPipelineStats) != "" && q.hasPipelineExecExt && q.pipelineExec.pipelineExecutableInfo != 0
}

// openPipelineStats, after the device is created, resolves the extension's
// entry points and starts the statistics file with the device's name, or,
// where the device cannot report them, writes that instead. Without
// GPUKVET_VK_PIPELINE_STATS it does nothing.
func (b *Backend) openPipelineStats(q *features) error {
	path := os.Getenv(envPipelineStats)
	if path == "" {
		return nil
	}
	name := goString(b.props.deviceName[:])
	if !wantPipelineStats(q) {
		return appendFile(path, fmt.Sprintf("# %s: no pipeline statistics (the driver lacks %s)\n\n", name, extPipelineExecutable))
	}
	l := b.l
	for _, s := range []struct {
		fn   *uintptr
		name string
	}{
		{&l.getPipelineExecutableProperties, "vkGetPipelineExecutablePropertiesKHR"},
		{&l.getPipelineExecutableStatistics, "vkGetPipelineExecutableStatisticsKHR"},
		{&l.getPipelineExecutableInternalReprs, "vkGetPipelineExecutableInternalRepresentationsKHR"},
	} {
		if *s.fn = l.deviceProc(b.dev, s.name); *s.fn == 0 {
			return fmt.Errorf("vulkan: %s: the driver lists %s but lacks %s", envPipelineStats, extPipelineExecutable, s.name)
		}
	}
	b.statsPath = path
	return appendFile(path, fmt.Sprintf("# %s (Vulkan %s, driver version %#x): pipeline executables\n\n", name, versionString(b.props.apiVersion), b.props.driverVersion))
}

// pipelineCreateFlags are the flags of every compute pipeline: capture
// statistics and internal representations when they are written.
func (b *Backend) pipelineCreateFlags() uint32 {
	if b.statsPath == "" {
		return 0
	}
	return pipeCaptureStatistics | pipeCaptureInternal
}

// writePipelineStats appends pipeline p's executables (kernel k's entry
// point kc for this block shape) to the statistics file: for each, its
// statistics and its internal representations. A query the driver fails
// is written to the file in their place, and the launch goes on; only a
// file that cannot be written fails it.
func (b *Backend) writePipelineStats(k *backend.Kernel, kc *kernelCode, block gpu.Dim3, p vkHandle) error {
	if b.statsPath == "" {
		return nil
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "## kernel %s, entry point %s, block %dx%dx%d\n\n", k.Name, kc.name, block.X, block.Y, block.Z)
	if err := b.describePipeline(&sb, p); err != nil {
		fmt.Fprintf(&sb, "(the driver failed: %v)\n\n", err)
	}
	return appendFile(b.statsPath, sb.String())
}

// describePipeline writes pipeline p's executables to sb.
func (b *Backend) describePipeline(sb *strings.Builder, p vkHandle) error {
	pi := &pipelineInfo{sType: stPipelineInfoKHR, pipeline: p}
	props, err := enumerate("vkGetPipelineExecutablePropertiesKHR", b.l.getPipelineExecutableProperties, b.dev, unsafe.Pointer(pi),
		func(e *pipelineExecutableProperties) { e.sType = stPipelineExecPropsKHR })
	if err != nil {
		return err
	}
	for i, e := range props {
		fmt.Fprintf(sb, "### executable %d: %s (%s), subgroup size %d\n\n", i, goString(e.name[:]), goString(e.description[:]), e.subgroupSize)
		ei := &pipelineExecutableInfo{sType: stPipelineExecInfoKHR, pipeline: p, executableIndex: uint32(i)}
		if err := b.writeStatistics(sb, ei); err != nil {
			return err
		}
		if err := b.writeRepresentations(sb, ei); err != nil {
			return err
		}
	}
	return nil
}

// writeStatistics writes one executable's statistics, one a line.
func (b *Backend) writeStatistics(sb *strings.Builder, ei *pipelineExecutableInfo) error {
	stats, err := enumerate("vkGetPipelineExecutableStatisticsKHR", b.l.getPipelineExecutableStatistics, b.dev, unsafe.Pointer(ei),
		func(s *pipelineExecutableStatistic) { s.sType = stPipelineExecStatisticKHR })
	if err != nil {
		return err
	}
	for _, s := range stats {
		fmt.Fprintf(sb, "- %s: %s (%s)\n", goString(s.name[:]), statValue(s), goString(s.description[:]))
	}
	sb.WriteString("\n")
	return nil
}

// statValue formats a statistic's value by its format.
func statValue(s pipelineExecutableStatistic) string {
	switch s.format {
	case statBool32:
		return fmt.Sprint(uint32(s.value) != 0)
	case statInt64:
		return fmt.Sprint(int64(s.value))
	case statUint64:
		return fmt.Sprint(s.value)
	case statFloat64:
		return fmt.Sprint(math.Float64frombits(s.value))
	}
	return fmt.Sprintf("%#x (format %d)", s.value, s.format)
}

// writeRepresentations writes one executable's internal representations:
// text as it is, in a fenced block; binary data as its size.
func (b *Backend) writeRepresentations(sb *strings.Builder, ei *pipelineExecutableInfo) error {
	fn := b.l.getPipelineExecutableInternalReprs
	const name = "vkGetPipelineExecutableInternalRepresentationsKHR"
	reps, err := enumerate(name, fn, b.dev, unsafe.Pointer(ei),
		func(r *pipelineExecutableInternalRepresentation) { r.sType = stPipelineExecInternalKHR })
	if err != nil || len(reps) == 0 {
		return err
	}
	// The second call fills the data, whose sizes the first gave.
	bufs := make([][]byte, len(reps))
	for i := range reps {
		bufs[i] = make([]byte, max(reps[i].dataSize, 1))
		reps[i].pData = unsafe.Pointer(&bufs[i][0])
	}
	n := uint32(len(reps))
	if _, err := callResult(name, fn, uintptr(b.dev), uintptr(unsafe.Pointer(ei)), uintptr(unsafe.Pointer(&n)), uintptr(unsafe.Pointer(&reps[0]))); err != nil {
		return err
	}
	for i, r := range reps[:n] {
		fmt.Fprintf(sb, "#### %s (%s)\n\n", goString(r.name[:]), goString(r.description[:]))
		if r.isText == 0 {
			fmt.Fprintf(sb, "(%d bytes of binary data)\n\n", r.dataSize)
			continue
		}
		fmt.Fprintf(sb, "```\n%s\n```\n\n", strings.TrimRight(goString(bufs[i][:r.dataSize]), "\n"))
	}
	return nil
}

// enumerate calls a Vulkan query of the two-call kind (count, then the
// array) with the info struct info, and returns the array; prepare sets
// each element's sType.
func enumerate[T any](name string, fn uintptr, dev vkDevice, info unsafe.Pointer, prepare func(*T)) ([]T, error) {
	var n uint32
	if err := call(name, fn, uintptr(dev), uintptr(info), uintptr(unsafe.Pointer(&n)), 0); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	out := make([]T, n)
	for i := range out {
		prepare(&out[i])
	}
	if _, err := callResult(name, fn, uintptr(dev), uintptr(info), uintptr(unsafe.Pointer(&n)), uintptr(unsafe.Pointer(&out[0]))); err != nil {
		return nil, err
	}
	return out[:n], nil
}

// appendFile appends text to the file at path, creating it.
func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("vulkan: %s: %w", envPipelineStats, err)
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("vulkan: %s: %w", envPipelineStats, err)
	}
	return nil
}
