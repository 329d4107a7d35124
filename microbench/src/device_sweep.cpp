// The device plan (launch shapes sized from the GPU's properties) and running it.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "device_kernels.hpp"
#include "rooftop/ceilings/device_peaks.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/microbench/device.hpp"

namespace rooftop::microbench {
namespace {

using namespace device;

constexpr std::uint64_t MiB = 1024 * 1024;
constexpr double kLaunchSeconds = 2e-3;  // launch gaps (µs) stay below 0.2 %

// Repetitions so that one launch moving `per_repetition` units lasts kLaunchSeconds at
// `rate` units per second (1 when the rate is unknown).
std::int64_t repetitions(double rate, double per_repetition) {
  if (rate <= 0.0 || per_repetition <= 0.0) return 1;
  return std::max<std::int64_t>(
      1, static_cast<std::int64_t>(std::ceil(kLaunchSeconds * rate / per_repetition)));
}

std::uint64_t whole_chunks(std::uint64_t bytes) {
  const std::uint64_t chunk = kChunkPacks * sizeof(Pack16);
  return std::max<std::uint64_t>(chunk, bytes / chunk * chunk);
}

// Repetitions of the compute body for `precision`: 1 where the plan names none.
std::int64_t compute_inner(const DevicePlan& plan, const std::string& precision) {
  const auto n = plan.compute_inner.find(precision);
  return n == plan.compute_inner.end() ? 1 : n->second;
}

}  // namespace

DevicePlan make_device_plan(const core::Machine& m, std::int64_t threads, std::uint64_t free_bytes,
                            bool quick) {
  DevicePlan plan;
  plan.threads = std::max<std::int64_t>(1, threads);
  plan.team_size = static_cast<int>(std::min<std::int64_t>(kSharedTeam, plan.threads));
  plan.teams = static_cast<int>(std::max<std::int64_t>(1, plan.threads / plan.team_size));
  plan.samples = quick ? 3 : 5;
  plan.sampling.samples = plan.samples;
  plan.sampling.min_sample_seconds = quick ? 0.02 : 0.05;

  const double f = m.nominal_clock_ghz * 1e9;
  for (const core::Precision& precision : core::kPrecisions) {
    if (!precision.ceilings) continue;
    const auto lanes = ceilings::device_fp_lanes(m.compute_capability, std::string(precision.name));
    const double rate = lanes ? m.cores * *lanes * 2.0 * f : 0.0;
    plan.compute_inner[std::string(precision.name)] =
        repetitions(rate, static_cast<double>(plan.threads) * kComputeChains * kComputeSteps * 2.0);
  }
  const double l1_rate = m.cores * ceilings::kDeviceL1BytesPerClock * f;
  const double per_step = static_cast<double>(plan.threads) * kLoads * sizeof(Pack16);
  plan.l1_inner = repetitions(l1_rate, per_step);
  plan.shared_inner = repetitions(
      l1_rate, static_cast<double>(plan.teams) * plan.team_size * kLoads * sizeof(Pack16));

  std::uint64_t l2 = 0;
  for (const auto& c : m.caches)
    if (c.name == "l2") l2 = c.bytes;
  // Inside one of the two L2 partitions of GA100/GH100, and a second point across both.
  plan.l2_bytes = whole_chunks(l2 / 4);
  plan.l2_far_bytes = whole_chunks(l2 * 4 / 5);
  // No published L2 peak: size launches from 64 B/clock/SM, above what any GPU reaches.
  plan.l2_passes = repetitions(m.cores * 64.0 * f, static_cast<double>(plan.l2_bytes));
  // HBM: far beyond L2 and at least 2 GiB, with room for the triad's three arrays.
  std::uint64_t dram = std::max<std::uint64_t>(8 * l2, 2048 * MiB);
  dram = std::min<std::uint64_t>(dram, std::min<std::uint64_t>(4096 * MiB, free_bytes / 8));
  plan.dram_bytes = whole_chunks(dram);
  plan.dram_passes = repetitions(2.0 * m.memory_clock_ghz * 1e9 * m.memory_bus_bits / 8.0,
                                 static_cast<double>(plan.dram_bytes));
  plan.dram_patterns =
      quick ? std::vector<Pattern>{Pattern::read, Pattern::write}
            : std::vector<Pattern>{Pattern::read, Pattern::write, Pattern::copy, Pattern::triad};
  return plan;
}

std::string launch_geometry(const DevicePlan& p) {
  std::string inner;  // "242 (fp64) / 484 (fp32)", in the vocabulary's order
  for (const core::Precision& precision : core::kPrecisions)
    if (const auto n = p.compute_inner.find(std::string(precision.name));
        n != p.compute_inner.end())
      inner += (inner.empty() ? "" : " / ") + std::to_string(n->second) + " (" + n->first + ")";
  char buf[1536];
  std::snprintf(
      buf, sizeof buf,
      "compute: RangePolicy<LaunchBounds<256,8>> of %lld threads (one wave), %d chains x %d "
      "unrolled steps x inner %s\n"
      "l1: RangePolicy<LaunchBounds<256,4>> of %lld threads, %d x 16-B loads per step x inner "
      "%lld from one %d KiB buffer every SM re-reads\n"
      "shared: TeamPolicy<LaunchBounds<%d,4>> of %d teams x %d threads, %d KiB scratch per team, "
      "%d x 16-B loads per step x inner %lld\n"
      "l2: RangePolicy<LaunchBounds<256,4>> of 1 KiB items (%d x 16-B L1-bypassing loads, %d in "
      "flight), %.1f MiB x %lld passes per launch; l2-far: %.1f MiB\n"
      "dram: the same items with 16-B loads and stores, %.0f MiB per array x %lld passes per "
      "launch",
      static_cast<long long>(p.threads), kComputeChains, kComputeSteps, inner.c_str(),
      static_cast<long long>(p.threads), kLoads, static_cast<long long>(p.l1_inner),
      static_cast<int>(kL1Packs * sizeof(Pack16) / 1024), kSharedTeam, p.teams, p.team_size,
      static_cast<int>(kSharedPacks * sizeof(Pack16) / 1024), kLoads,
      static_cast<long long>(p.shared_inner), kPacksPerItem, kUnroll,
      static_cast<double>(p.l2_bytes) / MiB, static_cast<long long>(p.l2_passes),
      static_cast<double>(p.l2_far_bytes) / MiB, static_cast<double>(p.dram_bytes) / MiB,
      static_cast<long long>(p.dram_passes));
  return buf;
}

template <class Space>
core::Sweeps run_device_sweeps(const DevicePlan& plan, const Progress& progress) {
  core::Sweeps out;
  const std::size_t total =
      static_cast<std::size_t>(core::compute_ceiling_count()) + 4 + plan.dram_patterns.size() + 1;
  std::size_t done = 0;
  const auto step = [&](const std::string& what) {
    if (progress) progress(done++, total, what);
  };
  // An idle GPU runs at a few hundred MHz, and each kernel's first launch loads its
  // module: a warm-up brings the clock up before anything is timed.
  step("warm-up (clock)");
  measure_device_clock_ghz<Space>(plan.threads, compute_inner(plan, "fp32"),
                                  4.0 * plan.sampling.min_sample_seconds);
  // Highest precision first, as the file lists them.
  for (const core::Precision& p : core::kPrecisions) {
    if (!p.ceilings) continue;
    const std::string precision(p.name);
    const std::int64_t inner = compute_inner(plan, precision);
    step(std::string("device ") + precision + " fma");
    out.compute.push_back(
        measure_device_compute_fma<Space>(precision, plan.threads, inner, plan.sampling));
    step(std::string("device ") + precision + " nofma");
    out.compute.push_back(
        measure_device_compute_nofma<Space>(precision, plan.threads, inner, plan.sampling));
  }
  step("device l1");
  out.bandwidth.push_back(measure_device_l1<Space>(plan.threads, plan.l1_inner, plan.sampling));
  step("device shared");
  out.bandwidth.push_back(
      measure_device_shared<Space>(plan.teams, plan.team_size, plan.shared_inner, plan.sampling));
  step("device l2 read");
  out.bandwidth.push_back(measure_device_stream<Space>("l2", Pattern::read, plan.l2_bytes,
                                                       plan.l2_passes, plan.sampling));
  step("device l2 read across partitions");
  out.bandwidth.push_back(measure_device_stream<Space>("l2-far", Pattern::read, plan.l2_far_bytes,
                                                       plan.l2_passes, plan.sampling));
  for (Pattern p : plan.dram_patterns) {
    step(std::string("device dram ") + pattern_name(p));
    out.bandwidth.push_back(
        measure_device_stream<Space>("dram", p, plan.dram_bytes, plan.dram_passes, plan.sampling));
  }
  if (progress) progress(total, total, "done");
  return out;
}

template core::Sweeps run_device_sweeps<Kokkos::DefaultHostExecutionSpace>(const DevicePlan&,
                                                                           const Progress&);
#if defined(KOKKOS_ENABLE_CUDA)
template core::Sweeps run_device_sweeps<Kokkos::Cuda>(const DevicePlan&, const Progress&);
#endif

}  // namespace rooftop::microbench
