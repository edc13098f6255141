package calls

import (
	"math"
	"math/bits"
	"os"
	"strconv"

	"github.com/gpukvet/gpukvet/device/backend"
	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func Bad(t gpu.Thread, out []float64) {
	out[0] = float64(os.Getpid())          // want `call of os.Getpid, which is not a //gpu:device function`
	v, _ := strconv.ParseFloat("1.5", 64)  // want `call of strconv.ParseFloat, which is not a //gpu:device function`
	out[1] = v + math.Gamma(out[2])        // want `call of math.Gamma: kernel code may call only the math functions listed`
	_ = backend.CPUBlock{}.Thread(0, 0, 0) // want `call of backend.CPUBlock.Thread, which is not a //gpu:device function`
}

//gpu:kernel
func Good(t gpu.Thread, out []float64, u []uint32) {
	i := t.GlobalIdx().X
	out[i] = math.Sqrt(math.Abs(out[i])) + math.FMA(out[i], 2, 1) + math.Pi
	out[i] = min(out[i], 1) + max(out[i], 0) + float64(len(out))
	u[i] = uint32(bits.OnesCount32(u[i])) + math.Float32bits(float32(out[i]))
	if out[i] < 0 {
		panic("negative")
	}
	_ = gpu.AtomicAdd(&u[0], 1)
	t.Barrier()
}
