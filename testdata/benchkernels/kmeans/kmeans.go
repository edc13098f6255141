// Package kmeans is Rodinia's k-means assignment step: each point takes the
// nearest cluster centre, and the points that changed cluster are counted
// with an atomic.
package kmeans

import "github.com/gpukvet/gpukvet/gpu"

// Assign sets member[i] to the nearest of k centres (k×nf) for point i of
// features (n×nf), and adds the number of changed points to delta[0].
//
//gpu:kernel block=256
func Assign(t gpu.Thread, n, k, nf int, features, centres []float32, member []int32, delta []int32) {
	i := t.GlobalIdx().X
	if i >= n {
		return
	}
	best := int32(0)
	bestDist := float32(3.4e38)
	for c := 0; c < k; c++ {
		var d float32
		for f := 0; f < nf; f++ {
			diff := features[i*nf+f] - centres[c*nf+f]
			d += diff * diff
		}
		if d < bestDist {
			bestDist = d
			best = int32(c)
		}
	}
	if member[i] != best {
		gpu.AtomicAdd(&delta[0], 1)
		member[i] = best
	}
}
