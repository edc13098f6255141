package crossuse

import (
	"crossdep"

	"github.com/gpukvet/gpukvet/gpu"
)

//gpu:kernel
func Bad(t gpu.Thread, out []int) {
	out[0] = crossdep.Lookup(out[0])    // want `call of crossdep.Lookup, which breaks the rules of kernel code: it uses package-level variable table \(crossdep.go:33\)`
	out[1] = crossdep.NotDevice(out[1]) // want `call of crossdep.NotDevice, which is not a //gpu:device function`
}

//gpu:kernel
func Good(t gpu.Thread, out []float32, v []crossdep.Vec) {
	i := crossdep.Idx(t)
	out[i] = crossdep.Lerp(out[i], 1, 0.5) + crossdep.Sum(out[:4]) + v[i].Dot(v[0])
}

//gpu:kernel
func CallsAsmAcross(t gpu.Thread, out []int32) {
	out[0] = crossdep.AddAsm(out[0], 1) // want `call of crossdep.AddAsm, which breaks the rules of kernel code: it needs addAsm, which has no Go body \(crossdep.go:\d+\)`
}
