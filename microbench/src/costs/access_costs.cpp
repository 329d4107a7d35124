// The access-pattern costs on the device (access_costs.hpp): the plan, one measurement
// per kernel of access_kernels.hpp, and the sweeps. The host's are in
// host_access_costs.cpp.
#include "rooftop/microbench/costs/access_costs.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "costs/access_kernels.hpp"
#include "compute_kernel.hpp"
#include "device/timing.hpp"
#include "rooftop/ceilings/device_peaks.hpp"
#include "rooftop/core/error.hpp"

namespace rooftop::microbench {
namespace {

using namespace access;
using device::Index;
using device::StreamPolicy;
using device::WavePolicy;

constexpr std::uint64_t MiB = 1024 * 1024;

// Words [0, n) holding their own index (mod 2^32): read 16 bytes at a time they are the
// packs of device/kernels.hpp (pack p = words 4p ... 4p + 3 = pack_value(p)).
template <class Space>
Kokkos::View<std::uint32_t*, typename Space::memory_space> index_words(std::int64_t n) {
  Kokkos::View<std::uint32_t*, typename Space::memory_space> w(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rooftop::access_words")), n);
  Kokkos::parallel_for(
      "rooftop::access_fill", Kokkos::RangePolicy<Space, Index>(0, n),
      KOKKOS_LAMBDA(const std::int64_t e) { w(e) = static_cast<std::uint32_t>(e); });
  Space().fence();
  return w;
}

// Reads at `stride` words over the first `footprint` words. `passes` per launch is used
// as given, or, with `scaling`, scaled to its launch time (L2: a pass lasts microseconds).
template <class Space>
core::SweepPoint measure_stride(const std::string& sweep, const std::uint32_t* words,
                                std::int64_t footprint, std::int64_t stride, std::int64_t passes,
                                const core::Sampling& sampling, LaunchScaling* scaling) {
  using Memory = typename Space::memory_space;
  const std::int64_t useful = footprint / stride / kStrideChunk * kStrideChunk;
  if (stride <= 0 || useful <= 0)
    throw Error(sweep + ": " + std::to_string(footprint) + " words hold no chunk at stride " +
                std::to_string(stride));
  StrideKernel<Space> k;
  k.words = Kokkos::View<const std::uint32_t*, Memory>(words, useful * stride);
  k.items_per_pass = useful / kStrideLoads;
  k.stride = stride;
  k.sums = Kokkos::View<std::uint32_t*, Memory>("rooftop::access_stride_sums", k.items_per_pass);
  const std::string label = "rooftop::access_stride<" + sweep + ">";
  passes = device::scaled_count<Space>(passes, sampling, scaling, [&](std::int64_t count) {
    Kokkos::parallel_for(label, StreamPolicy<Space>(0, count * k.items_per_pass), k);
  });
  const std::int64_t items = passes * k.items_per_pass;
  const core::SampleSet s = device::sample_with_clock<Space>(sampling, [&](std::int64_t reps) {
    for (std::int64_t r = 0; r < reps; ++r)
      Kokkos::parallel_for(label, StreamPolicy<Space>(0, items), k);
  });
  auto sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.sums);
  for (std::int64_t j = 0; j < k.items_per_pass; ++j) {
    const std::uint32_t want = StrideKernel<Space>::expected(j, stride);
    if (sums(j) != want) fail(label, j, sums(j), want);
  }
  return core::rate_point(sweep, static_cast<double>(stride),
                     static_cast<double>(passes * useful) * sizeof(std::uint32_t), s);
}

template <class Space, bool kColumns>
core::SweepPoint measure_matrix(const std::uint32_t* words, std::int64_t side,
                                const core::Sampling& sampling) {
  using Memory = typename Space::memory_space;
  using Kernel = MatrixKernel<Space, kColumns>;
  const std::string sweep = kColumns ? "columns:dram" : "rows:dram";
  if (side <= 0 || side % kMatrixRun != 0)
    throw Error(sweep + ": side " + std::to_string(side) + " is not a multiple of " +
                std::to_string(kMatrixRun));
  Kernel k;
  k.side = side;
  k.words = Kokkos::View<const std::uint32_t*, Memory>(words, side * side);
  const std::int64_t items = side * side / kMatrixRun;
  k.sums = Kokkos::View<std::uint32_t*, Memory>("rooftop::access_matrix_sums", items);
  const std::string label = "rooftop::access_matrix<" + sweep + ">";
  const core::SampleSet s = device::sample_with_clock<Space>(sampling, [&](std::int64_t reps) {
    for (std::int64_t r = 0; r < reps; ++r)
      Kokkos::parallel_for(label, StreamPolicy<Space>(0, items), k);
  });
  auto sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.sums);
  for (std::int64_t i = 0; i < items; ++i)
    if (sums(i) != Kernel::expected(i, side)) fail(label, i, sums(i), Kernel::expected(i, side));
  return core::rate_point(sweep, static_cast<double>(side),
                     static_cast<double>(side * side) * sizeof(std::uint32_t), s);
}

// One launch reads `packs` packs (rounded down to whole steps of every thread) once.
template <class Space>
core::SweepPoint measure_occupancy(const std::uint32_t* words, std::int64_t packs, int sms,
                                   const Residency& r, const core::Sampling& sampling) {
  using Memory = typename Space::memory_space;
  using Kernel = OccupancyKernel<Space>;
  const std::int64_t teams = static_cast<std::int64_t>(sms) * r.teams_per_sm;
  const std::int64_t threads = teams * r.team_size;
  Kernel k;
  k.steps = threads > 0 ? packs / (threads * kOccupancyLoads) : 0;
  if (k.steps <= 0)
    throw Error("occupancy:dram: " + std::to_string(packs) + " packs are fewer than one step of " +
                std::to_string(threads) + " threads");
  k.packs = Kokkos::View<const Pack16*, Memory>(reinterpret_cast<const Pack16*>(words),
                                                k.steps * kOccupancyLoads * threads);
  k.sums = Kokkos::View<std::uint32_t*, Memory>("rooftop::access_occupancy_sums", threads);
  const typename Kernel::Policy policy(teams, r.team_size);
  const std::string label = "rooftop::access_occupancy";
  const core::SampleSet s = device::sample_with_clock<Space>(sampling, [&](std::int64_t reps) {
    for (std::int64_t i = 0; i < reps; ++i) Kokkos::parallel_for(label, policy, k);
  });
  auto sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.sums);
  for (std::int64_t g = 0; g < threads; ++g) {
    const std::uint32_t want = Kernel::expected(g, threads, k.steps);
    if (sums(g) != want) fail(label, g, sums(g), want);
  }
  return core::rate_point("occupancy:dram", r.warps_per_sm,
                     static_cast<double>(k.steps * kOccupancyLoads * threads) * sizeof(Pack16), s);
}

// One point of the divergence sweep, `inner` as given (scaled by the caller at 32 lanes:
// the launch lasts as long whatever the lanes that work).
template <class Space>
core::SweepPoint measure_divergence(std::int64_t threads, std::int64_t inner, int active,
                                    const core::Sampling& sampling) {
  using Kernel = DivergenceKernel<Space>;
  Kernel k;
  k.inner = inner;
  k.active = active;
  const std::int64_t n = threads * device::kComputeChains;
  k.x = Kokkos::View<float*, typename Space::memory_space>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rooftop::access_divergence_x")),
      n);
  auto x = k.x;
  Kokkos::parallel_for(
      "rooftop::access_divergence_init", Kokkos::RangePolicy<Space, Index>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) { x(i) = initial_value<float>(i); });
  Space().fence();
  const std::string label = "rooftop::access_divergence";
  const core::SampleSet s = device::sample_with_clock<Space>(sampling, [&](std::int64_t reps) {
    for (std::int64_t r = 0; r < reps; ++r)
      Kokkos::parallel_for(label, WavePolicy<Space>(0, threads), k);
  });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.x);
  const std::int64_t steps = s.total_reps * inner * device::kComputeSteps;
  const double tol = 8.0 * std::numeric_limits<float>::epsilon();
  for (std::int64_t i = 0; i < n; ++i) {
    const double x0 = initial_value<float>(i);
    const bool works = (i / device::kComputeChains) % kWarpLanes < active;
    const double want = works ? expected_value(x0, 2, true, steps) : x0;
    if (!(std::fabs(static_cast<double>(host(i)) - want) <= tol)) fail(label, i, host(i), want);
  }
  const double flops = static_cast<double>(Kernel::active_items(threads, active)) *
                       device::kComputeChains * device::kComputeSteps * 2.0 *
                       static_cast<double>(inner);
  return core::rate_point("divergence:fp32", active, flops, s);
}

// inner for the divergence kernel at 32 lanes, scaled to the plan's launch time.
template <class Space>
std::int64_t divergence_inner(const DeviceAccessPlan& plan) {
  DivergenceKernel<Space> k;
  k.x = Kokkos::View<float*, typename Space::memory_space>("rooftop::access_divergence_x",
                                                          plan.threads * device::kComputeChains);
  LaunchScaling scaling{plan.launch_seconds};
  return device::scaled_count<Space>(plan.divergence_inner, plan.sampling, &scaling,
                                     [&](std::int64_t count) {
                                       k.inner = count;
                                       Kokkos::parallel_for("rooftop::access_divergence",
                                                            WavePolicy<Space>(0, plan.threads), k);
                                     });
}

std::int64_t round_down(std::int64_t n, std::int64_t multiple) { return n / multiple * multiple; }

}  // namespace

DeviceAccessPlan make_device_access_plan(const core::Machine& m, const DeviceLimits& limits,
                                         std::int64_t threads, std::uint64_t free_bytes,
                                         bool quick) {
  DeviceAccessPlan plan;
  plan.sms = std::max(1, m.cores);
  plan.threads = std::max<std::int64_t>(kWarpLanes, threads);
  plan.launch_seconds = quick ? 0.001 : 0.002;
  plan.sampling.samples = 3;
  plan.sampling.min_sample_seconds = quick ? 0.005 : 0.01;
  plan.strides = quick ? std::vector<int>{1, 8, 32} : std::vector<int>{1, 2, 4, 8, 16, 32};
  plan.lanes = quick ? std::vector<int>{1, 8, 32} : std::vector<int>{1, 2, 4, 8, 16, 32};

  std::uint64_t l2 = 0;
  for (const auto& c : m.caches)
    if (c.name == "l2") l2 = c.bytes;
  // Inside one L2 partition, as the l2 ceiling; DRAM far beyond L2, where a pass per
  // launch (0.2-0.4 ms on HBM3) finds nothing of the one before it in L2.
  plan.l2_bytes = std::max<std::uint64_t>(l2 / 4, 4 * MiB);
  const std::uint64_t fits = std::max<std::uint64_t>(free_bytes / 4, 64 * MiB);
  plan.dram_bytes = std::min<std::uint64_t>(std::max<std::uint64_t>(16 * l2, 1024 * MiB), fits);
  for (std::int64_t side : {4096, 8192, 16384}) {
    const auto bytes = static_cast<std::uint64_t>(side * side) * sizeof(std::uint32_t);
    if (bytes >= 2 * l2 && bytes <= plan.dram_bytes) plan.sides.push_back(side);
  }
  if (quick && plan.sides.size() > 1) plan.sides.erase(plan.sides.begin(), plan.sides.end() - 1);

  // Resident warps per SM: powers of two up to the SM's threads, and the SM's threads.
  const int most = std::max(1, (limits.threads_per_sm > 0 ? limits.threads_per_sm : 2048) / 32);
  std::vector<int> warps;
  for (int w = 1; w < most; w *= 2) warps.push_back(w);
  warps.push_back(most);
  // Kokkos refuses a team larger than kOccupancyBoundBlocks of it fit on an SM (768
  // threads on a 1536-thread SM): teams of the largest power of two of warps up to that
  // bound and 32 that divides w.
  const int widest = std::min(32, most / kOccupancyBoundBlocks);
  for (int w : warps) {
    int team_warps = 1;
    while (2 * team_warps <= widest && w % (2 * team_warps) == 0) team_warps *= 2;
    plan.residencies.push_back({w, w / team_warps, 32 * team_warps});
  }

  const auto lanes = ceilings::device_fp_lanes(m.compute_capability, "fp32");
  const double rate = lanes ? m.cores * *lanes * 2.0 * m.nominal_clock_ghz * 1e9 : 0.0;
  const double per_inner =
      static_cast<double>(plan.threads) * device::kComputeChains * device::kComputeSteps * 2.0;
  if (rate > 0.0)
    plan.divergence_inner = std::max<std::int64_t>(
        1, static_cast<std::int64_t>(std::ceil(plan.launch_seconds * rate / per_inner)));
  return plan;
}

std::string access_launch_geometry(const DeviceAccessPlan& p) {
  std::string strides, sides, warps, lanes;
  for (int s : p.strides) strides += (strides.empty() ? "" : ",") + std::to_string(s);
  for (std::int64_t s : p.sides) sides += (sides.empty() ? "" : ",") + std::to_string(s);
  for (const Residency& r : p.residencies)
    warps += (warps.empty() ? "" : ", ") + std::to_string(r.warps_per_sm) + " (" +
             std::to_string(r.teams_per_sm) + " x " + std::to_string(r.team_size) + ")";
  for (int l : p.lanes) lanes += (lanes.empty() ? "" : ",") + std::to_string(l);
  char buf[1536];
  std::snprintf(
      buf, sizeof buf,
      "stride:l2, stride:dram: RangePolicy<LaunchBounds<256,4>> of items of %d scalar 4-B "
      "L1-bypassing loads (%d in flight), neighbouring items `stride` words apart, strides %s; "
      "%.1f MiB (l2, passes scaled to the launch) and %.0f MiB (dram, one pass per launch)\n"
      "rows:dram, columns:dram: RangePolicy<LaunchBounds<256,4>> of side^2 / %d items of %d "
      "scalar 4-B loads along a row or down a column, sides %s\n"
      "occupancy:dram: TeamPolicy<LaunchBounds<%d,%d>> of %d SMs x teams, %d x 16-B loads in "
      "flight per thread over %.0f MiB; warps/SM (teams x threads): %s\n"
      "divergence:fp32: RangePolicy<LaunchBounds<256,8>> of %lld threads (one wave), %d chains x "
      "%d unrolled FMA steps x inner %lld on lanes below %s",
      kStrideLoads, kStrideUnroll, strides.c_str(), static_cast<double>(p.l2_bytes) / MiB,
      static_cast<double>(p.dram_bytes) / MiB, kMatrixRun, kMatrixRun, sides.c_str(),
      kOccupancyBoundThreads, kOccupancyBoundBlocks, p.sms, kOccupancyLoads,
      static_cast<double>(p.dram_bytes) / MiB, warps.c_str(), static_cast<long long>(p.threads),
      device::kComputeChains, device::kComputeSteps, static_cast<long long>(p.divergence_inner),
      lanes.c_str());
  return buf;
}

template <class Space>
std::vector<core::SweepPoint> run_device_access_costs(const DeviceAccessPlan& plan,
                                                      const Progress& progress,
                                                      std::vector<std::string>* skipped) {
  std::vector<core::SweepPoint> out;
  const std::size_t total = 2 * plan.strides.size() + 2 * plan.sides.size() +
                            plan.residencies.size() + plan.lanes.size();
  std::size_t done = 0;
  const auto tick = [&](const std::string& what) {
    if (progress) progress(done, total, "device " + what);
    ++done;
  };
  // A sweep that fails goes to `skipped` as "<sweep>: <reason>" (run_or_skip).

  // One buffer, filled once, serves every read sweep: its first words are the L2
  // footprint, the matrices and, 16 bytes at a time, the occupancy sweep's packs.
  std::int64_t words = static_cast<std::int64_t>(plan.dram_bytes / sizeof(std::uint32_t));
  for (std::int64_t side : plan.sides) words = std::max(words, side * side);
  words = std::max<std::int64_t>(round_down(words, kStrideChunk), kStrideChunk);
  const auto buffer = index_words<Space>(words);
  const std::uint32_t* const data = buffer.data();

  for (const char* level : {"l2", "dram"}) {
    const std::string name = std::string("stride:") + level;
    const bool l2 = name == "stride:l2";
    const std::int64_t footprint =
        l2 ? std::min<std::int64_t>(words, static_cast<std::int64_t>(plan.l2_bytes / 4)) : words;
    run_or_skip(skipped, name, [&] {
      std::int64_t passes = plan.l2_passes;
      for (int stride : plan.strides) {
        tick(name + " " + std::to_string(stride));
        // L2: passes scaled to the launch time. DRAM: one pass per launch, so that no
        // pass overlaps one that left the same lines in L2.
        LaunchScaling scaling{plan.launch_seconds};
        out.push_back(measure_stride<Space>(name, data, footprint, stride, l2 ? passes : 1,
                                            plan.sampling, l2 ? &scaling : nullptr));
        if (l2) passes = scaling.used;
      }
    });
  }
  run_or_skip(skipped, "rows:dram, columns:dram", [&] {
    for (std::int64_t side : plan.sides) {
      tick("rows:dram " + std::to_string(side));
      out.push_back(measure_matrix<Space, false>(data, side, plan.sampling));
      tick("columns:dram " + std::to_string(side));
      out.push_back(measure_matrix<Space, true>(data, side, plan.sampling));
    }
  });
  run_or_skip(skipped, "occupancy:dram", [&] {
    for (const Residency& r : plan.residencies) {
      tick("occupancy:dram " + std::to_string(r.warps_per_sm) + " warps/SM");
      out.push_back(measure_occupancy<Space>(data, words / 4, plan.sms, r, plan.sampling));
    }
  });
  run_or_skip(skipped, "divergence:fp32", [&] {
    const std::int64_t inner = divergence_inner<Space>(plan);
    for (int active : plan.lanes) {
      tick("divergence:fp32 " + std::to_string(active) + " lanes");
      out.push_back(measure_divergence<Space>(plan.threads, inner, active, plan.sampling));
    }
  });
  if (progress) progress(total, total, "done");
  return out;
}

template std::vector<core::SweepPoint> run_device_access_costs<Kokkos::DefaultHostExecutionSpace>(
    const DeviceAccessPlan&, const Progress&, std::vector<std::string>*);
#if defined(KOKKOS_ENABLE_CUDA)
template std::vector<core::SweepPoint> run_device_access_costs<Kokkos::Cuda>(
    const DeviceAccessPlan&, const Progress&, std::vector<std::string>*);
#endif

}  // namespace rooftop::microbench
