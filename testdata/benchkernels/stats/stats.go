// Package stats holds PolyBench/GPU's covariance and correlation kernels:
// column means and standard deviations, centring, and the symmetric product
// where thread j1 fills row j1 and column j1 from the diagonal on.
package stats

import (
	"github.com/gpukvet/gpukvet/gpu"
	"github.com/gpukvet/gpukvet/gpu/math32"
)

// Mean computes mean[j] = Σi data[i][j] / n for data (n×m).
//
//gpu:kernel block=256
func Mean(t gpu.Thread, n, m int, data, mean []float32) {
	j := t.GlobalIdx().X
	if j < m {
		mean[j] = 0
		for i := 0; i < n; i++ {
			mean[j] += data[i*m+j]
		}
		mean[j] /= float32(n)
	}
}

// Std computes the standard deviation of every column (1 where it is tiny).
//
//gpu:kernel block=256
func Std(t gpu.Thread, n, m int, eps float32, data, mean, std []float32) {
	j := t.GlobalIdx().X
	if j < m {
		var s float32
		for i := 0; i < n; i++ {
			d := data[i*m+j] - mean[j]
			s += d * d
		}
		sd := math32.Sqrt(s / float32(n))
		if sd <= eps {
			sd = 1
		}
		std[j] = sd
	}
}

// Center subtracts the column means from data.
//
//gpu:kernel block=32,8
func Center(t gpu.Thread, n, m int, data, mean []float32) {
	i, j := t.GlobalIdx().Y, t.GlobalIdx().X
	if i < n && j < m {
		data[i*m+j] -= mean[j]
	}
}

// Normalize centres and scales data for correlation.
//
//gpu:kernel block=32,8
func Normalize(t gpu.Thread, n, m int, data, mean, std []float32) {
	i, j := t.GlobalIdx().Y, t.GlobalIdx().X
	if i < n && j < m {
		data[i*m+j] = (data[i*m+j] - mean[j]) / (math32.Sqrt(float32(n)) * std[j])
	}
}

// Covar computes symmat = dataᵀ·data (m×m) for centred data; thread j1
// computes the entries (j1, j2) and (j2, j1) for j2 ≥ j1.
//
//gpu:kernel block=256
func Covar(t gpu.Thread, n, m int, data, symmat []float32) {
	j1 := t.GlobalIdx().X
	if j1 < m {
		for j2 := j1; j2 < m; j2++ {
			var s float32
			for i := 0; i < n; i++ {
				s += data[i*m+j1] * data[i*m+j2]
			}
			symmat[j1*m+j2] = s
			symmat[j2*m+j1] = s
		}
	}
}

// Corr computes the correlation matrix of normalized data; the diagonal is 1.
//
//gpu:kernel block=256
func Corr(t gpu.Thread, n, m int, data, symmat []float32) {
	j1 := t.GlobalIdx().X
	if j1 < m {
		symmat[j1*m+j1] = 1
		for j2 := j1 + 1; j2 < m; j2++ {
			var s float32
			for i := 0; i < n; i++ {
				s += data[i*m+j1] * data[i*m+j2]
			}
			symmat[j1*m+j2] = s
			symmat[j2*m+j1] = s
		}
	}
}
