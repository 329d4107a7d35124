// Device bandwidth measurements (l1, shared, l2, dram) and the SM clock.
#include <string>

#include "device/kernels.hpp"
#include "device/timing.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/microbench/device.hpp"

namespace rooftop::microbench {
namespace {

using namespace device;

template <class Memory>
Kokkos::View<Pack16*, Memory> filled_packs(const char* name, std::int64_t packs) {
  Kokkos::View<Pack16*, Memory> v(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)), packs);
  using Space = typename Memory::execution_space;
  Kokkos::parallel_for(
      "rooftop::device_fill", Kokkos::RangePolicy<Space, Index>(0, packs),
      KOKKOS_LAMBDA(const std::int64_t p) { v(p) = pack_value(static_cast<std::uint64_t>(p)); });
  Space().fence();
  return v;
}

[[noreturn]] void fail(const std::string& label, std::int64_t i, double got, double want) {
  throw Error(label + ": wrong result at " + std::to_string(i) + ": " + std::to_string(got) +
              " (expected " + std::to_string(want) + ")");
}

core::BandwidthPoint point(const std::string& level, const char* pattern, std::uint64_t working_set,
                           double bytes_per_launch, const core::SampleSet& s) {
  core::BandwidthPoint p;
  p.pattern = level + ":" + pattern;
  p.working_set_bytes = working_set;
  p.series() = core::rate_series(s, bytes_per_launch);
  return p;
}

template <class Space, Pattern kPattern, Access kAccess>
core::BandwidthPoint run_stream(const std::string& level, std::uint64_t bytes_per_array,
                                std::int64_t passes, const core::Sampling& sampling,
                                LaunchScaling* scaling) {
  using Memory = typename Space::memory_space;
  using Kernel = DeviceStreamKernel<Space, kPattern, kAccess>;
  const std::int64_t chunks = std::max<std::int64_t>(
      1, static_cast<std::int64_t>(bytes_per_array / (kChunkPacks * sizeof(Pack16))));
  const std::int64_t packs = chunks * kChunkPacks;
  Kernel k;
  k.items_per_pass = packs / kPacksPerItem;
  if constexpr (kPattern == Pattern::triad) {
    const auto alloc = [&](const char* name) {
      return Kokkos::View<Double2*, Memory>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)), packs);
    };
    k.ta = alloc("rooftop::device_triad_a");
    k.tb = alloc("rooftop::device_triad_b");
    k.tc = alloc("rooftop::device_triad_c");
    auto ta = k.ta, tb = k.tb, tc = k.tc;
    Kokkos::parallel_for(
        "rooftop::device_fill", Kokkos::RangePolicy<Space, Index>(0, packs),
        KOKKOS_LAMBDA(const std::int64_t p) {
          tb(p) = Double2{static_cast<double>(p % 16), static_cast<double>((p + 1) % 16)};
          tc(p) = Double2{2.0, 2.0};
          ta(p) = Double2{-1.0, -1.0};
        });
    Space().fence();
  } else {
    k.a = filled_packs<Memory>("rooftop::device_stream_a", packs);
    if constexpr (kPattern == Pattern::copy)
      k.b = Kokkos::View<Pack16*, Memory>("rooftop::device_stream_b", packs);
    if constexpr (kPattern == Pattern::read)
      k.sums =
          Kokkos::View<std::uint32_t*, Memory>("rooftop::device_stream_sums", k.items_per_pass);
  }

  const std::string label = "rooftop::device_" + level + "<" + pattern_name(kPattern) + ">";
  // Every launch adds one to the write pattern's stamp, the scaling's launches included.
  passes = scaled_count<Space>(passes, sampling, scaling, [&](std::int64_t count) {
    ++k.stamp;
    Kokkos::parallel_for(label, StreamPolicy<Space>(0, count * k.items_per_pass), k);
  });
  const std::int64_t items = passes * k.items_per_pass;
  const core::SampleSet s = sample_with_clock<Space>(sampling, [&](std::int64_t reps) {
    for (std::int64_t r = 0; r < reps; ++r) {
      ++k.stamp;
      Kokkos::parallel_for(label, StreamPolicy<Space>(0, items), k);
    }
  });

  // Checked after timing: the per-item sums, or the final contents of every pack.
  if constexpr (kPattern == Pattern::read) {
    auto sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.sums);
    for (std::int64_t j = 0; j < k.items_per_pass; ++j)
      if (sums(j) != Kernel::expected_sum(j)) fail(label, j, sums(j), Kernel::expected_sum(j));
  } else if constexpr (kPattern == Pattern::triad) {
    auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.ta);
    for (std::int64_t p = 0; p < packs; ++p) {
      const double want = static_cast<double>(p % 16) + 1.0;
      const double want_y = static_cast<double>((p + 1) % 16) + 1.0;
      if (a(p).x != want) fail(label, p, a(p).x, want);
      if (a(p).y != want_y) fail(label, p, a(p).y, want_y);
    }
  } else {
    auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                   kPattern == Pattern::copy ? k.b : k.a);
    const std::uint32_t add = kPattern == Pattern::write ? k.stamp : 0;
    for (std::int64_t p = 0; p < packs; ++p) {
      const Pack16 want = pack_value(static_cast<std::uint64_t>(p));
      const Pack16 got = out(p);
      if (got.x != want.x + add || got.y != want.y + add || got.z != want.z + add ||
          got.w != want.w + add)
        fail(label, p, got.x, want.x + add);
    }
  }
  const int streams = kPattern == Pattern::copy ? 2 : kPattern == Pattern::triad ? 3 : 1;
  const double bytes_per_launch =
      static_cast<double>(items) * kPacksPerItem * sizeof(Pack16) * streams;
  return point(level, pattern_name(kPattern),
               static_cast<std::uint64_t>(packs) * sizeof(Pack16) * streams, bytes_per_launch, s);
}

}  // namespace

template <class Space>
core::BandwidthPoint measure_device_l1(std::int64_t threads, std::int64_t inner,
                                       const core::Sampling& sampling, LaunchScaling* scaling) {
  using Memory = typename Space::memory_space;
  if (threads <= 0 || inner <= 0) throw Error("device l1: threads and inner must be positive");
  DeviceL1Kernel<Space> k;
  k.buffer = filled_packs<Memory>("rooftop::device_l1_buffer", kL1Packs);
  k.sums = Kokkos::View<std::uint32_t*, Memory>("rooftop::device_l1_sums", threads);
  inner = scaled_count<Space>(inner, sampling, scaling, [&](std::int64_t count) {
    k.inner = count;
    Kokkos::parallel_for("rooftop::device_l1<read>", StreamPolicy<Space>(0, threads), k);
  });
  k.inner = inner;
  const core::SampleSet s = sample_with_clock<Space>(sampling, [&](std::int64_t reps) {
    for (std::int64_t r = 0; r < reps; ++r)
      Kokkos::parallel_for("rooftop::device_l1<read>", StreamPolicy<Space>(0, threads), k);
  });
  auto sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.sums);
  for (std::int64_t i = 0; i < threads; ++i) {
    const std::uint32_t want = DeviceL1Kernel<Space>::expected(i, inner);
    if (sums(i) != want) fail("rooftop::device_l1<read>", i, sums(i), want);
  }
  const double bytes =
      static_cast<double>(threads) * static_cast<double>(inner) * kL1Loads * sizeof(Pack16);
  return point("l1", "read", kL1Packs * sizeof(Pack16), bytes, s);
}

template <class Space>
core::BandwidthPoint measure_device_shared(int teams, int team_size, std::int64_t inner,
                                           const core::Sampling& sampling, LaunchScaling* scaling) {
  using Kernel = DeviceSharedKernel<Space>;
  if (teams <= 0 || team_size <= 0 || inner <= 0)
    throw Error("device shared: teams, team size and inner must be positive");
  Kernel k;
  const std::int64_t threads = static_cast<std::int64_t>(teams) * team_size;
  k.sums = Kokkos::View<std::uint32_t*, typename Space::memory_space>("rooftop::device_shared_sums",
                                                                      threads);
  const auto policy = typename Kernel::Policy(teams, team_size)
                          .set_scratch_size(0, Kokkos::PerTeam(Kernel::scratch_bytes()));
  inner = scaled_count<Space>(inner, sampling, scaling, [&](std::int64_t count) {
    k.inner = count;
    Kokkos::parallel_for("rooftop::device_shared<read>", policy, k);
  });
  k.inner = inner;
  const core::SampleSet s = sample_with_clock<Space>(sampling, [&](std::int64_t reps) {
    for (std::int64_t r = 0; r < reps; ++r)
      Kokkos::parallel_for("rooftop::device_shared<read>", policy, k);
  });
  auto sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.sums);
  for (std::int64_t i = 0; i < threads; ++i) {
    const std::uint32_t want = Kernel::expected(static_cast<int>(i % team_size), inner);
    if (sums(i) != want) fail("rooftop::device_shared<read>", i, sums(i), want);
  }
  const double bytes =
      static_cast<double>(threads) * static_cast<double>(inner) * kSharedLoads * sizeof(Pack16);
  return point("shared", "read", kSharedPacks * sizeof(Pack16), bytes, s);
}

template <class Space>
core::BandwidthPoint measure_device_stream(const std::string& level, Pattern pattern,
                                           std::uint64_t bytes_per_array, std::int64_t passes,
                                           const core::Sampling& sampling, LaunchScaling* scaling) {
  if (passes <= 0) throw Error("device stream: passes must be positive");
  if (level == "l2" || level == "l2-far" || level == "dram-256b") {
    if (pattern != Pattern::read) throw Error("device " + level + ": only the read pattern");
    if (level == "dram-256b")
      return run_stream<Space, Pattern::read, Access::prefetch_256>(level, bytes_per_array, passes,
                                                                    sampling, scaling);
    return run_stream<Space, Pattern::read, Access::l2_only>(level, bytes_per_array, passes,
                                                             sampling, scaling);
  }
  if (level != "dram") throw Error("unknown device level '" + level + "'");
  switch (pattern) {
    case Pattern::read:
      return run_stream<Space, Pattern::read, Access::readonly>(level, bytes_per_array, passes,
                                                                sampling, scaling);
    case Pattern::write:
      return run_stream<Space, Pattern::write, Access::readonly>(level, bytes_per_array, passes,
                                                                 sampling, scaling);
    case Pattern::copy:
      return run_stream<Space, Pattern::copy, Access::readonly>(level, bytes_per_array, passes,
                                                                sampling, scaling);
    case Pattern::triad:
      return run_stream<Space, Pattern::triad, Access::readonly>(level, bytes_per_array, passes,
                                                                 sampling, scaling);
    case Pattern::rmw:
      break;
  }
  throw Error(std::string("device dram: no ") + pattern_name(pattern) + " kernel");
}

template <class Space>
double measure_device_clock_ghz(std::int64_t threads, std::int64_t inner, double seconds,
                                LaunchScaling* scaling) {
  core::Sampling once;
  once.samples = 1;
  once.min_sample_seconds = seconds;
  const core::ComputePoint p =
      measure_device_compute_fma<Space>("fp32", threads, inner, once, scaling);
  return p.clock_ghz.empty() ? 0.0 : p.clock_ghz.back();
}

#define ROOFTOP_DEVICE_BANDWIDTH(Space)                                                          \
  template core::BandwidthPoint measure_device_l1<Space>(std::int64_t, std::int64_t,             \
                                                         const core::Sampling&, LaunchScaling*); \
  template core::BandwidthPoint measure_device_shared<Space>(                                    \
      int, int, std::int64_t, const core::Sampling&, LaunchScaling*);                            \
  template core::BandwidthPoint measure_device_stream<Space>(                                    \
      const std::string&, Pattern, std::uint64_t, std::int64_t, const core::Sampling&,           \
      LaunchScaling*);                                                                           \
  template double measure_device_clock_ghz<Space>(std::int64_t, std::int64_t, double,            \
                                                  LaunchScaling*);
ROOFTOP_DEVICE_BANDWIDTH(Kokkos::DefaultHostExecutionSpace)
#if defined(KOKKOS_ENABLE_CUDA)
ROOFTOP_DEVICE_BANDWIDTH(Kokkos::Cuda)
#endif
#undef ROOFTOP_DEVICE_BANDWIDTH

}  // namespace rooftop::microbench
