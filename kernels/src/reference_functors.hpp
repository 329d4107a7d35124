#pragma once
// The device code of the reference kernels, one functor type per kernel named as its record
// is ("reference::triad", "reference::polynomial16", "reference::stencil7"), so the name a
// profiler gives a launch (Nsight Compute prints the functor's type inside Kokkos's launch
// template) contains the record's name and joins it (compare-counts). A lambda would be
// named after the method that holds it. Private to rooftop_kernels (and its tests).

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace rooftop::kernels::reference {

using Space = Kokkos::DefaultExecutionSpace;
using Vector = Kokkos::View<double*, Space::memory_space>;

// STREAM triad: a = b + s c.
struct triad {
  Vector a, b, c;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const { a(i) = b(i) + 0.5 * c(i); }
};

// x = x a + b, kSteps dependent FMAs per element.
struct polynomial16 {
  static constexpr int kSteps = 16;
  Vector x;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    double v = x(i);
    for (int s = 0; s < kSteps; ++s) v = fma(v, 0.5, 0.25);
    x(i) = v;
  }
};

// Jacobi 7-point stencil on an n^3 grid, one interior point per (k, j, i).
struct stencil7 {
  Vector in, out;
  std::int64_t n, plane;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k, const std::int64_t j,
                                         const std::int64_t i) const {
    const std::int64_t c = k * plane + j * n + i;
    out(c) = 0.25 * in(c) + 0.125 * (in(c - 1) + in(c + 1) + in(c - n) + in(c + n) +
                                     in(c - plane) + in(c + plane));
  }
};

}  // namespace rooftop::kernels::reference
