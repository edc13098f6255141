// Package negate holds kernels that negate integers of every width, signed
// and unsigned (-x of an unsigned x wraps in Go), for the PTX tests: PTX
// has no neg.uN, and ptxas refused the module that had one.
package negate

import "github.com/gpukvet/gpukvet/gpu"

// Neg negates every element of each slice.
//
//gpu:kernel
func Neg(t gpu.Thread, a []uint8, b []uint16, c []uint32, d []uint64, e []int8, f []int16, g []int32, h []int64) {
	i := t.GlobalIdx().X
	if i < len(a) && i < len(b) && i < len(c) && i < len(d) && i < len(e) && i < len(f) && i < len(g) && i < len(h) {
		a[i], b[i], c[i], d[i] = -a[i], -b[i], -c[i], -d[i]
		e[i], f[i], g[i], h[i] = -e[i], -f[i], -g[i], -h[i]
	}
}
