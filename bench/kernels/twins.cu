// CUDA C twins of the Go kernels in kernels.go, written statement for
// statement: the same block shapes, shared arrays, barriers, loops and
// arithmetic. Go's int is 64 bits, so it is `long long` here; a Go slice
// is a pointer (its length is the n the kernel is given, or the explicit
// size parameter), read-only inputs are `const T*` without __restrict__
// (Go slices may alias, and the Go kernels are compiled without knowing
// that they do not). Compile: nvcc -O3 -arch=sm_90 -cubin twins.cu
#include <stdint.h>

#define GIDX (blockIdx.x * (long long)blockDim.x + threadIdx.x)
#define GIDY (blockIdx.y * (long long)blockDim.y + threadIdx.y)
#define GIDZ (blockIdx.z * (long long)blockDim.z + threadIdx.z)

extern "C" {

__global__ void Triad(float s, float* a, const float* b, const float* c, long long n) {
	long long i = GIDX;
	if (i < n) {
		a[i] = b[i] + s * c[i];
	}
}

__global__ void StridedCopy(long long stride, const float* in, float* out, long long n) {
	long long i = GIDX;
	if (i < n) {
		out[i] = in[i * stride];
	}
}

__global__ void __launch_bounds__(256) ReduceTree(const float* in, float* partial, long long n) {
	__shared__ float buf[256];
	long long tid = threadIdx.x;
	long long i = GIDX;
	float v = 0;
	if (i < n) {
		v = in[i];
	}
	buf[tid] = v;
	__syncthreads();
	for (long long s = 128; s > 0; s >>= 1) {
		if (tid < s) {
			buf[tid] += buf[tid + s];
		}
		__syncthreads();
	}
	if (tid == 0) {
		partial[blockIdx.x] = buf[0];
	}
}

__global__ void __launch_bounds__(256) ReduceGridStride(const float* in, float* partial, long long n) {
	__shared__ float buf[256];
	long long tid = threadIdx.x;
	long long stride = (long long)blockDim.x * gridDim.x;
	float sum = 0;
	for (long long i = GIDX; i < n; i += stride) {
		sum += in[i];
	}
	buf[tid] = sum;
	__syncthreads();
	for (long long s = 128; s > 0; s >>= 1) {
		if (tid < s) {
			buf[tid] += buf[tid + s];
		}
		__syncthreads();
	}
	if (tid == 0) {
		partial[blockIdx.x] = buf[0];
	}
}

__global__ void __launch_bounds__(256) Stencil2D(long long nx, long long ny, float c0, float c1, const float* in, float* out) {
	long long x = GIDX, y = GIDY;
	if (x >= 1 && x < nx - 1 && y >= 1 && y < ny - 1) {
		long long c = y * nx + x;
		out[c] = c0 * in[c] + c1 * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx]);
	}
}

__global__ void __launch_bounds__(256) Stencil3D(long long nx, long long ny, long long nz, float c0, float c1, const float* in, float* out) {
	long long x = GIDX, y = GIDY, z = GIDZ;
	if (x >= 1 && x < nx - 1 && y >= 1 && y < ny - 1 && z >= 1 && z < nz - 1) {
		long long plane = nx * ny;
		long long c = z * plane + y * nx + x;
		out[c] = c0 * in[c] + c1 * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + in[c - plane] + in[c + plane]);
	}
}

#define TILE 16

__global__ void __launch_bounds__(256) MatMul(long long n, const float* a, const float* b, float* c) {
	__shared__ float as[TILE][TILE];
	__shared__ float bs[TILE][TILE];
	long long tx = threadIdx.x, ty = threadIdx.y;
	long long row = blockIdx.y * (long long)TILE + ty;
	long long col = blockIdx.x * (long long)TILE + tx;
	float sum = 0;
	for (long long k0 = 0; k0 < n; k0 += TILE) {
		as[ty][tx] = a[row * n + k0 + tx];
		bs[ty][tx] = b[(k0 + ty) * n + col];
		__syncthreads();
		for (long long k = 0; k < TILE; k++) {
			sum += as[ty][k] * bs[k][tx];
		}
		__syncthreads();
	}
	if (row < n && col < n) {
		c[row * n + col] = sum;
	}
}

#define TDIM 32
#define TROWS 8

__global__ void __launch_bounds__(256) Transpose(long long n, const float* in, float* out) {
	__shared__ float tile[TDIM][TDIM + 1];
	long long tx = threadIdx.x, ty = threadIdx.y;
	long long x = blockIdx.x * (long long)TDIM + tx;
	long long y = blockIdx.y * (long long)TDIM + ty;
	for (long long j = 0; j < TDIM; j += TROWS) {
		if (x < n && y + j < n) {
			tile[ty + j][tx] = in[(y + j) * n + x];
		}
	}
	__syncthreads();
	x = blockIdx.y * (long long)TDIM + tx;
	y = blockIdx.x * (long long)TDIM + ty;
	for (long long j = 0; j < TDIM; j += TROWS) {
		if (x < n && y + j < n) {
			out[(y + j) * n + x] = tile[tx][ty + j];
		}
	}
}

__global__ void __launch_bounds__(256) HistShared(const uint8_t* data, unsigned* hist, long long n) {
	__shared__ unsigned bins[256];
	long long tid = threadIdx.x;
	bins[tid] = 0;
	__syncthreads();
	long long stride = (long long)blockDim.x * gridDim.x;
	for (long long i = GIDX; i < n; i += stride) {
		atomicAdd(&bins[data[i]], 1u);
	}
	__syncthreads();
	unsigned c = bins[tid];
	if (c > 0) {
		atomicAdd(&hist[tid], c);
	}
}

__global__ void HistGlobal(const uint8_t* data, unsigned* hist, long long n) {
	long long i = GIDX;
	if (i < n) {
		atomicAdd(&hist[data[i]], 1u);
	}
}

__global__ void __launch_bounds__(256) Scan(const float* in, float* out, long long n) {
	__shared__ float buf[2][256];
	long long tid = threadIdx.x;
	long long i = GIDX;
	float v = 0;
	if (i < n) {
		v = in[i];
	}
	buf[0][tid] = v;
	__syncthreads();
	long long src = 0;
	for (long long off = 1; off < 256; off <<= 1) {
		float x = buf[src][tid];
		if (tid >= off) {
			x += buf[src][tid - off];
		}
		buf[1 - src][tid] = x;
		src = 1 - src;
		__syncthreads();
	}
	if (i < n) {
		out[i] = buf[src][tid];
	}
}

#define DEGREE 64

__global__ void Horner(const float* x, float* y, long long n) {
	long long i = GIDX;
	if (i < n) {
		float v = x[i];
		float p = 0;
		for (long long k = DEGREE; k >= 0; k--) {
			p = p * v + 1 / (float)(k + 1);
		}
		y[i] = p;
	}
}

__global__ void Gather(const int* idx, const float* in, float* out, long long n) {
	long long i = GIDX;
	if (i < n) {
		out[i] = in[idx[i]];
	}
}

__global__ void Scatter(const int* idx, const float* in, float* out, long long n) {
	long long i = GIDX;
	if (i < n) {
		out[idx[i]] = in[i];
	}
}

__global__ void Daxpy(double a, const double* x, double* y, long long n) {
	long long i = GIDX;
	if (i < n) {
		y[i] = a * x[i] + y[i];
	}
}

__global__ void Mix64(const long long* in, long long* out, long long n) {
	long long i = GIDX;
	if (i < n) {
		long long x = in[i];
		for (int r = 0; r < 8; r++) {
			x = (long long)((unsigned long long)x * 6364136223846793005ull + 1442695040888963407ull);
			x ^= x >> 29;
		}
		out[i] = x;
	}
}

__global__ void __launch_bounds__(256) Smooth2D(long long nx, long long ny, const float* in, float* out) {
	float w[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
	long long x = GIDX, y = GIDY;
	if (x >= 1 && x < nx - 1 && y >= 1 && y < ny - 1) {
		float s = 0;
		for (long long dy = -1; dy <= 1; dy++) {
			for (long long dx = -1; dx <= 1; dx++) {
				s += w[dy + 1][dx + 1] * in[(y + dy) * nx + x + dx];
			}
		}
		out[y * nx + x] = s / 16;
	}
}

} // extern "C"
