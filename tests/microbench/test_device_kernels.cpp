// The device ceilings' kernels, each at a small size with its answer checked. Compiled
// twice: under the host space (ctest label unit, every build) and, with
// ROOFTOP_DEVICE_TESTS, under the default device space (label device, needs a GPU).

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>

#include "device/kernels.hpp"
#include "device/timing.hpp"
#include "rooftop/ceilings/device_peaks.hpp"
#include "rooftop/ceilings/extract.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/microbench/device.hpp"

namespace rooftop::microbench {
namespace {

#if ROOFTOP_TEST_ON_DEVICE
using Space = Kokkos::DefaultExecutionSpace;
constexpr bool kOnDevice = true;
#else
using Space = Kokkos::DefaultHostExecutionSpace;
constexpr bool kOnDevice = false;
#endif
using Memory = Space::memory_space;
using namespace device;

core::Sampling tiny() {
  core::Sampling t;
  t.samples = 2;
  t.min_sample_seconds = 0.001;
  return t;
}

// Threads of one small launch: a few warps on a GPU, every host thread and more.
std::int64_t small_threads() { return kOnDevice ? 4096 : 2 * Space().concurrency() + 3; }

void expect_samples(const std::vector<double>& seconds, const std::vector<double>& rates,
                    const std::vector<double>& clocks) {
  ASSERT_EQ(seconds.size(), 2u);
  ASSERT_EQ(rates.size(), 2u);
  ASSERT_EQ(clocks.size(), 2u);  // one SM clock per sample
  for (double r : rates) EXPECT_GT(r, 0.0);
  for (double c : clocks) {
    if (kOnDevice) {
      // Small launches leave most SMs idle, SM 0 perhaps too: only a sane range here.
      EXPECT_GT(c, 0.0);
      EXPECT_LT(c, 5.0);
    } else {
      EXPECT_DOUBLE_EQ(c, 1.0);  // the host probe reads one clock twice
    }
  }
}

// ---- compute -----------------------------------------------------------------------

TEST(DeviceCompute, EveryPrecisionAndModeMeasuresAndChecks) {
  for (const char* precision : {"fp64", "fp32"}) {
    SCOPED_TRACE(precision);
    const auto fma = measure_device_compute_fma<Space>(precision, small_threads(), 2, tiny());
    EXPECT_EQ(fma.mode, "fma");
    EXPECT_EQ(fma.flops_per_element, 2 * kComputeSteps * 2);
    EXPECT_EQ(fma.ilp, kComputeChains);
    expect_samples(fma.seconds, fma.values, fma.clock_ghz);
    const auto nofma = measure_device_compute_nofma<Space>(precision, small_threads(), 2, tiny());
    EXPECT_EQ(nofma.mode, "nofma");
    expect_samples(nofma.seconds, nofma.values, nofma.clock_ghz);
  }
  EXPECT_THROW(measure_device_compute_fma<Space>("fp16", 64, 1, tiny()), Error);
  EXPECT_THROW(measure_device_compute_nofma<Space>("fp64", 0, 1, tiny()), Error);
}

// Every step runs: with alpha = 1 each fused step adds beta exactly, and with gamma != 1 /
// alpha the unfused multiplying chains scale by (alpha * gamma) per step.
template <bool kFma>
auto run_compute_kernel(double alpha, double beta, double gamma, std::int64_t items,
                        std::int64_t inner) {
  DeviceComputeKernel<Space, double, kFma> k;
  k.x = Kokkos::View<double*, Memory>("x", kComputeChains * items);
  Kokkos::deep_copy(k.x, 0.75);
  k.inner = inner;
  k.alpha = alpha;
  k.beta = beta;
  k.gamma = gamma;
  Kokkos::parallel_for("test_compute", Kokkos::RangePolicy<Space>(0, items), k);
  Space().fence();
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.x);
}

TEST(DeviceCompute, FusedKernelRunsEveryStep) {
  const std::int64_t items = 37, inner = 3;
  auto x = run_compute_kernel<true>(1.0, 0.25, 1.0, items, inner);
  for (std::int64_t i = 0; i < kComputeChains * items; ++i)
    ASSERT_EQ(x(i), 0.75 + 0.25 * kComputeSteps * inner) << i;
}

TEST(DeviceCompute, UnfusedKernelRunsEveryStep) {
  const std::int64_t items = 37, inner = 2;
  auto x = run_compute_kernel<false>(0.5, 0.25, 4.0, items, inner);
  for (std::int64_t i = 0; i < kComputeChains * items; ++i) {
    const bool multiplies = i % kComputeChains < kComputeChains / 2;
    const double want = multiplies ? std::ldexp(0.75, kComputeSteps * inner) : 0.75;
    ASSERT_EQ(x(i), want) << i;
  }
}

// a * a + c tells an FMA from a multiply and an add by its rounding.
TEST(DeviceCompute, UnfusedUnitNeverFuses) {
  EXPECT_EQ(fusion_probe_unfused_unit<Space>("fp64"), 0.0);
  EXPECT_EQ(fusion_probe_unfused_unit<Space>("fp32"), 0.0);
}

TEST(DeviceCompute, FusedUnitFusesWhereTheHardwareCan) {
  const double fp64 = fusion_probe_fused_unit<Space>("fp64");
  const double fp32 = fusion_probe_fused_unit<Space>("fp32");
  if (kOnDevice) {
    EXPECT_EQ(fp64, std::ldexp(1.0, -60));
    EXPECT_EQ(fp32, std::ldexp(1.0, -26));
  } else {
    // A host contracts where its compiler targets FMA units; either way only the two
    // exact answers are possible.
    EXPECT_TRUE(fp64 == 0.0 || fp64 == std::ldexp(1.0, -60)) << fp64;
    EXPECT_TRUE(fp32 == 0.0 || fp32 == std::ldexp(1.0, -26)) << fp32;
  }
}

// ---- l1 and shared --------------------------------------------------------------------

TEST(DeviceL1, MeasuresAndChecksEveryItem) {
  const auto p = measure_device_l1<Space>(small_threads(), 3, tiny());
  EXPECT_EQ(p.pattern, "l1:read");
  EXPECT_EQ(p.working_set_bytes, 32u * 1024);
  expect_samples(p.seconds, p.values, p.clock_ghz);
}

TEST(DeviceL1, ClosedFormIsTheSumOfThePacksRead) {
  // Item 0, one step: packs 0, 256, ..., 1792, each 16p + 6.
  EXPECT_EQ(DeviceL1Kernel<Space>::expected(0, 1),
            16u * 256 * (0 + 1 + 2 + 3 + 4 + 5 + 6 + 7) + 48u);
  EXPECT_EQ(DeviceL1Kernel<Space>::expected(0, 3), 3u * DeviceL1Kernel<Space>::expected(0, 1));
  // Item 259 reads from pack 3, as item 3 does.
  EXPECT_EQ(DeviceL1Kernel<Space>::expected(259, 1), DeviceL1Kernel<Space>::expected(3, 1));
  EXPECT_EQ(DeviceL1Kernel<Space>::expected(3, 1),
            DeviceL1Kernel<Space>::expected(0, 1) + 8u * 16 * 3);
}

TEST(DeviceShared, MeasuresAndChecksEveryThread) {
  const int team = kOnDevice ? kSharedMaxTeam : 1;
  const auto p = measure_device_shared<Space>(3, team, 3, tiny());
  EXPECT_EQ(p.pattern, "shared:read");
  EXPECT_EQ(p.working_set_bytes, 16u * 1024);
  expect_samples(p.seconds, p.values, p.clock_ghz);
  EXPECT_THROW(measure_device_shared<Space>(0, team, 1, tiny()), Error);
}

TEST(DeviceShared, ClosedFormIsTheSumOfThePacksRead) {
  // Rank 0, one step: packs 0, 256, 512, 768; rank 300 reads from pack 44.
  EXPECT_EQ(DeviceSharedKernel<Space>::expected(0, 1), 16u * (0 + 256 + 512 + 768) + 24u);
  EXPECT_EQ(DeviceSharedKernel<Space>::expected(300, 2),
            2u * (DeviceSharedKernel<Space>::expected(0, 1) + 4u * 16 * 44));
}

// ---- l2 and dram ------------------------------------------------------------------------

TEST(DeviceStream, EveryLevelAndPatternMeasuresAndChecks) {
  const std::uint64_t chunk = kChunkPacks * sizeof(Pack16);  // 256 KiB
  const struct {
    const char* level;
    Pattern pattern;
    int streams;
  } cases[] = {{"l2", Pattern::read, 1},       {"l2-far", Pattern::read, 1},
               {"dram", Pattern::read, 1},     {"dram", Pattern::write, 1},
               {"dram", Pattern::copy, 2},     {"dram", Pattern::triad, 3},
               {"dram-256b", Pattern::read, 1}};
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.level) + " " + pattern_name(c.pattern));
    const auto p = measure_device_stream<Space>(c.level, c.pattern, 2 * chunk + 100, 2, tiny());
    EXPECT_EQ(p.pattern, std::string(c.level) + ":" + pattern_name(c.pattern));
    EXPECT_EQ(p.working_set_bytes, 2 * chunk * c.streams);  // whole chunks
    expect_samples(p.seconds, p.values, p.clock_ghz);
  }
  EXPECT_THROW(measure_device_stream<Space>("l2", Pattern::write, chunk, 1, tiny()), Error);
  EXPECT_THROW(measure_device_stream<Space>("dram", Pattern::rmw, chunk, 1, tiny()), Error);
  EXPECT_THROW(measure_device_stream<Space>("dram-256b", Pattern::copy, chunk, 1, tiny()), Error);
  EXPECT_THROW(measure_device_stream<Space>("l3", Pattern::read, chunk, 1, tiny()), Error);
}

TEST(DeviceStream, ItemsOfAChunkInterleaveAndCoverIt) {
  // 256 items cover one 256 KiB chunk, consecutive items read consecutive packs, and
  // every pack of the chunk is read exactly once.
  std::vector<int> seen(kChunkPacks, 0);
  for (std::int64_t j = 0; j < kItemsPerChunk; ++j)
    for (int g = 0; g < kGroups; ++g)
      for (int u = 0; u < kUnroll; ++u) ++seen[static_cast<std::size_t>(stream_pack(j, g, u))];
  for (int n : seen) ASSERT_EQ(n, 1);
  EXPECT_EQ(stream_pack(1, 0, 0), stream_pack(0, 0, 0) + 1);
  EXPECT_EQ(stream_pack(kItemsPerChunk, 0, 0), kChunkPacks);
}

// ---- clock -------------------------------------------------------------------------------

TEST(DeviceClock, ProbeMeasuresTheSmClock) {
  // A full wave on the device, so that SM 0 is busy while its cycles are counted.
  const double ghz =
      measure_device_clock_ghz<Space>(kOnDevice ? Space().concurrency() : small_threads(), 4, 0.01);
  if (kOnDevice) {
    EXPECT_GT(ghz, 0.1);
    EXPECT_LT(ghz, 5.0);
  } else {
    EXPECT_DOUBLE_EQ(ghz, 1.0);
  }
}

// ---- the whole plan, and its ceilings ------------------------------------------------------

TEST(DeviceSweeps, TinyPlanGivesEveryDeviceCeiling) {
  DevicePlan plan;
  plan.threads = plan.l1_threads = small_threads();
  plan.team_size = kOnDevice ? kSharedMaxTeam : 1;
  plan.teams = 2;
  const std::uint64_t chunk = kChunkPacks * sizeof(Pack16);
  plan.l2_sizes = {chunk, 2 * chunk};
  plan.l2_far_bytes = plan.dram_bytes = chunk;
  plan.dram_patterns = {Pattern::read, Pattern::write, Pattern::copy, Pattern::triad};
  plan.sampling = tiny();
  std::size_t last_total = 0, calls = 0;
  const core::Sweeps s =
      run_device_sweeps<Space>(plan, [&](std::size_t, std::size_t total, const std::string&) {
        last_total = total;
        ++calls;
      });
  EXPECT_EQ(s.compute.size(), 4u);
  // l1, shared, 2 x l2, l2-far, 4 x dram, dram-256b
  ASSERT_EQ(s.bandwidth.size(), 10u);
  EXPECT_EQ(calls, last_total + 1);
  EXPECT_EQ(s.bandwidth[2].pattern, "l2:read");
  EXPECT_EQ(s.bandwidth[3].pattern, "l2:read");
  EXPECT_EQ(s.bandwidth[3].working_set_bytes, 2 * chunk);
  EXPECT_EQ(s.bandwidth[4].pattern, "l2-far:read");
  EXPECT_EQ(s.bandwidth[9].pattern, "dram-256b:read");

  core::Machine m;
  m.execution_space = "Cuda";
  m.compute_capability = "9.0";
  m.cores = 2;
  m.clock_ghz = 1.5;
  m.memory_clock_ghz = 2.0;
  m.memory_bus_bits = 64;
  std::vector<std::string> skipped;
  const auto cs = ceilings::extract_ceilings(m, s, &skipped);
  EXPECT_TRUE(skipped.empty());
  std::vector<std::string> names;
  for (const auto& c : cs) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"fp64_fma", "fp64_nofma", "fp32_fma", "fp32_nofma",
                                             "l1", "shared", "l2", "dram"}));
  // The l2 ceiling is one of the sweep's two points, with its working set.
  EXPECT_TRUE(cs[6].working_set_bytes == chunk || cs[6].working_set_bytes == 2 * chunk);
}

// A step that cannot run is skipped with its reason, and every other step still runs;
// without a list to record it in, the failure is thrown.
TEST(DeviceSweeps, AStepThatFailsIsSkippedNotTheRun) {
  DevicePlan plan;
  plan.threads = plan.l1_threads = small_threads();
  plan.teams = 0;
  plan.shared_skip = "no team shape fits";
  plan.l2_sizes = {kChunkPacks * sizeof(Pack16)};
  plan.l2_far_bytes = plan.dram_bytes = kChunkPacks * sizeof(Pack16);
  plan.dram_patterns = {Pattern::read};
  plan.dram_prefetch_256 = false;
  plan.sampling = tiny();
  plan.launch_seconds = 0.0;
  std::vector<std::string> skipped;
  const core::Sweeps s = run_device_sweeps<Space>(plan, nullptr, &skipped);
  EXPECT_EQ(skipped, std::vector<std::string>{"shared: no team shape fits"});
  EXPECT_EQ(s.compute.size(), 4u);
  EXPECT_EQ(s.bandwidth.size(), 4u);  // l1, l2, l2-far, dram read
  EXPECT_THROW(run_device_sweeps<Space>(plan, nullptr), Error);
}

// Repetitions that would leave launches of microseconds (an unknown compute capability,
// a nominal clock of 0: every first guess is 1) are scaled from timed launches, and the
// plan then holds the counts the samples ran with. (The scaling itself, against launches
// of known duration: ScaledCountConvergesOnTheLaunchTime; a busy host can make any one
// near-empty launch last as long as the target.)
TEST(DeviceSweeps, RepetitionsAreScaledToTheLaunchTime) {
  core::Machine m;
  m.execution_space = "Cuda";
  m.compute_capability = "11.0";
  m.cores = 2;
  m.caches = {{"l2", 1u << 20, 4096}};
  const DeviceLimits limits{2048, 1024, 233472, 49152, 1024};
  DevicePlan plan = make_device_plan(m, limits, small_threads(), 1u << 30, true);
  EXPECT_EQ(plan.compute_inner.at("fp64"), 1);
  EXPECT_EQ(plan.l1_inner, 1);
  EXPECT_EQ(plan.l2_passes, 1);
  EXPECT_EQ(plan.dram_passes, 1);
  EXPECT_DOUBLE_EQ(plan.launch_seconds, 0.002);
  EXPECT_DOUBLE_EQ(plan.stream_launch_seconds, 0.01);
  // Tiny sizes for this machine; 20 ms launches, above most of a busy host's noise.
  plan.launch_seconds = plan.stream_launch_seconds = 0.02;
  plan.teams = 2;
  plan.team_size = kOnDevice ? kSharedMaxTeam : 1;
  plan.threads = plan.l1_threads = small_threads();
  plan.l2_sizes = {kChunkPacks * sizeof(Pack16)};
  plan.l2_far_bytes = plan.dram_bytes = kChunkPacks * sizeof(Pack16);
  plan.sampling = tiny();
  std::vector<std::string> skipped;
  const core::Sweeps s = run_device_sweeps<Space>(plan, nullptr, &skipped);
  EXPECT_TRUE(skipped.empty()) << skipped.front();
  // Every count the samples ran with is back in the plan (0 where none came back).
  const std::int64_t counts[] = {plan.compute_inner.at("fp64"),
                                 plan.compute_inner.at("fp32"),
                                 plan.l1_inner,
                                 plan.shared_inner,
                                 plan.l2_passes,
                                 plan.dram_passes};
  for (std::int64_t n : counts) EXPECT_GE(n, 1);
  EXPECT_GT(*std::max_element(std::begin(counts), std::end(counts)), 1);
  ASSERT_EQ(s.compute.size(), 4u);
  EXPECT_EQ(s.compute[0].flops_per_element, 2 * kComputeSteps * plan.compute_inner.at("fp64"));
  EXPECT_EQ(s.compute[2].flops_per_element, 2 * kComputeSteps * plan.compute_inner.at("fp32"));
}

// The calibration loop against a launch whose duration is known: 200 us per repetition
// (sleeping only ever lasts longer, by about the same on a busy host whatever the count).
TEST(DevicePlan, ScaledCountConvergesOnTheLaunchTime) {
  std::vector<std::int64_t> launched;
  const auto launch = [&](std::int64_t count) {
    launched.push_back(count);
    std::this_thread::sleep_for(std::chrono::microseconds(200 * count));
  };
  LaunchScaling scaling{0.1};
  const std::int64_t used = scaled_count<Space>(1, tiny(), &scaling, launch);
  EXPECT_EQ(used, scaling.used);
  // 500 repetitions last 100 ms; a longer sleep gives a little fewer.
  EXPECT_GE(used, 250);
  EXPECT_LE(used, 501);
  EXPECT_LE(launched.size(), 9u);  // one untimed launch, at most four timed pairs
  // Without scaling, the count as given and nothing launched.
  launched.clear();
  EXPECT_EQ(scaled_count<Space>(7, tiny(), nullptr, launch), 7);
  EXPECT_TRUE(launched.empty());
}

TEST(DevicePlan, ScaledRepetitions) {
  // Within half to four times the target: kept.
  EXPECT_EQ(scaled_repetitions(10, 0.002, 0.002), 10);
  EXPECT_EQ(scaled_repetitions(10, 0.0011, 0.002), 10);
  EXPECT_EQ(scaled_repetitions(10, 0.0079, 0.002), 10);
  // A 10 us launch grows 200 times; a 100 ms one shrinks.
  EXPECT_EQ(scaled_repetitions(1, 10e-6, 0.002), 200);
  EXPECT_EQ(scaled_repetitions(3, 10e-6, 0.002), 600);
  EXPECT_EQ(scaled_repetitions(100, 0.1, 0.002), 2);
  EXPECT_EQ(scaled_repetitions(1, 0.1, 0.002), 1);
  // At most 1000 times more in one step, also when the launch timed as nothing.
  EXPECT_EQ(scaled_repetitions(2, 1e-9, 0.002), 2000);
  EXPECT_EQ(scaled_repetitions(2, 0.0, 0.002), 2000);
  // No target: the count as given (at least 1).
  EXPECT_EQ(scaled_repetitions(7, 1e-6, 0.0), 7);
  EXPECT_EQ(scaled_repetitions(0, 1e-6, 0.0), 1);
}

// The shared kernel's teams fit every supported GPU: whole warps, within the block and
// SM limits, at least the launch bounds' two blocks of them resident (Kokkos refuses
// the launch otherwise), and as many threads per SM as the scratch allows.
TEST(DevicePlan, SharedTeamsFitEveryComputeCapability) {
  const struct {
    const char* cc;
    DeviceLimits limits;
    int teams, size;
  } gpus[] = {
      {"7.5", {1024, 1024, 65536, 49152, 0}, 3, 320},
      {"8.0", {2048, 1024, 167936, 49152, 1024}, 4, 512},
      {"8.6", {1536, 1024, 102400, 49152, 1024}, 4, 384},
      {"8.7", {2048, 1024, 167936, 49152, 1024}, 4, 512},
      {"8.9", {1536, 1024, 102400, 49152, 1024}, 4, 384},
      {"9.0", {2048, 1024, 233472, 49152, 1024}, 4, 512},
      {"10.0", {2048, 1024, 233472, 49152, 1024}, 4, 512},
      {"12.0", {1536, 1024, 102400, 49152, 1024}, 4, 384},
  };
  for (const auto& g : gpus) {
    SCOPED_TRACE(g.cc);
    const TeamShape t = shared_team_shape(g.limits);
    EXPECT_EQ(t.teams_per_sm, g.teams);
    EXPECT_EQ(t.team_size, g.size);
    EXPECT_TRUE(t.why_not.empty());
    EXPECT_EQ(t.team_size % 32, 0);
    EXPECT_LE(t.team_size, g.limits.threads_per_block);
    EXPECT_LE(t.teams_per_sm * t.team_size, g.limits.threads_per_sm);
    EXPECT_GE(t.teams_per_sm, kSharedBoundBlocks);
    // Scratch, Kokkos's 8 B per thread and the driver's reservation, per team.
    const std::uint64_t team_bytes = DeviceSharedKernel<Space>::scratch_bytes() +
                                     8u * (t.team_size + 2) + 8 +
                                     g.limits.reserved_shared_per_block;
    EXPECT_LE(t.teams_per_sm * team_bytes, g.limits.shared_per_sm);
    EXPECT_LE(team_bytes, g.limits.shared_per_block + g.limits.reserved_shared_per_block);
  }
  // Too little shared memory for two teams: no shape, and the reason.
  const TeamShape none = shared_team_shape({2048, 1024, 32768, 49152, 0});
  EXPECT_EQ(none.teams_per_sm, 0);
  EXPECT_NE(none.why_not.find("32768 B of shared memory per SM"), std::string::npos)
      << none.why_not;
}

TEST(DeviceProperties, DriverAgainstTheRuntime) {
  EXPECT_TRUE(driver_check(13000, 13000).message.empty());
  EXPECT_TRUE(driver_check(13010, 13000).message.empty());
  const DriverCheck none = driver_check(0, 13000);
  EXPECT_TRUE(none.fatal);
  EXPECT_NE(none.message.find("no NVIDIA driver"), std::string::npos);
  const DriverCheck major = driver_check(12080, 13000);
  EXPECT_TRUE(major.fatal);
  EXPECT_NE(major.message.find("supports CUDA 12.8, older than the CUDA 13.0 runtime"),
            std::string::npos)
      << major.message;
  const DriverCheck minor = driver_check(13000, 13010);
  EXPECT_FALSE(minor.fatal);
  EXPECT_NE(minor.message.find("minor-version compatibility"), std::string::npos);
}

TEST(DeviceProperties, MigSlicesAreNamedSo) {
  EXPECT_EQ(device_name("NVIDIA H100 80GB HBM3", false), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(device_name("NVIDIA H100 80GB HBM3", true), "NVIDIA H100 80GB HBM3 MIG");
  EXPECT_EQ(device_name("NVIDIA H100 80GB HBM3 MIG 1g.10gb", true),
            "NVIDIA H100 80GB HBM3 MIG 1g.10gb");
}

// The plan for an H100 SXM as its properties read (132 SMs, 1.98 GHz, 50 MiB L2, HBM3
// at 2.619 GHz on 5120 bits): launches of about 2 ms at the peaks.
TEST(DevicePlan, SizedFromTheGpuProperties) {
  core::Machine m;
  m.execution_space = "Cuda";
  m.compute_capability = "9.0";
  m.cores = 132;
  m.nominal_clock_ghz = 1.98;
  m.memory_clock_ghz = 2.619;
  m.memory_bus_bits = 5120;
  m.caches = {{"l2", 50u * 1024 * 1024, 270336}};
  const std::uint64_t GiB = 1024u * 1024 * 1024;
  const DeviceLimits h100{2048, 1024, 233472, 49152, 1024};
  const DevicePlan p = make_device_plan(m, h100, 132 * 2048, 80 * GiB, false);
  EXPECT_EQ(p.threads, 270336);
  EXPECT_EQ(p.teams, 528);  // 4 teams of 512 per SM
  EXPECT_EQ(p.team_size, 512);
  EXPECT_EQ(p.compute_inner.at("fp64"), 242);  // 2 ms x 33.45 TFLOP/s / (270336 x 8 x 64 x 2)
  EXPECT_EQ(p.compute_inner.at("fp32"), 484);
  EXPECT_EQ(p.l1_threads, 132 * 1024);  // one wave at 64 registers
  EXPECT_EQ(p.l1_inner, 3868);          // 2 ms x 33.45 TB/s / (135168 x 8 x 16 B)
  const std::uint64_t KiB = 1024;
  // L2 / 64 (3 whole chunks of 256 KiB) to L2 / 2 (100 chunks), then 0.8 x L2.
  EXPECT_EQ(p.l2_sizes, (std::vector<std::uint64_t>{768 * KiB, 1536 * KiB, 3 * 1024 * KiB,
                                                    6400 * KiB, 12800 * KiB, 25600 * KiB}));
  EXPECT_EQ(p.l2_far_bytes, 160u * 256 * KiB);
  EXPECT_EQ(p.l2_passes, 6381);                // 10 ms at 64 B/clock/SM over 25 MiB
  EXPECT_EQ(p.dram_bytes, 400u * 1024 * KiB);  // 8 x L2
  EXPECT_EQ(p.dram_passes, 80);                // 10 ms at 3.35 TB/s
  EXPECT_EQ(p.dram_patterns.size(), 4u);
  EXPECT_TRUE(p.dram_prefetch_256);
  EXPECT_EQ(p.sampling.samples, 5);
  const std::string g = launch_geometry(p);
  EXPECT_NE(g.find("270336 threads"), std::string::npos) << g;
  EXPECT_NE(g.find("135168 threads (one wave), 8 x 16-B loads"), std::string::npos) << g;
  EXPECT_NE(g.find("528 teams x 512 threads"), std::string::npos) << g;
  EXPECT_NE(g.find("over 0.75 / 1.5 / 3 / 6.25 / 12.5 / 25 MiB"), std::string::npos) << g;
  EXPECT_NE(g.find("dram-256b"), std::string::npos) << g;

  // An L40S (142 SMs of 1536 threads, 100 KiB of shared memory): 4 teams of 384.
  m.cores = 142;
  const DevicePlan l40s =
      make_device_plan(m, {1536, 1024, 102400, 49152, 1024}, 142 * 1536, 40 * GiB, false);
  EXPECT_EQ(l40s.teams, 568);
  EXPECT_EQ(l40s.team_size, 384);

  // Little free memory bounds the HBM arrays; --quick trims patterns and samples.
  const DevicePlan q = make_device_plan(m, h100, 132 * 2048, 2 * GiB, true);
  EXPECT_EQ(q.dram_bytes, 256u * 1024 * KiB);
  EXPECT_EQ(q.dram_patterns.size(), 2u);
  EXPECT_FALSE(q.dram_prefetch_256);
  EXPECT_EQ(q.sampling.samples, 3);
}

#if ROOFTOP_TEST_ON_DEVICE
TEST(DeviceProperties, DescribeTheGpu) {
  const core::Machine m = describe_device();
  EXPECT_EQ(m.execution_space, "Cuda");
  EXPECT_FALSE(m.gpu_name.empty());
  EXPECT_NE(m.compute_capability.find('.'), std::string::npos);
  EXPECT_GT(m.cores, 0);
  EXPECT_EQ(m.threads, Space().concurrency());
  ASSERT_EQ(m.caches.size(), 1u);
  EXPECT_GT(m.caches[0].bytes, 0u);
  EXPECT_GT(m.memory_bytes, 0u);
  EXPECT_GT(m.memory_clock_ghz, 0.0);
  EXPECT_GT(m.memory_bus_bits, 0);
  EXPECT_GT(m.nominal_clock_ghz, 0.0);
  EXPECT_FALSE(m.cuda_version.empty());
  EXPECT_EQ(m.device_arch.rfind("sm_", 0), 0u);
  EXPECT_GT(device_free_bytes(), 0u);
  const DevicePlan plan =
      make_device_plan(m, device_limits(), Space().concurrency(), device_free_bytes(), true);
  EXPECT_GT(plan.teams, 0) << plan.shared_skip;
  EXPECT_GE(plan.dram_bytes, 256u * 1024 * 1024);
  EXPECT_GE(plan.dram_bytes, 8 * m.caches[0].bytes);
  EXPECT_EQ(plan.l1_threads % 1024, 0);
}
#endif

}  // namespace
}  // namespace rooftop::microbench

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
