package globals

import (
	"os"

	"github.com/gpukvet/gpukvet/gpu"
)

var scale float32 = 2

const factor = 2

//gpu:kernel
func Bad(t gpu.Thread, out []float32) {
	out[t.GlobalIdx().X] *= scale // want `package-level variable scale: kernel code cannot reach host memory`
	if len(os.Args) > 1 {         // want `package-level variable os.Args: kernel code cannot reach host memory`
		out[0] = 0
	}
}

//gpu:kernel
func Good(t gpu.Thread, out []float32, scale float32) {
	out[t.GlobalIdx().X] *= scale * factor
}

// Host code may use package-level variables.
func Host() float32 { return scale }
