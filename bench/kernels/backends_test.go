package kernels

// The same kernels on every GPU backend (twinharness.RunBackends): cuda
// and vulkan in one process, checked against the cpu backend, timed with
// the host clock and on the GPU (CUDA events, Vulkan timestamps).
//
//	GPUKVET_BACKENDS_BENCH=1 go test ./bench/kernels -run TestBackends -v

import (
	"testing"

	th "github.com/gpukvet/gpukvet/bench/internal/twinharness"
)

func TestBackends(t *testing.T) {
	th.RunBackends(t, "bench/kernels: vulkan against cuda through package device", cases)
}
