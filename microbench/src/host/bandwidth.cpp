#include <cmath>
#include <string>

#include "host/bandwidth_kernel.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/microbench/measure.hpp"

namespace rooftop::microbench {
namespace {

using Index = Kokkos::IndexType<std::int64_t>;

KOKKOS_INLINE_FUNCTION double pattern_value(std::int64_t i) { return static_cast<double>(i % 16); }
KOKKOS_INLINE_FUNCTION double rmw_initial(std::int64_t i) {
  return 0.25 + static_cast<double>(i % 8) / 16.0;
}

template <class Space, Pattern kPattern>
void fill(const BandwidthKernel<Space, kPattern>& k) {
  auto a = k.a, b = k.b, c = k.c;
  Kokkos::parallel_for(
      "rooftop::bandwidth_init", Kokkos::RangePolicy<Space, Index>(0, k.n),
      KOKKOS_LAMBDA(const std::int64_t i) {
        a(i) = kPattern == Pattern::rmw ? rmw_initial(i) : pattern_value(i);
        if (kPattern == Pattern::copy || kPattern == Pattern::triad) b(i) = pattern_value(i);
        if (kPattern == Pattern::triad) c(i) = 2.0;
      });
  Space().fence();
}

[[noreturn]] void fail(const std::string& label, std::int64_t i, double got, double want) {
  throw Error(label + ": wrong result at element " + std::to_string(i) + ": " +
              std::to_string(got) + " (expected " + std::to_string(want) + ")");
}

// Every element (or per-item sum) is checked after timing.
template <class Space, Pattern kPattern>
void check(const BandwidthKernel<Space, kPattern>& k, const core::SampleSet& s,
           const std::string& label) {
  auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.a);
  if constexpr (kPattern == Pattern::read) {
    auto sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.sums);
    std::vector<double> want(static_cast<std::size_t>(k.items), 0.0);
    for (std::int64_t i = 0; i < k.n; ++i) {
      const std::int64_t item = kContiguousItems<Space> ? i / (k.n / k.items) : i % k.items;
      want[static_cast<std::size_t>(item)] += a(i);
    }
    for (std::int64_t item = 0; item < k.items; ++item) {
      const double w = want[static_cast<std::size_t>(item)] * static_cast<double>(s.reps);
      if (sums(item) != w) fail(label, item, sums(item), w);
    }
    return;
  }
  auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.b);
  for (std::int64_t i = 0; i < k.n; ++i) {
    double got = a(i), want = 0.0;
    if constexpr (kPattern == Pattern::write) want = k.first_value + static_cast<double>(s.reps - 1);
    if constexpr (kPattern == Pattern::copy) got = b(i), want = pattern_value(i);
    if constexpr (kPattern == Pattern::triad) want = pattern_value(i) + k.s * 2.0;
    if constexpr (kPattern == Pattern::rmw) {
      const std::int64_t passes = s.total_reps;
      want = passes > 200 ? 0.5 : 0.5 + std::ldexp(rmw_initial(i) - 0.5, -static_cast<int>(passes));
    }
    if (std::fabs(got - want) > 4.0 * std::numeric_limits<double>::epsilon()) fail(label, i, got, want);
  }
}

template <class Space, Pattern kPattern>
core::BandwidthPoint run(std::uint64_t working_set_bytes, const core::Sampling& sampling) {
  using Kernel = BandwidthKernel<Space, kPattern>;
  using View = typename Kernel::View;
  Kernel k;
  k.items = bandwidth_items<Space>();
  const std::int64_t group = k.items * (kContiguousItems<Space> ? kHostBlock : 1);
  const std::int64_t per_array =
      static_cast<std::int64_t>(working_set_bytes / (arrays_of(kPattern) * sizeof(double)));
  k.n = std::max(group, per_array / group * group);
  const auto alloc = [](const char* name, std::int64_t n) {
    return View(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)), n);
  };
  k.a = alloc("rooftop::bandwidth_a", k.n);
  k.b = alloc("rooftop::bandwidth_b", arrays_of(kPattern) >= 2 ? k.n : 0);
  k.c = alloc("rooftop::bandwidth_c", arrays_of(kPattern) >= 3 ? k.n : 0);
  k.sums = alloc("rooftop::bandwidth_sums", k.items);
  k.first_value = 1.0;
  fill(k);

  const std::string label = std::string("rooftop::bandwidth<") + pattern_name(kPattern) + ">";
  auto launch = [&](std::int64_t reps) {
    k.reps = reps;
    Kokkos::parallel_for(label, Kokkos::RangePolicy<Space, Index>(0, k.items), k);
    Space().fence();
  };
  const core::SampleSet samples = core::sample(sampling, 1, launch);
  check(k, samples, label);

  core::BandwidthPoint p;
  p.pattern = pattern_name(kPattern);
  p.working_set_bytes = static_cast<std::uint64_t>(k.n) * arrays_of(kPattern) * sizeof(double);
  p.series() =
      core::rate_series(samples, static_cast<double>(k.n) * bytes_per_element(kPattern));
  return p;
}

}  // namespace

template <class Space>
std::int64_t bandwidth_items() {
  return Space().concurrency();  // host: one contiguous chunk per thread
}

template <class Space>
core::BandwidthPoint measure_bandwidth(Pattern pattern, std::uint64_t working_set_bytes,
                                       const core::Sampling& sampling) {
  switch (pattern) {
    case Pattern::read:
      return run<Space, Pattern::read>(working_set_bytes, sampling);
    case Pattern::write:
      return run<Space, Pattern::write>(working_set_bytes, sampling);
    case Pattern::copy:
      return run<Space, Pattern::copy>(working_set_bytes, sampling);
    case Pattern::triad:
      return run<Space, Pattern::triad>(working_set_bytes, sampling);
    case Pattern::rmw:
      return run<Space, Pattern::rmw>(working_set_bytes, sampling);
  }
  throw Error("unknown access pattern");
}

template std::int64_t bandwidth_items<Kokkos::DefaultHostExecutionSpace>();
template core::BandwidthPoint measure_bandwidth<Kokkos::DefaultHostExecutionSpace>(
    Pattern, std::uint64_t, const core::Sampling&);
#if defined(KOKKOS_ENABLE_CUDA)
template std::int64_t bandwidth_items<Kokkos::Cuda>();
template core::BandwidthPoint measure_bandwidth<Kokkos::Cuda>(Pattern, std::uint64_t,
                                                              const core::Sampling&);
#endif

}  // namespace rooftop::microbench
