package dep

import "github.com/gpukvet/gpukvet/gpu"

//gpu:device
func Sync(t gpu.Thread) { t.Barrier() }

//gpu:device
func SyncIf(t gpu.Thread, ok bool) {
	if ok {
		t.Barrier()
	}
}

//gpu:device
func Lane(t gpu.Thread) int { return t.ThreadIdx().X % 32 }
