#pragma once
// Full unrolling of a loop with a compile-time trip count, by nvcc on the device and by
// GCC on the host (nvcc's host pass knows neither pragma; its host code is not what is
// measured). Kernels unroll so that arrays indexed by the loop stay in registers.

#if defined(__CUDA_ARCH__)
#define ROOFTOP_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define ROOFTOP_UNROLL
#else
#define ROOFTOP_UNROLL _Pragma("GCC unroll 64")
#endif
