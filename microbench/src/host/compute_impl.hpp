#pragma once
// Shared body of the compute measurements. Included by compute_fma.cpp and
// compute_nofma.cpp, which are compiled with different floating-point contraction
// flags: that is what makes the unfused kernel really unfused.

#include <cmath>
#include <string>
#include <utility>

#include "compute_kernel.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/microbench/measure.hpp"

namespace rooftop::microbench::detail {

template <class Space, class T, int kFlops, bool kFma, int kIlp>
core::ComputePoint run_compute(const std::string& precision, std::uint64_t working_set_bytes,
                               const core::Sampling& sampling) {
  using Kernel = ComputeKernel<Space, T, kFlops, kFma, kIlp>;
  const std::int64_t group =
      Kernel::kChains * (kContiguousItems<Space> ? Space().concurrency() : 1024);
  const std::int64_t n = std::max<std::int64_t>(
      group, static_cast<std::int64_t>(working_set_bytes / sizeof(T)) / group * group);

  Kokkos::View<T*, typename Space::memory_space> x(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rooftop::compute_x")), n);
  Kokkos::parallel_for(
      "rooftop::compute_init", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) { x(i) = initial_value<T>(i); });
  Space().fence();

  const std::int64_t blocks = n / Kernel::kChains;
  Kernel kernel{x, T(kFma ? 0.5 : -1.0), T(kFlops == 1 ? 1.0 : 0.25), blocks,
                kContiguousItems<Space> ? Space().concurrency() : blocks};
  const std::string label = "rooftop::compute<" + precision + "," + (kFma ? "fma" : "nofma") +
                            "," + std::to_string(kFlops) + ",ilp" + std::to_string(kIlp) + ">";
  auto launch = [&](std::int64_t reps) {
    kernel.reps = reps;
    Kokkos::parallel_for(
        label, Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, kernel.items),
        kernel);
    Space().fence();
  };
  const core::SampleSet samples = core::sample(sampling, 1, launch);

  check_every_element(label, x, kFlops, kFma, samples.total_reps * Kernel::kSteps);

  core::ComputePoint p;
  p.precision = precision;
  p.mode = kFma ? "fma" : "nofma";
  p.flops_per_element = kFlops;
  p.mul_add_ratio = kFlops == 1 ? 0.0 : 1.0;
  p.ilp = kIlp;
  p.working_set_bytes = static_cast<std::uint64_t>(n) * sizeof(T);
  p.series() = core::rate_series(samples, static_cast<double>(n) * kFlops);
  return p;
}

template <class Space, class T, bool kFma, int kIlp, int... kFlops>
core::ComputePoint dispatch(const std::string& precision, int flops,
                            std::uint64_t working_set_bytes, const core::Sampling& sampling,
                            std::integer_sequence<int, kFlops...>) {
  core::ComputePoint out;
  const bool found = ((flops == kFlops && (out = run_compute<Space, T, kFlops, kFma, kIlp>(
                                               precision, working_set_bytes, sampling),
                                           true)) ||
                      ...);
  if (!found) throw Error("no compute kernel with " + std::to_string(flops) + " FLOPs per element");
  return out;
}

// The roofline trace runs kDefaultIlp at every FLOPs per element; the other chain
// counts are for the compute ceilings, measured at 1024 FLOPs per element only.
template <class Space, class T, bool kFma, int... kIlp>
core::ComputePoint dispatch(const std::string& precision, int flops, int ilp,
                            std::uint64_t working_set_bytes, const core::Sampling& sampling,
                            std::integer_sequence<int, kIlp...>) {
  using AllFlops = std::integer_sequence<int, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024>;
  using CeilingFlops = std::integer_sequence<int, 1024>;
  core::ComputePoint out;
  const auto run = [&]<int kOne>(std::integral_constant<int, kOne>) {
    using Flops = std::conditional_t<kOne == kDefaultIlp, AllFlops, CeilingFlops>;
    out = dispatch<Space, T, kFma, kOne>(precision, flops, working_set_bytes, sampling, Flops{});
    return true;
  };
  const bool found = ((ilp == kIlp && run(std::integral_constant<int, kIlp>{})) || ...);
  if (!found) throw Error("no compute kernel with ILP " + std::to_string(ilp));
  return out;
}

template <class Space, bool kFma>
core::ComputePoint measure(const std::string& precision, int flops, int ilp,
                           std::uint64_t working_set_bytes, const core::Sampling& sampling) {
  using Ilps =
      std::conditional_t<kContiguousItems<Space>, HostIlpCandidates, DeviceIlpCandidates>;
  return with_precision_type(precision, [&](auto element) {
    return dispatch<Space, decltype(element), kFma>(precision, flops, ilp, working_set_bytes,
                                                    sampling, Ilps{});
  });
}

}  // namespace rooftop::microbench::detail
