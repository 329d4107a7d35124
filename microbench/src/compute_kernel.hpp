#pragma once
// The compute kernel family: one template, a compile-time knob for FLOPs per element
// (the mixbench/ERT idea), and many independent accumulator chains per work item so
// that FMA latency x pipes x SIMD width is covered (the whole game on CPUs).
//
// Cost model, per element of x:  FLOPs = kFlops;  bytes read = sizeof(T);
//                                bytes written = sizeof(T).
// Each step is x <- x * alpha + beta with alpha = 1/2, beta = 1/4: the values converge to
// 1/2 and never overflow, underflow or go denormal, and after n steps every element
// equals 1/2 + (x0 - 1/2) / 2^n, which check_compute() verifies after timing.
// kFlops == 1 is the single subtraction x <- beta - x (an exact oscillation).

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace rooftop::microbench {

template <class T>
KOKKOS_INLINE_FUNCTION T fused_multiply_add(T a, T b, T c);
template <>
KOKKOS_INLINE_FUNCTION double fused_multiply_add<double>(double a, double b, double c) {
  return fma(a, b, c);
}
template <>
KOKKOS_INLINE_FUNCTION float fused_multiply_add<float>(float a, float b, float c) {
  return fmaf(a, b, c);
}

// Host threads own contiguous chains (one SIMD-friendly block per work item); GPU
// threads interleave so that a warp's loads coalesce.
template <class Space>
inline constexpr bool kContiguousItems =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;

// Widest vector register the host kernels are compiled for.
#if defined(__AVX512F__)
inline constexpr int kHostSimdBytes = 64;
#elif defined(__AVX__)
inline constexpr int kHostSimdBytes = 32;
#else
inline constexpr int kHostSimdBytes = 16;
#endif

// Independent chains per work item. On a CPU: 16 vector registers' worth, enough for
// latency (4 cycles) x 2 pipes even when a step is a dependent multiply then add. On a
// GPU a few per thread; full occupancy hides the rest.
inline constexpr int kHostChainRegisters = 16;
template <class Space, class T>
inline constexpr int kComputeChains =
    kContiguousItems<Space> ? kHostChainRegisters * kHostSimdBytes / static_cast<int>(sizeof(T))
                            : 8;

template <class Space, class T, int kFlops, bool kFma>
struct ComputeKernel {
  static_assert(kFlops == 1 || kFlops % 2 == 0, "FLOPs per element: 1 or even");
  static constexpr int kChains = kComputeChains<Space, T>;
  static constexpr int kSteps = kFlops == 1 ? 1 : kFlops / 2;

  Kokkos::View<T*, typename Space::memory_space> x;
  T alpha, beta;
  std::int64_t items;

  KOKKOS_INLINE_FUNCTION std::int64_t index(std::int64_t item, int c) const {
    if constexpr (kContiguousItems<Space>)
      return item * kChains + c;
    else
      return c * items + item;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    T acc[kChains];
    for (int c = 0; c < kChains; ++c) acc[c] = x(index(item, c));
    for (int s = 0; s < kSteps; ++s) {
      for (int c = 0; c < kChains; ++c) {
        if constexpr (kFlops == 1) {
          acc[c] = beta - acc[c];
        } else if constexpr (kFma) {
          acc[c] = fused_multiply_add(acc[c], alpha, beta);
        } else {
          // Compiled with contraction off (-ffp-contract=off / -fmad=false), so this
          // really issues a multiply and an add.
          acc[c] = acc[c] * alpha + beta;
        }
      }
    }
    for (int c = 0; c < kChains; ++c) x(index(item, c)) = acc[c];
  }
};

}  // namespace rooftop::microbench
