// CUDA C twins of examples/saxpy and examples/vecadd, compiled with nvcc on the
// GPU machine, timed with CUDA events over 2^26 float32 elements; and the
// device-to-device copy bandwidth through cudaMemcpy, for comparison with the
// Go kernels compiled by gpukvet (bench/gpu-h200.md).
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>

#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); exit(1); } } while (0)

__global__ void saxpy(float a, const float* x, long long nx, float* y, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void vecadd(const float* a, const float* b, float* c, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

template <class F> float median_ms(F f, int reps) {
  cudaEvent_t s, e;
  CHECK(cudaEventCreate(&s)); CHECK(cudaEventCreate(&e));
  for (int i = 0; i < 3; i++) f();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < reps; r++) {
    CHECK(cudaEventRecord(s));
    f();
    CHECK(cudaEventRecord(e));
    CHECK(cudaEventSynchronize(e));
    float ms; CHECK(cudaEventElapsedTime(&ms, s, e));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  const long long n = 1LL << 26;
  const size_t bytes = n * sizeof(float);
  float *x, *y, *z;
  CHECK(cudaMalloc(&x, bytes)); CHECK(cudaMalloc(&y, bytes)); CHECK(cudaMalloc(&z, bytes));
  std::vector<float> hx(n), hy(n);
  for (long long i = 0; i < n; i++) { hx[i] = (float)(i % 1000) * 0.5f; hy[i] = (float)(i % 777); }
  CHECK(cudaMemcpy(x, hx.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, hy.data(), bytes, cudaMemcpyHostToDevice));
  int block = 256; int grid = (int)((n + block - 1) / block);
  float copy = median_ms([&] { CHECK(cudaMemcpy(z, x, bytes, cudaMemcpyDeviceToDevice)); }, 20);
  float sx = median_ms([&] { saxpy<<<grid, block>>>(2.0f, x, n, y, n); CHECK(cudaGetLastError()); }, 20);
  float va = median_ms([&] { vecadd<<<grid, block>>>(x, y, z, n); CHECK(cudaGetLastError()); }, 20);
  CHECK(cudaDeviceSynchronize());
  std::vector<float> hz(n);
  CHECK(cudaMemcpy(hz.data(), z, bytes, cudaMemcpyDeviceToHost));
  std::vector<float> hy2(n);
  CHECK(cudaMemcpy(hy2.data(), y, bytes, cudaMemcpyDeviceToHost));
  long long bad = 0;
  for (long long i = 0; i < n; i++) if (hz[i] != hx[i] + hy2[i]) bad++;
  printf("nvcc n=2^26 float32, block 256, median of 20 (CUDA events)\n");
  printf("copy   %8.4f ms  %7.1f GB/s (read+write)\n", copy, 2.0 * bytes / copy / 1e6);
  printf("saxpy  %8.4f ms  %7.1f GB/s  %5.1f%% of copy\n", sx, 3.0 * bytes / sx / 1e6, 100 * (3.0 * bytes / sx) / (2.0 * bytes / copy));
  printf("vecadd %8.4f ms  %7.1f GB/s  %5.1f%% of copy\n", va, 3.0 * bytes / va / 1e6, 100 * (3.0 * bytes / va) / (2.0 * bytes / copy));
  printf("vecadd check: %lld wrong\n", bad);
  return bad != 0;
}
