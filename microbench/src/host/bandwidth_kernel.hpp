#pragma once
// Bandwidth kernels: STREAM/ERT access patterns over a working set that each work
// item sweeps `reps` times inside one launch (so an L1-sized working set is not
// dominated by launch overhead), with wide independent accumulators for reads.
//
// Cost model, bytes per element per pass (counted as the program sees them, as
// STREAM does; write-allocate traffic is not added):
//   read  a[i]                     8     write a[i] = v                   8
//   copy  b[i] = a[i]              16    triad a[i] = b[i] + s * c[i]     24
//   rmw   a[i] = a[i] * s + t      16    (ERT's read-modify-write, 2 FLOPs)

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "compute_kernel.hpp"
#include "rooftop/microbench/pattern.hpp"

namespace rooftop::microbench {

// Elements handled together by one host work item: 16 vector registers of doubles
// (eight in flight cover 2 loads/cycle x 4 cycles of add latency, with margin).
inline constexpr int kHostBlock = 16 * kHostSimdBytes / 8;

template <class Space, Pattern kPattern>
struct BandwidthKernel {
  using View = Kokkos::View<double*, typename Space::memory_space>;
  View a, b, c;
  Kokkos::View<double*, typename Space::memory_space> sums;  // read: one per item
  std::int64_t n = 0;      // elements per array
  std::int64_t items = 0;  // work items
  std::int64_t reps = 1;   // passes over the working set in one launch
  double s = 0.5, t = 0.25;
  double first_value = 0.0;  // write: the value of pass 0 (pass r writes first_value + r)

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    if constexpr (kContiguousItems<Space>) {
      host_item(item);
    } else {
      device_item(item);
    }
  }

  // One contiguous chunk per item, a multiple of kHostBlock elements.
  KOKKOS_INLINE_FUNCTION void host_item(const std::int64_t item) const {
    const std::int64_t chunk = n / items;
    const std::int64_t begin = item * chunk, end = begin + chunk;
    double* const pa = a.data();
    double* const pb = b.data();
    const double* const pc = c.data();
    if constexpr (kPattern == Pattern::read) {
      double acc[kHostBlock] = {};
      for (std::int64_t r = 0; r < reps; ++r)
        for (std::int64_t i = begin; i < end; i += kHostBlock)
          for (int l = 0; l < kHostBlock; ++l) acc[l] += pa[i + l];
      double total = 0.0;
      for (int l = 0; l < kHostBlock; ++l) total += acc[l];
      sums(item) = total;
    } else {
      for (std::int64_t r = 0; r < reps; ++r) {
        const double v = first_value + static_cast<double>(r);
        for (std::int64_t i = begin; i < end; i += kHostBlock) {
          for (int l = 0; l < kHostBlock; ++l) {
            const std::int64_t k = i + l;
            if constexpr (kPattern == Pattern::write) pa[k] = v;
            if constexpr (kPattern == Pattern::copy) pb[k] = pa[k];
            if constexpr (kPattern == Pattern::triad) pa[k] = pb[k] + s * pc[k];
            if constexpr (kPattern == Pattern::rmw) pa[k] = pa[k] * s + t;
          }
        }
      }
    }
  }

  // Grid-stride: consecutive threads touch consecutive elements.
  KOKKOS_INLINE_FUNCTION void device_item(const std::int64_t item) const {
    double acc = 0.0;
    for (std::int64_t r = 0; r < reps; ++r) {
      const double v = first_value + static_cast<double>(r);
      for (std::int64_t k = item; k < n; k += items) {
        if constexpr (kPattern == Pattern::read) acc += a(k);
        if constexpr (kPattern == Pattern::write) a(k) = v;
        if constexpr (kPattern == Pattern::copy) b(k) = a(k);
        if constexpr (kPattern == Pattern::triad) a(k) = b(k) + s * c(k);
        if constexpr (kPattern == Pattern::rmw) a(k) = a(k) * s + t;
      }
    }
    if constexpr (kPattern == Pattern::read) sums(item) = acc;
  }
};

}  // namespace rooftop::microbench
