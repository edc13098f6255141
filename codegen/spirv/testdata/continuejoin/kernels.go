// Package continuejoin holds kernels whose if has a short-circuit
// condition and a continue in its then-arm, shrunk from issue 21's random
// programs (R025 of seed 1, R038 of seed 2): the SPIR-V emitter refused
// them unoptimized ("the two arms of a branch never meet").
package continuejoin

import (
	"math/bits"

	"github.com/gpukvet/gpukvet/gpu"
)

// AndContinue: the && chain's second test and the then-arm (with its
// continue) meet the else-arm, which the first test shares, after the if.
//
//gpu:kernel block=64
func AndContinue(t gpu.Thread, a, b, c, out []uint64) {
	i := t.GlobalIdx().X
	v0 := int(a[i])
	v1 := uint16(b[i])
	v2 := uint16(c[i])
	for k11 := 0; k11 < 2; k11++ {
		if v2 > 3 && v1 > 5 {
			if v0 > 7 || v2 < v1 {
				continue
			}
			v1++
		} else {
			v2--
		}
		for k12 := 0; k12 < 1; k12++ {
			v0 *= k11
		}
		v2++
	}
	out[i*3+0] = uint64(v0)
	out[i*3+1] = uint64(v1)
	out[i*3+2] = uint64(v2)
}

// OrLoopContinue (R038 of seed 2, shrunk by TestRandomStructuring): an
// `if a || b` whose then-arm runs an inner loop and then continues the
// outer one under an && condition.
//
//gpu:kernel block=64
func OrLoopContinue(t gpu.Thread, a, b, c, out []uint64) {
	i := t.GlobalIdx().X
	v0 := int(a[i])
	v1 := b[i]
	v2 := int(c[i])
	v3 := int8(a[i] ^ b[i])
	for k1 := 0; k1 < 4; k1++ {
		if !((v1 &^ 1) != ^v1) || uint64(bits.OnesCount64(uint64(v3))) < 2*uint64(k1) {
			for k2 := 0; k2 < 1; k2++ {
				v0 += k2
			}
			if !(int8(bits.OnesCount64(uint64(int8(v2)))) >= ^v3) && int(v3)+v2 == bits.OnesCount64(uint64(v0)) {
				continue
			}
		}
		v2++
	}
	out[i*3+0] = uint64(v0)
	out[i*3+1] = v1
	out[i*3+2] = uint64(v2)
}
