// Package breakjoin holds kernels whose branch arms join code that other
// paths reach too, with a break in one arm, shrunk from the random
// programs of testdata/generated (R002): the SPIR-V emitter refused them
// ("the two arms of a branch never meet").
package breakjoin

import "github.com/gpukvet/gpukvet/gpu"

// BreakInNestedIf: the inner if's arms meet at the outer if's end, which
// the outer if's other arm reaches too, and the break keeps that end from
// post-dominating the inner if; the inner loop after it is what makes the
// optimized and unoptimized code keep that shape.
//
//gpu:kernel block=64
func BreakInNestedIf(t gpu.Thread, a, b, c, out []uint64) {
	i := t.GlobalIdx().X
	v0 := int(a[i])
	v1 := uint16(b[i])
	v2 := uint16(c[i])
	for k1 := 0; k1 < 3; k1++ {
		if v0 < 5 {
			if v1 > 3 {
				if v2 > 7 {
					break
				}
				v2++
			} else {
				v0 &= k1
			}
		}
		for k2 := 0; k2 < 1; k2++ {
			v1 += v2
			if v1 != v2 {
				break
			}
		}
	}
	v0++
	out[i*3+0] = uint64(v0)
	out[i*3+1] = uint64(v1)
	out[i*3+2] = uint64(v2)
}
