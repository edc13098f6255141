// emu.h: the CUDA builtins the twins use, on host threads, so that g++
// compiles twins.cu and main.cpp runs a kernel as CUDA would: every block in
// turn, a thread per CUDA thread, __syncthreads a barrier of the block,
// __shared__ arrays static (one per kernel, reused by each block). There are
// no warps: code that relies on warp-synchronous execution races here.
#pragma once
#include <barrier>
#include <cstdint>
#include <cstdlib>

struct uint3 { unsigned x, y, z; };
struct float4 { float x, y, z, w; };
inline thread_local uint3 threadIdx;
inline uint3 blockIdx, blockDim, gridDim;
inline int warpSize = 32;
inline std::barrier<>* emuBarrier;

inline void __syncthreads() { emuBarrier->arrive_and_wait(); }
[[noreturn]] inline void __trap() { abort(); }
inline int min(int a, int b) { return a < b ? a : b; }
template <class T> T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }

#define __global__
#define __shared__ static
#define __launch_bounds__(...)
#define __restrict__ __restrict
