// Package continuejoin holds kernels whose if has a short-circuit
// condition and a continue in its then-arm, shrunk from the random
// programs of testdata/generated (R025 of seed 1): the SPIR-V emitter
// refused them ("the two arms of a branch never meet").
package continuejoin

import "github.com/gpukvet/gpukvet/gpu"

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
