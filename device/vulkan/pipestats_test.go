package vulkan

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

// TestPipelineStatsDevice launches a kernel with GPUKVET_VK_PIPELINE_STATS
// set on the device here: the file gets the kernel's pipeline where the
// driver has VK_KHR_pipeline_executable_properties, else a note that it
// has not (lavapipe of Mesa 22.3).
func TestPipelineStatsDevice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stats.md")
	t.Setenv(envPipelineStats, path)
	b := openOrSkip(t)
	saxpyCase(t, b, 100, 64)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	t.Logf("%s", got)
	if b.statsPath == "" {
		if !strings.Contains(got, "no pipeline statistics (the driver lacks VK_KHR_pipeline_executable_properties)") {
			t.Fatalf("no note that the driver cannot report:\n%s", got)
		}
		return
	}
	if !strings.Contains(got, "## kernel hand.hand_Saxpy, entry point hand_Saxpy, block 64x1x1") || !strings.Contains(got, "### executable 0") {
		t.Fatalf("no statistics of hand_Saxpy's pipeline:\n%s", got)
	}
}

// TestPipelineStatsFormat runs writePipelineStats against a fake of the
// extension's three queries (Go callbacks standing for the driver's), so
// that the two-call protocol, the structs and the file's format are tested
// on a driver without the extension.
func TestPipelineStatsFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stats.md")
	l := &loader{
		getPipelineExecutableProperties:    purego.NewCallback(fakeExecutableProperties),
		getPipelineExecutableStatistics:    purego.NewCallback(fakeExecutableStatistics),
		getPipelineExecutableInternalReprs: purego.NewCallback(fakeInternalRepresentations),
	}
	b := &Backend{l: l, statsPath: path}
	k := &backend.Kernel{Name: "pkg.Horner"}
	kc := &kernelCode{name: "pkg_Horner"}
	if err := b.writePipelineStats(k, kc, gpu.Dim3{X: 256, Y: 1, Z: 1}, 7); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "## kernel pkg.Horner, entry point pkg_Horner, block 256x1x1\n\n" +
		"### executable 0: Compute (the compute shader), subgroup size 32\n\n" +
		"- Registers: 40 (registers per thread)\n" +
		"- Spills: false (whether it spills)\n" +
		"- Delta: -3 (a signed count)\n" +
		"- Occupancy: 0.5 (a ratio)\n\n" +
		"#### SASS (the machine code)\n\n```\nFFMA R1, R2, R3, R4 ;\nEXIT ;\n```\n\n" +
		"#### Binary (the cubin)\n\n(4 bytes of binary data)\n\n"
	if got := string(data); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// A query the driver fails is written in the statistics' place.
	if err := b.writePipelineStats(k, kc, gpu.Dim3{X: 32, Y: 1, Z: 1}, 8); err != nil {
		t.Fatal(err)
	}
	data, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(data), "block 32x1x1\n\n(the driver failed: vkGetPipelineExecutablePropertiesKHR: VK_ERROR_UNKNOWN)\n\n") {
		t.Fatalf("a failed query: the file ends\n%s", data[len(want):])
	}
}

// setName copies s, NUL-terminated, into a fixed-size C string.
func setName(dst []byte, s string) { copy(dst[:len(dst)-1], s) }

func fakeExecutableProperties(dev uintptr, info *pipelineInfo, n *uint32, out *pipelineExecutableProperties) int32 {
	if info.sType != stPipelineInfoKHR || info.pipeline != 7 {
		return vkErrUnknown
	}
	if out == nil {
		*n = 1
		return vkSuccess
	}
	if out.sType != stPipelineExecPropsKHR {
		return vkErrUnknown
	}
	setName(out.name[:], "Compute")
	setName(out.description[:], "the compute shader")
	out.subgroupSize = 32
	return vkSuccess
}

func fakeExecutableStatistics(dev uintptr, info *pipelineExecutableInfo, n *uint32, out *pipelineExecutableStatistic) int32 {
	if info.sType != stPipelineExecInfoKHR || info.executableIndex != 0 {
		return vkErrUnknown
	}
	if out == nil {
		*n = 4
		return vkSuccess
	}
	stats := unsafe.Slice(out, *n)
	for i, s := range []struct {
		name, desc string
		format     uint32
		value      uint64
	}{
		{"Registers", "registers per thread", statUint64, 40},
		{"Spills", "whether it spills", statBool32, 0},
		{"Delta", "a signed count", statInt64, uint64(1<<64 - 3)},
		{"Occupancy", "a ratio", statFloat64, math.Float64bits(0.5)},
	} {
		if stats[i].sType != stPipelineExecStatisticKHR {
			return vkErrUnknown
		}
		setName(stats[i].name[:], s.name)
		setName(stats[i].description[:], s.desc)
		stats[i].format, stats[i].value = s.format, s.value
	}
	return vkSuccess
}

func fakeInternalRepresentations(dev uintptr, info *pipelineExecutableInfo, n *uint32, out *pipelineExecutableInternalRepresentation) int32 {
	if out == nil {
		*n = 2
		return vkSuccess
	}
	reps := unsafe.Slice(out, *n)
	for i, r := range []struct {
		name, desc string
		text       bool
		data       string
	}{
		{"SASS", "the machine code", true, "FFMA R1, R2, R3, R4 ;\nEXIT ;\n\x00"},
		{"Binary", "the cubin", false, "\x7fELF"},
	} {
		if reps[i].sType != stPipelineExecInternalKHR {
			return vkErrUnknown
		}
		setName(reps[i].name[:], r.name)
		setName(reps[i].description[:], r.desc)
		if r.text {
			reps[i].isText = 1
		}
		if reps[i].pData != nil {
			if reps[i].dataSize < uintptr(len(r.data)) {
				return vkIncomplete
			}
			copy(unsafe.Slice((*byte)(reps[i].pData), len(r.data)), r.data)
		}
		reps[i].dataSize = uintptr(len(r.data))
	}
	return vkSuccess
}
