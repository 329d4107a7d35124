#pragma once
// Shared body of the device compute measurements, included by compute_fma.cpp and
// compute_nofma.cpp beside it, which are compiled with different contraction flags.

#include <cmath>
#include <limits>
#include <string>

#include "compute_kernel.hpp"
#include "device/kernels.hpp"
#include "device/timing.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/microbench/device.hpp"

namespace rooftop::microbench::device {

template <class Space, class T, bool kFma>
core::ComputePoint run_compute(const std::string& precision, std::int64_t threads,
                               std::int64_t inner, const core::Sampling& sampling,
                               LaunchScaling* scaling) {
  using Kernel = DeviceComputeKernel<Space, T, kFma>;
  const std::int64_t n = kComputeChains * threads;
  Kokkos::View<T*, typename Space::memory_space> x(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rooftop::device_compute_x")), n);
  // (A device lambda may not be defined inside another lambda: one lambda, launched twice.)
  const auto initial = KOKKOS_LAMBDA(const std::int64_t i) { x(i) = initial_value<T>(i); };
  const auto init = [&] {
    Kokkos::parallel_for("rooftop::device_compute_init", Kokkos::RangePolicy<Space, Index>(0, n),
                         initial);
    Space().fence();
  };
  init();

  Kernel kernel;
  kernel.x = x;
  const std::string label =
      "rooftop::device_compute<" + precision + "," + (kFma ? "fma" : "nofma") + ">";
  inner = scaled_count<Space>(inner, sampling, scaling, [&](std::int64_t count) {
    kernel.inner = count;
    Kokkos::parallel_for(label, WavePolicy<Space>(0, threads), kernel);
  });
  kernel.inner = inner;
  init();  // the closed form below counts the sampled launches only
  const core::SampleSet s = sample_with_clock<Space>(sampling, [&](std::int64_t reps) {
    for (std::int64_t r = 0; r < reps; ++r)
      Kokkos::parallel_for(label, WavePolicy<Space>(0, threads), kernel);
  });

  // Two FLOPs per step, so the closed form of the even-FLOPs kernels.
  check_every_element(label, x, 2, kFma, s.total_reps * inner * kComputeSteps);

  core::ComputePoint p;
  p.precision = precision;
  p.mode = kFma ? "fma" : "nofma";
  p.flops_per_element = static_cast<int>(2 * kComputeSteps * inner);
  p.mul_add_ratio = 1.0;
  p.ilp = kComputeChains;
  p.working_set_bytes = static_cast<std::uint64_t>(n) * sizeof(T);
  p.series() =
      core::rate_series(s, static_cast<double>(n) * 2.0 * kComputeSteps * static_cast<double>(inner));
  return p;
}

template <class Space, bool kFma>
core::ComputePoint measure_compute(const std::string& precision, std::int64_t threads,
                                   std::int64_t inner, const core::Sampling& sampling,
                                   LaunchScaling* scaling) {
  if (threads <= 0 || inner <= 0) throw Error("device compute: threads and inner must be positive");
  return with_precision_type(precision, [&](auto element) {
    return run_compute<Space, decltype(element), kFma>(precision, threads, inner, sampling,
                                                       scaling);
  });
}

template <class Space, class T, bool kFusedUnit>
double run_fusion_probe() {
  constexpr int kBits = std::numeric_limits<T>::digits == 53 ? 30 : 13;
  Kokkos::View<T*, typename Space::memory_space> v("rooftop::fusion_probe", 3);
  auto host = Kokkos::create_mirror_view(v);
  host(0) = static_cast<T>(1.0 + std::ldexp(1.0, -kBits));
  host(1) = static_cast<T>(-(1.0 + std::ldexp(1.0, 1 - kBits)));
  Kokkos::deep_copy(v, host);
  Kokkos::parallel_for("rooftop::fusion_probe", Kokkos::RangePolicy<Space>(0, 1),
                       FusionProbe<Space, T, kFusedUnit>{v});
  Space().fence();
  Kokkos::deep_copy(host, v);
  return static_cast<double>(host(2));
}

template <class Space, bool kFusedUnit>
double fusion_probe(const std::string& precision) {
  return with_precision_type(precision, [](auto element) {
    return run_fusion_probe<Space, decltype(element), kFusedUnit>();
  });
}

}  // namespace rooftop::microbench::device
