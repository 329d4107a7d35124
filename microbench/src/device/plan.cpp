// The device plan (launch shapes sized from the GPU's properties) and running it.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "device/kernels.hpp"
#include "rooftop/ceilings/device_peaks.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/microbench/device.hpp"

namespace rooftop::microbench {
namespace {

using namespace device;

constexpr std::uint64_t MiB = 1024 * 1024;
constexpr double kLaunchSeconds = 2e-3;  // launch gaps (µs) stay below 0.2 %
// A stream launch ends with its last work items on a share of the SMs (an item lasts tens
// of µs at an SM's share of HBM): 10 ms keeps that tail near 0.2 %.
constexpr double kStreamLaunchSeconds = 10e-3;

// Shared memory one team of `team_size` threads holds on an SM: its scratch, what Kokkos
// adds for team reductions (8 B per thread and 2 more) and its shared id (8 B), and the
// driver's reservation per block.
std::uint64_t team_shared_bytes(const DeviceLimits& l, int team_size) {
  return DeviceSharedKernel<Kokkos::DefaultHostExecutionSpace>::scratch_bytes() +
         8u * static_cast<std::uint64_t>(team_size + 2) + 8u + l.reserved_shared_per_block;
}

// A first guess of the repetitions so that one launch moving `per_repetition` units
// lasts `seconds` at `rate` units per second (1 when the rate is unknown; the
// measurement scales it from a timed launch either way).
std::int64_t repetitions(double rate, double per_repetition, double seconds = kLaunchSeconds) {
  if (rate <= 0.0 || per_repetition <= 0.0) return 1;
  return std::max<std::int64_t>(
      1, static_cast<std::int64_t>(std::ceil(seconds * rate / per_repetition)));
}

// "1.75": a working set in MiB, for a step's name and the launch geometry.
std::string mib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", static_cast<double>(bytes) / MiB);
  return buf;
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

TeamShape shared_team_shape(const DeviceLimits& l) {
  TeamShape shape;
  const int cap =
      std::min(kSharedMaxTeam, l.threads_per_block > 0 ? l.threads_per_block : kSharedMaxTeam);
  // The kernel's launch bounds require kSharedBoundBlocks teams to fit on an SM.
  for (int teams = kSharedTeamsPerSm; teams >= kSharedBoundBlocks; --teams) {
    const int size = std::min(cap, l.threads_per_sm / teams) / 32 * 32;
    if (size < 32) continue;
    const std::uint64_t bytes = team_shared_bytes(l, size);
    if (bytes - l.reserved_shared_per_block > l.shared_per_block ||
        static_cast<std::uint64_t>(teams) * bytes > l.shared_per_sm)
      continue;
    shape.teams_per_sm = teams;
    shape.team_size = size;
    return shape;
  }
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "no %d teams of 32 threads or more with %zu B of scratch each fit in %d threads "
                "and %llu B of shared memory per SM (%llu B per block)",
                kSharedBoundBlocks,
                DeviceSharedKernel<Kokkos::DefaultHostExecutionSpace>::scratch_bytes(),
                l.threads_per_sm, static_cast<unsigned long long>(l.shared_per_sm),
                static_cast<unsigned long long>(l.shared_per_block));
  shape.why_not = buf;
  return shape;
}

std::int64_t scaled_repetitions(std::int64_t count, double seconds, double target) {
  count = std::max<std::int64_t>(1, count);
  if (target <= 0.0 || (seconds >= 0.5 * target && seconds <= 4.0 * target)) return count;
  constexpr double kMaxGrowth = 1000.0;
  constexpr double kMaxCount = 1e12;  // far beyond any launch; keeps the products in range
  const double factor = seconds > 0.0 ? std::min(target / seconds, kMaxGrowth) : kMaxGrowth;
  const double scaled = std::min(std::ceil(static_cast<double>(count) * factor), kMaxCount);
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(scaled));
}

DevicePlan make_device_plan(const core::Machine& m, const DeviceLimits& limits,
                            std::int64_t threads, std::uint64_t free_bytes, bool quick) {
  DevicePlan plan;
  plan.threads = std::max<std::int64_t>(1, threads);
  const TeamShape shape = shared_team_shape(limits);
  plan.team_size = shape.team_size;
  plan.teams = shape.teams_per_sm * std::max(1, m.cores);
  plan.shared_skip = shape.why_not;
  plan.launch_seconds = kLaunchSeconds;
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
  // l1: one wave of the l1 kernel (its launch bounds keep kL1ThreadsPerSm resident).
  const int l1_per_sm = limits.threads_per_sm > 0 ? std::min(kL1ThreadsPerSm, limits.threads_per_sm)
                                                  : kL1ThreadsPerSm;
  plan.l1_threads = static_cast<std::int64_t>(std::max(1, m.cores)) * l1_per_sm;
  const double l1_rate = m.cores * ceilings::kDeviceL1BytesPerClock * f;
  plan.l1_inner =
      repetitions(l1_rate, static_cast<double>(plan.l1_threads) * kL1Loads * sizeof(Pack16));
  if (plan.teams > 0)
    plan.shared_inner = repetitions(
        l1_rate, static_cast<double>(plan.teams) * plan.team_size * kSharedLoads * sizeof(Pack16));

  std::uint64_t l2 = 0;
  for (const auto& c : m.caches)
    if (c.name == "l2") l2 = c.bytes;
  // From L2 / 64 to L2 / 2 (on GA100/GH100 each of the two partitions caches the data its
  // own SMs read, so copies of a set up to half the L2 can fit both; gpu-l2-cache's best
  // point, 1.5 MB, lies between the first two on an H100 or H200), then one point across
  // both partitions. Sizes that round to the same whole chunks are measured once.
  plan.stream_launch_seconds = kStreamLaunchSeconds;
  for (std::uint64_t divisor : {64, 32, 16, 8, 4, 2})
    if (const std::uint64_t bytes = whole_chunks(l2 / divisor);
        plan.l2_sizes.empty() || bytes > plan.l2_sizes.back())
      plan.l2_sizes.push_back(bytes);
  plan.l2_far_bytes = whole_chunks(l2 * 4 / 5);
  // No published L2 peak: size launches from 64 B/clock/SM, above what any GPU reaches.
  plan.l2_passes = repetitions(m.cores * 64.0 * f, static_cast<double>(plan.l2_sizes.back()),
                               kStreamLaunchSeconds);
  // HBM: 8 x L2 (as a host's DRAM window), at least 256 MiB, with room for the triad's
  // three arrays. No larger: on the H200 gpu-l2-cache read 0.953 of the peak at 486 MiB
  // but 0.924 at 1.98 GiB, the rate falling as the set grows (past the TLBs' reach:
  // inference).
  std::uint64_t dram = std::max<std::uint64_t>(8 * l2, 256 * MiB);
  dram = std::min<std::uint64_t>(dram, std::min<std::uint64_t>(4096 * MiB, free_bytes / 8));
  plan.dram_bytes = whole_chunks(dram);
  plan.dram_passes = repetitions(2.0 * m.memory_clock_ghz * 1e9 * m.memory_bus_bits / 8.0,
                                 static_cast<double>(plan.dram_bytes), kStreamLaunchSeconds);
  plan.dram_patterns =
      quick ? std::vector<Pattern>{Pattern::read, Pattern::write}
            : std::vector<Pattern>{Pattern::read, Pattern::write, Pattern::copy, Pattern::triad};
  plan.dram_prefetch_256 = !quick;
  return plan;
}

std::string launch_geometry(const DevicePlan& p) {
  std::string inner;  // "242 (fp64) / 484 (fp32)", in the vocabulary's order
  for (const core::Precision& precision : core::kPrecisions)
    if (const auto n = p.compute_inner.find(std::string(precision.name));
        n != p.compute_inner.end())
      inner += (inner.empty() ? "" : " / ") + std::to_string(n->second) + " (" + n->first + ")";
  std::string l2;  // "1.75 / 3.75 / 7.5 / 15 / 30"
  for (std::uint64_t bytes : p.l2_sizes) l2 += (l2.empty() ? "" : " / ") + mib(bytes);
  char buf[2048];
  std::snprintf(
      buf, sizeof buf,
      "compute: RangePolicy<LaunchBounds<256,8>> of %lld threads (one wave), %d chains x %d "
      "unrolled steps x inner %s\n"
      "l1: RangePolicy<LaunchBounds<256,4>> of %lld threads (one wave), %d x 16-B loads per "
      "step at fixed offsets x inner %lld from one %d KiB buffer every SM re-reads\n"
      "shared: TeamPolicy<LaunchBounds<%d,%d>> of %d teams x %d threads, %d KiB scratch per "
      "team, %d x 16-B loads per step x inner %lld\n"
      "l2: RangePolicy<LaunchBounds<256,4>> of 1 KiB items (%d x 16-B L1-bypassing loads, %d in "
      "flight) over %s MiB, %lld passes per launch over the largest; l2-far: %.1f MiB\n"
      "dram: the same items with 16-B loads and stores, %.0f MiB per array x %lld passes per "
      "launch%s; launches of %g ms (l2, dram) and %g ms (the others)",
      static_cast<long long>(p.threads), kComputeChains, kComputeSteps, inner.c_str(),
      static_cast<long long>(p.l1_threads), kL1Loads, static_cast<long long>(p.l1_inner),
      static_cast<int>(kL1Packs * sizeof(Pack16) / 1024), kSharedBoundThreads, kSharedBoundBlocks,
      p.teams, p.team_size, static_cast<int>(kSharedPacks * sizeof(Pack16) / 1024), kSharedLoads,
      static_cast<long long>(p.shared_inner), kPacksPerItem, kUnroll, l2.c_str(),
      static_cast<long long>(p.l2_passes), static_cast<double>(p.l2_far_bytes) / MiB,
      static_cast<double>(p.dram_bytes) / MiB, static_cast<long long>(p.dram_passes),
      p.dram_prefetch_256 ? "; dram-256b: the read with L1::no_allocate.L2::256B loads" : "",
      p.stream_launch_seconds * 1e3, p.launch_seconds * 1e3);
  return buf;
}

template <class Space>
core::Sweeps run_device_sweeps(DevicePlan& plan, const Progress& progress,
                               std::vector<std::string>* skipped) {
  core::Sweeps out;
  // The warm-up, compute, l1, shared, the l2 sweep and its far point, dram.
  const std::size_t total = 1 + static_cast<std::size_t>(core::compute_ceiling_count()) + 2 +
                            plan.l2_sizes.size() + 1 + plan.dram_patterns.size() +
                            (plan.dram_prefetch_256 ? 1 : 0);
  std::size_t done = 0;
  // One step: its progress line, then `measure`; a failure goes to `skipped` as
  // "<name>: <reason>" when there is one (an interruption never does).
  const auto step = [&](const std::string& name, auto&& measure) {
    // The warm-up comes first; every later step is one of the device's ceilings.
    if (progress) progress(done, total, done == 0 ? name : "device " + name);
    ++done;
    run_or_skip(skipped, name, measure);
  };
  const double launch = plan.launch_seconds;
  // An idle GPU runs at a few hundred MHz, and each kernel's first launch loads its
  // module: a warm-up brings the clock up before anything is timed.
  step("warm-up (clock)", [&] {
    LaunchScaling scaling{launch};
    measure_device_clock_ghz<Space>(plan.threads, compute_inner(plan, "fp32"),
                                    4.0 * plan.sampling.min_sample_seconds, &scaling);
  });
  // Highest precision first, as the file lists them. The nofma kernel starts from the
  // count the fma one was scaled to.
  for (const core::Precision& p : core::kPrecisions) {
    if (!p.ceilings) continue;
    const std::string precision(p.name);
    step(precision + "_fma", [&] {
      LaunchScaling scaling{launch};
      out.compute.push_back(measure_device_compute_fma<Space>(
          precision, plan.threads, compute_inner(plan, precision), plan.sampling, &scaling));
      plan.compute_inner[precision] = scaling.used;
    });
    step(precision + "_nofma", [&] {
      LaunchScaling scaling{launch};
      out.compute.push_back(measure_device_compute_nofma<Space>(
          precision, plan.threads, compute_inner(plan, precision), plan.sampling, &scaling));
    });
  }
  step("l1", [&] {
    LaunchScaling scaling{launch};
    out.bandwidth.push_back(
        measure_device_l1<Space>(plan.l1_threads, plan.l1_inner, plan.sampling, &scaling));
    plan.l1_inner = scaling.used;
  });
  step("shared", [&] {
    if (plan.teams <= 0) throw Error(plan.shared_skip);
    LaunchScaling scaling{launch};
    out.bandwidth.push_back(measure_device_shared<Space>(
        plan.teams, plan.team_size, plan.shared_inner, plan.sampling, &scaling));
    plan.shared_inner = scaling.used;
  });
  // l2: the sweep, then the far point; each starts from the passes the one before ran
  // with, scaled by the sizes. The plan keeps the passes over the sweep's largest set.
  const double stream_launch = plan.stream_launch_seconds;
  std::int64_t last_passes = plan.l2_passes;
  std::uint64_t last_bytes = plan.l2_sizes.empty() ? 0 : plan.l2_sizes.back();
  const auto l2_step = [&](const char* level, std::uint64_t bytes) {
    step(std::string(level) + " read " + mib(bytes) + " MiB", [&] {
      LaunchScaling scaling{stream_launch};
      const double scale = static_cast<double>(last_bytes) / static_cast<double>(bytes);
      const std::int64_t passes =
          std::max<std::int64_t>(1, std::llround(static_cast<double>(last_passes) * scale));
      out.bandwidth.push_back(measure_device_stream<Space>(level, Pattern::read, bytes, passes,
                                                           plan.sampling, &scaling));
      last_passes = scaling.used;
      last_bytes = bytes;
      if (std::string(level) == "l2" && bytes == plan.l2_sizes.back())
        plan.l2_passes = scaling.used;
    });
  };
  for (std::uint64_t bytes : plan.l2_sizes) l2_step("l2", bytes);
  l2_step("l2-far", plan.l2_far_bytes);
  for (Pattern p : plan.dram_patterns)
    step(std::string("dram ") + pattern_name(p), [&] {
      LaunchScaling scaling{stream_launch};
      out.bandwidth.push_back(measure_device_stream<Space>(
          "dram", p, plan.dram_bytes, plan.dram_passes, plan.sampling, &scaling));
      if (p == Pattern::read) plan.dram_passes = scaling.used;
    });
  // The read again with the prefetch hint, beside the plain one: which is faster is the
  // GPU's to say (its point is kept in the sweeps, never the ceiling). The plain read-only
  // load stays dram's own: gpu-l2-cache read 0.953 of the H200's peak with plain
  // ld.global.nc loads, so the hint is not what the ceiling lacked.
  if (plan.dram_prefetch_256)
    step("dram-256b read", [&] {
      LaunchScaling scaling{stream_launch};
      out.bandwidth.push_back(measure_device_stream<Space>(
          "dram-256b", Pattern::read, plan.dram_bytes, plan.dram_passes, plan.sampling, &scaling));
    });
  if (progress) progress(total, total, "done");
  return out;
}

template core::Sweeps run_device_sweeps<Kokkos::DefaultHostExecutionSpace>(
    DevicePlan&, const Progress&, std::vector<std::string>*);
#if defined(KOKKOS_ENABLE_CUDA)
template core::Sweeps run_device_sweeps<Kokkos::Cuda>(DevicePlan&, const Progress&,
                                                      std::vector<std::string>*);
#endif

}  // namespace rooftop::microbench
