#pragma once
// The compute kernel family: one template, a compile-time knob for FLOPs per element
// (the mixbench/ERT idea), and independent accumulator chains per block of elements so
// that FMA latency x pipes x SIMD width is covered (the whole game on CPUs).
//
// Cost model, per element of x:  FLOPs = kFlops;  bytes read = sizeof(T);
//                                bytes written = sizeof(T).
// Every step costs 2 FLOPs per element, with beta = 1/4:
// - fused, alpha = 1/2: x <- fma(x, alpha, beta). The values converge to 1/2, never
//   overflow, underflow or go denormal, and after n steps every element equals
//   1/2 + (x0 - 1/2) / 2^n;
// - unfused, alpha = -1: half the chains multiply (x <- x * alpha twice), half add
//   (x <- x + beta, then x <- x - beta): a 1:1 mix of multiplies and adds, and every
//   element is back at x0 exactly after each step. The two halves do not depend on each
//   other: dependent multiply-then-add chains run 15-25% below the peak on Zen 4, whose
//   multiplies and adds issue to different pipes, and unevenly from run to run. One
//   multiplier for both multiplies keeps the constants to two registers, so that with
//   AVX2's 16 registers 14 chains fit: Zen's two multiply and two add pipes need 12.
// kFlops == 1 is the single subtraction x <- beta - x (an exact oscillation).
// The measurement checks every element against these closed forms after timing.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "rooftop/core/error.hpp"
#include "rooftop/microbench/measure.hpp"

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

// The element type of each precision the compute kernels run in, the one place a
// precision gets its type: calls run(T{}) with the type of `precision`.
template <class Run>
auto with_precision_type(const std::string& precision, Run&& run) {
  if (precision == "fp64") return run(double{});
  if (precision == "fp32") return run(float{});
  throw Error("unknown precision '" + precision + "' (fp64 or fp32)");
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

// Vector registers the host kernels have: the chains of a work item live in them.
#if defined(__AVX512F__) || defined(__aarch64__)
inline constexpr int kHostVectorRegisters = 32;
#else
inline constexpr int kHostVectorRegisters = 16;  // x86-64 with AVX2, AVX or SSE
#endif

// Every chain count the dispatch can run (compute_impl.hpp); which of them a machine
// measures is host_ilp_choices' answer for its vector ISA.
using HostIlpCandidates = std::integer_sequence<int, 8, 10, 12, 14, 16, 24>;
using DeviceIlpCandidates = std::integer_sequence<int, 8, 16>;

// Instruction-level parallelism: the independent chains each SIMD lane (host) or each
// thread (GPU) interleaves. It must cover latency x pipes, and more is not free: on
// Zen 4 the unfused multiply-then-add chains reach 0.83 of peak with 16 and the peak
// with 8, while some cores need more than 8 to keep two FMA pipes busy. The plan
// measures every choice (compute_ilp_choices, measure.hpp) and the best makes the ceiling.
template <class Space, class T, int kIlp>
inline constexpr int kComputeChains =
    kContiguousItems<Space> ? kIlp * kHostSimdBytes / static_cast<int>(sizeof(T)) : kIlp;

// The value element i starts from, host and device alike.
template <class T>
KOKKOS_INLINE_FUNCTION T initial_value(std::int64_t i) {
  return static_cast<T>(0.25 + static_cast<double>(i % 8) / 16.0);
}

// The value an element holds after `steps` steps (the closed forms above).
inline double expected_value(double x0, int flops, bool fma, std::int64_t steps) {
  if (flops == 1) return steps % 2 == 0 ? x0 : 1.0 - x0;
  if (!fma) return x0;
  if (steps > 200) return 0.5;  // (x0 - 1/2) / 2^steps is far below one ulp of 1/2
  return 0.5 + std::ldexp(x0 - 0.5, -static_cast<int>(steps));
}

// Every element of `x` (any memory space) against its closed form after `steps` steps,
// checked after timing, so that no compiler can delete the work.
template <class View>
void check_every_element(const std::string& label, const View& x, int flops, bool fma,
                         std::int64_t steps) {
  using T = typename View::non_const_value_type;
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  const double tol = 8.0 * std::numeric_limits<T>::epsilon();
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(host.extent(0)); ++i) {
    const double want = expected_value(static_cast<double>(initial_value<T>(i)), flops, fma, steps);
    if (!(std::fabs(static_cast<double>(host(i)) - want) <= tol))
      throw Error(label + ": wrong result at element " + std::to_string(i) + ": " +
                  std::to_string(static_cast<double>(host(i))) + " (expected " +
                  std::to_string(want) + ")");
  }
}

// Work is split as in the bandwidth kernels: a host work item (one per thread) owns a
// contiguous run of blocks of kChains elements and sweeps it `reps` times inside one
// launch, so the threads meet at one barrier per sample, not one per repetition (a
// barrier per repetition made every thread wait for the slowest core each time: 2-3%
// of the FMA peak on Zen 4). Every repetition still loads and stores each element, so
// a DRAM-resident array streams from memory once per repetition (the roofline trace).
// A GPU work item is one block, its elements interleaved with the other threads'.
template <class Space, class T, int kFlops, bool kFma, int kIlp>
struct ComputeKernel {
  static_assert(kFlops == 1 || kFlops % 2 == 0, "FLOPs per element: 1 or even");
  static constexpr int kChains = kComputeChains<Space, T, kIlp>;
  static constexpr int kSteps = kFlops == 1 ? 1 : kFlops / 2;

  Kokkos::View<T*, typename Space::memory_space> x;
  T alpha, beta;          // runtime values, so no compiler can fold alpha * alpha into 1
  std::int64_t blocks;   // x holds blocks x kChains elements
  std::int64_t items;    // work items: the host's threads, or one per block on a GPU
  std::int64_t reps = 1; // sweeps over x inside one launch

  KOKKOS_INLINE_FUNCTION std::int64_t index(std::int64_t block, int c) const {
    if constexpr (kContiguousItems<Space>)
      return block * kChains + c;
    else
      return c * blocks + block;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    const std::int64_t begin = item * blocks / items, end = (item + 1) * blocks / items;
    for (std::int64_t r = 0; r < reps; ++r)
      for (std::int64_t block = begin; block < end; ++block) steps(block);
  }

  KOKKOS_INLINE_FUNCTION void steps(const std::int64_t block) const {
    T acc[kChains];
    for (int c = 0; c < kChains; ++c) acc[c] = x(index(block, c));
    for (int s = 0; s < kSteps; ++s) {
      if constexpr (kFlops == 1) {
        for (int c = 0; c < kChains; ++c) acc[c] = beta - acc[c];
      } else if constexpr (kFma) {
        for (int c = 0; c < kChains; ++c) acc[c] = fused_multiply_add(acc[c], alpha, beta);
      } else {
        // Compiled with contraction off (-ffp-contract=off / -fmad=false): nothing here
        // may become an FMA anyway, but no multiply feeds an add either.
        constexpr int kHalf = kChains / 2;
        for (int c = 0; c < kHalf; ++c) acc[c] = acc[c] * alpha;
        for (int c = kHalf; c < kChains; ++c) acc[c] = acc[c] + beta;
        for (int c = 0; c < kHalf; ++c) acc[c] = acc[c] * alpha;
        for (int c = kHalf; c < kChains; ++c) acc[c] = acc[c] - beta;
      }
    }
    for (int c = 0; c < kChains; ++c) x(index(block, c)) = acc[c];
  }
};

}  // namespace rooftop::microbench
