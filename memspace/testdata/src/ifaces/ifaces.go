package ifaces

import (
	"fmt"

	"github.com/gpukvet/gpukvet/gpu"
)

type shape interface{ area() float32 }

type square struct{ side float32 }

func (s square) area() float32 { return s.side * s.side }

//gpu:kernel
func Bad(t gpu.Thread, out []float32) {
	var sh shape = square{2}                  // want `variable sh has type shape: kernel code cannot use an interface \(interfaces need host run-time type information\)`
	out[0] = sh.area()                        // want `call of method area through interface shape`
	out[1] = float32(len(fmt.Sprint(out[2]))) // want `call of fmt.Sprint, which is not a //gpu:device function`
	_ = any(out[3])                           // want `any\(...\) has type any: kernel code cannot use an interface`
}

//gpu:kernel
func Good(t gpu.Thread, out []float32) {
	out[0] = square{2}.area()
}
