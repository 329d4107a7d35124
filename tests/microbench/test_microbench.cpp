// rooftop_microbench: every kernel at a tiny size with its result checked, hardware
// discovery on a fake sysfs tree and the sweep plan.

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "rooftop/ceilings/extract.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/microbench/host.hpp"
#include "rooftop/microbench/measure.hpp"
#include "rooftop/microbench/sweep.hpp"
#include "support.hpp"

namespace rooftop::microbench {
namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
using ceilings::core_model;
using ceilings::CoreModel;
using rooftop::testing::KiB;
using rooftop::testing::MiB;
using rooftop::testing::TempDir;

// Short samples: these tests check results and bookkeeping, not speed.
core::Sampling tiny_sampling() {
  core::Sampling t;
  t.samples = 2;
  t.min_sample_seconds = 1e-4;
  return t;
}

// The work one sample did, in units of (elements x per-element cost): must be a whole
// number of repetitions, the same for every sample.
void expect_whole_repetitions(const std::vector<double>& rates, const std::vector<double>& seconds,
                              double per_repetition) {
  ASSERT_EQ(rates.size(), seconds.size());
  for (std::size_t i = 0; i < rates.size(); ++i) {
    SCOPED_TRACE("sample " + std::to_string(i));
    const double reps = rates[i] * 1e9 * seconds[i] / per_repetition;
    EXPECT_GE(reps, 1.0 - 1e-9);
    EXPECT_NEAR(reps, std::round(reps), 1e-6 * reps);
    if (i > 0) {
      const double first = rates[0] * 1e9 * seconds[0] / per_repetition;
      EXPECT_NEAR(reps, first, 1e-6 * first) << "samples did different amounts of work";
    }
  }
}

// ---------------------------------------------------------------------------------------
// compute kernels

struct ComputeCase {
  std::string precision;
  bool fma;
  int flops;
  int ilp;
};

std::vector<ComputeCase> all_compute_cases() {
  std::vector<ComputeCase> out;
  for (const char* precision : {"fp64", "fp32"})
    for (bool fma : {true, false}) {
      for (int flops : kFlopsPerElement) out.push_back({precision, fma, flops, kDefaultIlp});
      for (int ilp : compute_ilp_choices())
        if (ilp != kDefaultIlp) out.push_back({precision, fma, 1024, ilp});
    }
  return out;
}

// The chain counts fit the vector registers beside the kernel's constants and reach
// latency x pipes of the cores we know: 8 for two 4-cycle FMA pipes, 12 for Zen's
// unfused mix (two 3-cycle multiply and two 3-cycle add pipes).
TEST(IlpChoices, FitTheRegistersAndCoverTheKnownCores) {
  EXPECT_EQ(host_ilp_choices(16), (std::array<int, 4>{8, 10, 12, 14}));
  EXPECT_EQ(host_ilp_choices(32), (std::array<int, 4>{8, 12, 16, 24}));
  EXPECT_EQ(host_ilp_choices(12), (std::array<int, 4>{8, 10, 0, 0}));
  const std::vector<int> built = compute_ilp_choices();
  ASSERT_GE(built.size(), 3u);
  EXPECT_EQ(built.front(), kDefaultIlp);
  EXPECT_GE(built.back(), 12);
}

class ComputeKernels : public ::testing::TestWithParam<ComputeCase> {};

TEST_P(ComputeKernels, ResultCheckedAndRatesPositive) {
  const ComputeCase& k = GetParam();
  const std::uint64_t requested = 64 * KiB;
  core::ComputePoint p;
  ASSERT_NO_THROW(
      p = measure_compute<Host>(k.precision, k.fma, k.flops, k.ilp, requested, tiny_sampling()));
  EXPECT_EQ(p.precision, k.precision);
  EXPECT_EQ(p.ilp, k.ilp);
  EXPECT_EQ(p.mode, k.fma ? "fma" : "nofma");
  EXPECT_EQ(p.flops_per_element, k.flops);
  EXPECT_EQ(p.mul_add_ratio, k.flops == 1 ? 0.0 : 1.0);
  EXPECT_GT(p.working_set_bytes, 0u);
  EXPECT_LE(p.working_set_bytes, requested);
  ASSERT_EQ(p.seconds.size(), 2u);
  ASSERT_EQ(p.values.size(), 2u);
  for (std::size_t i = 0; i < p.values.size(); ++i) {
    EXPECT_TRUE(std::isfinite(p.seconds[i]) && p.seconds[i] > 0.0) << p.seconds[i];
    EXPECT_TRUE(std::isfinite(p.values[i]) && p.values[i] > 0.0) << p.values[i];
  }
  const double element_bytes = k.precision == "fp64" ? 8.0 : 4.0;
  const double elements = static_cast<double>(p.working_set_bytes) / element_bytes;
  expect_whole_repetitions(p.values, p.seconds, elements * k.flops);
}

INSTANTIATE_TEST_SUITE_P(
    EveryPrecisionModeAndFlopsPerElement, ComputeKernels, ::testing::ValuesIn(all_compute_cases()),
    [](const ::testing::TestParamInfo<ComputeCase>& info) {
      return info.param.precision + (info.param.fma ? "_fma_" : "_nofma_") +
             std::to_string(info.param.flops) + "_ilp" + std::to_string(info.param.ilp);
    });

TEST(MeasureCompute, UnsupportedFlopsPerElementThrows) {
  EXPECT_THROW(measure_compute<Host>("fp64", true, 3, kDefaultIlp, 64 * KiB, tiny_sampling()),
               rooftop::Error);
}

TEST(MeasureCompute, UnsupportedIlpThrows) {
  EXPECT_THROW(measure_compute<Host>("fp64", true, 8, 5, 64 * KiB, tiny_sampling()),
               rooftop::Error);
}

TEST(MeasureCompute, UnknownPrecisionThrows) {
  EXPECT_THROW(measure_compute<Host>("fp16", false, 8, kDefaultIlp, 64 * KiB, tiny_sampling()),
               rooftop::Error);
}

// The probe is a chain of dependent adds, one cycle each: a compiler that folded or
// reordered the chain would read tens of GHz, a probe timed wrongly far below any core.
// Preemption only ever lowers a reading (a thread descheduled for the whole of a short
// reading on a loaded machine: 0.1 GHz was the best of 10 readings under a sanitizer with
// twice as many busy tasks as CPUs), so the lower bound is on the best of many, and low
// enough to catch only a probe timed wrongly (a unit off by 1000).
TEST(ClockProbe, ReadsAClockACoreCanHave) {
  double best_thread = 0.0, best_sample = 0.0;
  for (int i = 0; i < 30; ++i) {
    const double thread = thread_clock_ghz(2000, 2), sample = sample_clock_ghz();
    EXPECT_LT(thread, 10.0);
    EXPECT_LT(sample, 10.0);
    best_thread = std::max(best_thread, thread);
    best_sample = std::max(best_sample, sample);
  }
  EXPECT_GT(best_thread, 0.02);
  EXPECT_GT(best_sample, 0.02);
}

// ---------------------------------------------------------------------------------------
// bandwidth kernels

struct BandwidthCase {
  Pattern pattern;
  std::uint64_t working_set;
};

std::vector<BandwidthCase> all_bandwidth_cases() {
  std::vector<BandwidthCase> out;
  for (Pattern p : {Pattern::read, Pattern::write, Pattern::copy, Pattern::triad, Pattern::rmw})
    for (std::uint64_t ws : {32 * KiB, 1 * MiB}) out.push_back({p, ws});
  return out;
}

class BandwidthKernels : public ::testing::TestWithParam<BandwidthCase> {};

TEST_P(BandwidthKernels, ResultCheckedAndRatesPositive) {
  const BandwidthCase& k = GetParam();
  core::BandwidthPoint p;
  ASSERT_NO_THROW(p = measure_bandwidth<Host>(k.pattern, k.working_set, tiny_sampling()));
  EXPECT_EQ(p.pattern, pattern_name(k.pattern));
  EXPECT_GT(p.working_set_bytes, 0u);
  EXPECT_LE(p.working_set_bytes, k.working_set);
  const std::uint64_t array_bytes = static_cast<std::uint64_t>(arrays_of(k.pattern)) * sizeof(double);
  EXPECT_EQ(p.working_set_bytes % array_bytes, 0u);
  ASSERT_EQ(p.seconds.size(), 2u);
  ASSERT_EQ(p.values.size(), 2u);
  for (std::size_t i = 0; i < p.values.size(); ++i) {
    EXPECT_TRUE(std::isfinite(p.seconds[i]) && p.seconds[i] > 0.0) << p.seconds[i];
    EXPECT_TRUE(std::isfinite(p.values[i]) && p.values[i] > 0.0) << p.values[i];
  }
  // Bytes per repetition: elements per array x the pattern's bytes per element.
  const double elements = static_cast<double>(p.working_set_bytes / array_bytes);
  expect_whole_repetitions(p.values, p.seconds, elements * bytes_per_element(k.pattern));
}

INSTANTIATE_TEST_SUITE_P(EveryPatternAtTwoWorkingSets, BandwidthKernels,
                         ::testing::ValuesIn(all_bandwidth_cases()),
                         [](const ::testing::TestParamInfo<BandwidthCase>& info) {
                           return std::string(pattern_name(info.param.pattern)) + "_" +
                                  std::to_string(info.param.working_set / KiB) + "KiB";
                         });

TEST(BandwidthCostModel, BytesPerElementMatchTheKernels) {
  EXPECT_EQ(bytes_per_element(Pattern::read), 8);
  EXPECT_EQ(bytes_per_element(Pattern::write), 8);
  EXPECT_EQ(bytes_per_element(Pattern::copy), 16);
  EXPECT_EQ(bytes_per_element(Pattern::triad), 24);
  EXPECT_EQ(bytes_per_element(Pattern::rmw), 16);
}

// ---------------------------------------------------------------------------------------
// hardware discovery on a fake sysfs tree

void write_line(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << text << "\n";
}

void add_cache(const std::filesystem::path& root, int index, int level, const std::string& type,
               const std::string& size, const std::string& shared) {
  const auto dir = root / "cpu0" / "cache" / ("index" + std::to_string(index));
  write_line(dir / "level", std::to_string(level));
  write_line(dir / "type", type);
  write_line(dir / "size", size);
  write_line(dir / "shared_cpu_list", shared);
}

// Two cores: private 48 KiB L1d (and an L1i that must be ignored), private 2 MiB L2,
// 105 MiB L3 shared by both.
void make_fake_sysfs(const std::filesystem::path& root, const std::string& l3 = "107520K") {
  add_cache(root, 0, 1, "Data", "48K", "0");
  add_cache(root, 1, 1, "Instruction", "32K", "0");
  add_cache(root, 2, 2, "Unified", "2048K", "0");
  add_cache(root, 3, 3, "Unified", l3, "0-1");
  for (int cpu = 0; cpu < 2; ++cpu) {
    const auto topo = root / ("cpu" + std::to_string(cpu)) / "topology";
    write_line(topo / "core_id", std::to_string(cpu));
    write_line(topo / "physical_package_id", "0");
  }
}

TEST(ReadCaches, DataAndUnifiedLevelsWithSizesAndSharing) {
  TempDir dir;
  make_fake_sysfs(dir.path());
  const std::vector<core::CacheLevel> caches = read_caches(dir.path().string());
  ASSERT_EQ(caches.size(), 3u);
  EXPECT_EQ(caches[0].name, "l1");
  EXPECT_EQ(caches[0].bytes, 48 * KiB);
  EXPECT_EQ(caches[0].shared_by, 1);
  EXPECT_EQ(caches[1].name, "l2");
  EXPECT_EQ(caches[1].bytes, 2 * MiB);
  EXPECT_EQ(caches[1].shared_by, 1);
  EXPECT_EQ(caches[2].name, "l3");
  EXPECT_EQ(caches[2].bytes, 105 * MiB);
  EXPECT_EQ(caches[2].shared_by, 2);
}

TEST(ReadCaches, MissingTreeGivesNoCaches) {
  TempDir dir;
  EXPECT_TRUE(read_caches((dir.path() / "nothing-here").string()).empty());
}

TEST(DescribeHost, TakesCachesAndCoresFromTheGivenTree) {
  TempDir dir;
  make_fake_sysfs(dir.path());
  const core::Machine m = describe_host(dir.path().string());
  EXPECT_EQ(m.caches.size(), 3u);
  EXPECT_EQ(m.threads, Host().concurrency());
  EXPECT_EQ(m.cores, std::min(2, m.threads));
  EXPECT_GT(m.simd_bits, 0);
  EXPECT_FALSE(m.execution_space.empty());
  EXPECT_FALSE(m.kokkos_version.empty());
#if defined(KOKKOS_ENABLE_CUDA)
  EXPECT_EQ(m.device_arch.rfind("sm_", 0), 0u) << m.device_arch;  // the arch compiled for
#else
  EXPECT_EQ(m.device_arch, "");  // a host build has no device arch
#endif
}

// The core table: pipes at the width the kernels were built for, and no figures where
// the core or its part is not known.
TEST(CoreModel, PipesPerCoreAndWidth) {
  const CoreModel zen3 = core_model("AuthenticAMD", 25, 1, "AMD EPYC 7763", 256);
  EXPECT_EQ(zen3.name, "Zen 3");
  EXPECT_EQ(zen3.fma, 2);
  EXPECT_EQ(zen3.add, 2);
  const CoreModel zen4 = core_model("AuthenticAMD", 25, 17, "AMD EPYC 9654", 512);
  EXPECT_EQ(zen4.name, "Zen 4");
  EXPECT_EQ(zen4.fma, 1) << "a 512-bit FMA takes both 256-bit pipes";
  EXPECT_EQ(core_model("AuthenticAMD", 25, 17, "AMD EPYC 9654", 256).fma, 2);
  EXPECT_EQ(core_model("AuthenticAMD", 26, 2, "AMD EPYC 9575F", 512).fma, 2);  // Zen 5
  EXPECT_EQ(core_model("AuthenticAMD", 23, 49, "AMD EPYC 7742", 256).fma, 2);  // Zen 2
  EXPECT_EQ(core_model("AuthenticAMD", 23, 1, "AMD EPYC 7601", 256).fma, 1);   // Zen 1
  EXPECT_EQ(core_model("GenuineIntel", 6, 0x55, "Intel(R) Xeon(R) Gold 6148 CPU", 512).fma, 2);
  EXPECT_EQ(core_model("GenuineIntel", 6, 0x55, "Intel(R) Xeon(R) Gold 5118 CPU", 512).fma, 1);
  EXPECT_EQ(core_model("GenuineIntel", 6, 0x55, "Intel(R) Xeon(R) Gold 5122 CPU", 512).fma, 2);
  EXPECT_EQ(core_model("GenuineIntel", 6, 0x55, "Intel(R) Xeon(R) Silver 4114 CPU", 512).fma, 1);
  EXPECT_EQ(core_model("GenuineIntel", 6, 0x55, "Intel(R) Xeon(R) Gold 5118 CPU", 256).fma, 2);
  const CoreModel spr = core_model("GenuineIntel", 6, 0x8f, "Intel(R) Xeon(R) Platinum 8480+", 256);
  EXPECT_EQ(spr.fma, 2);
  EXPECT_EQ(spr.add, 1);
  EXPECT_EQ(core_model("GenuineIntel", 6, 0x8f, "Intel(R) Xeon(R) Platinum 8480+", 512).add, 0);
}

TEST(CoreModel, UnknownCoresAndPartsGetNoPeak) {
  const CoreModel guest = core_model("GenuineIntel", 6, 0x55, "Intel Xeon Processor (Cascadelake)", 512);
  EXPECT_EQ(guest.fma, 0);
  EXPECT_NE(guest.assumption.find("unknown"), std::string::npos) << guest.assumption;
  const CoreModel hybrid = core_model("GenuineIntel", 6, 0x97, "12th Gen Intel(R) Core(TM) i9-12900K", 256);
  EXPECT_EQ(hybrid.fma, 0);
  EXPECT_NE(hybrid.assumption.find("unknown core"), std::string::npos) << hybrid.assumption;
  EXPECT_EQ(core_model("HygonGenuine", 24, 1, "Hygon C86", 256).fma, 0);
  EXPECT_EQ(core_model("AuthenticAMD", 25, 1, "AMD EPYC 7763", 128).fma, 0);
}

// ---------------------------------------------------------------------------------------
// the sweep plan

core::Machine fake_machine(const std::filesystem::path& sysfs) {
  core::Machine m;
  m.cores = 2;
  m.threads = 2;
  m.caches = read_caches(sysfs.string());
  return m;
}

void expect_point_in_every_window(const core::Machine& m, const SweepPlan& plan) {
  const std::vector<ceilings::LevelWindow> windows = ceilings::level_windows(m);
  ASSERT_EQ(windows.size(), 4u);
  for (const ceilings::LevelWindow& w : windows) {
    int inside = 0;
    for (const BandwidthRun& r : plan.bandwidth)
      inside += r.working_set_bytes >= w.lo && r.working_set_bytes <= w.hi;
    EXPECT_GT(inside, 0) << "no bandwidth point inside the " << w.name << " window [" << w.lo
                         << ", " << w.hi << "]";
  }
}

TEST(MakePlan, FullPlanHasABandwidthPointInsideEveryLevelWindow) {
  TempDir dir;
  make_fake_sysfs(dir.path());
  const core::Machine m = fake_machine(dir.path());
  expect_point_in_every_window(m, make_plan(m, false));
}

TEST(MakePlan, QuickPlanHasABandwidthPointInsideEveryLevelWindow) {
  TempDir dir;
  make_fake_sysfs(dir.path(), "32768K");  // 8 x 32 MiB: the DRAM window is inside the bound
  const core::Machine m = fake_machine(dir.path());
  expect_point_in_every_window(m, make_plan(m, true));
}

// The largest working set of a plan's bandwidth and compute points.
std::uint64_t largest_working_set(const SweepPlan& plan) {
  std::uint64_t largest = 0;
  for (const BandwidthRun& r : plan.bandwidth) largest = std::max(largest, r.working_set_bytes);
  for (const ComputeRun& r : plan.compute) largest = std::max(largest, r.working_set_bytes);
  return largest;
}

TEST(MakePlan, QuickBoundsItsDramWorkingSetsWhateverTheLastLevelCacheAndFullDoesNot) {
  for (const char* l3 : {"107520K", "491520K"}) {  // 105 MiB, and a guest told of 480 MiB
    SCOPED_TRACE(l3);
    TempDir dir;
    make_fake_sysfs(dir.path(), l3);
    const core::Machine m = fake_machine(dir.path());
    const std::uint64_t last_level = m.caches.back().bytes;
    const SweepPlan quick = make_plan(m, true);
    EXPECT_EQ(largest_working_set(quick), kQuickDramBytes);
    // Still past the last-level cache: the level below cannot hold the DRAM points.
    EXPECT_GE(largest_working_set(quick), 2 * last_level);
    // A full measure sweeps into the DRAM window, which starts at 8x the cache.
    EXPECT_GE(largest_working_set(make_plan(m, false)), 8 * last_level);
  }
}

TEST(MakePlan, QuickPlanIsSmallerAndShorter) {
  TempDir dir;
  make_fake_sysfs(dir.path());
  const core::Machine m = fake_machine(dir.path());
  const SweepPlan full = make_plan(m, false);
  const SweepPlan quick = make_plan(m, true);
  EXPECT_LT(quick.compute.size(), full.compute.size());
  EXPECT_LT(quick.bandwidth.size(), full.bandwidth.size());
  EXPECT_LT(quick.sampling.min_sample_seconds, full.sampling.min_sample_seconds);
}

TEST(MakePlan, EveryComputeCeilingIsPlannedAtEveryIlp) {
  TempDir dir;
  make_fake_sysfs(dir.path());
  const core::Machine m = fake_machine(dir.path());
  for (bool quick : {false, true}) {
    SCOPED_TRACE(quick ? "quick" : "full");
    const SweepPlan plan = make_plan(m, quick);
    for (const char* precision : {"fp64", "fp32"})
      for (bool fma : {true, false})
        for (int ilp : compute_ilp_choices()) {
          int found = 0;
          for (const ComputeRun& r : plan.compute)
            found += r.precision == precision && r.fma == fma && r.ilp == ilp;
          EXPECT_GT(found, 0) << precision << (fma ? " fma" : " nofma") << " ILP " << ilp;
        }
  }
}

// ---------------------------------------------------------------------------------------
// run_sweeps

TEST(RunSweeps, MeasuresEveryPlannedPointAndReportsProgress) {
  SweepPlan plan;
  plan.sampling = tiny_sampling();
  plan.compute.push_back({"fp64", true, 8, kDefaultIlp, 64 * KiB});
  plan.bandwidth.push_back({Pattern::triad, 96 * KiB});
  std::vector<std::pair<std::size_t, std::size_t>> calls;
  const core::Sweeps s =
      run_sweeps<Host>(plan, [&](std::size_t done, std::size_t total, const std::string&) {
        calls.emplace_back(done, total);
      });
  ASSERT_EQ(s.compute.size(), 1u);
  ASSERT_EQ(s.bandwidth.size(), 1u);
  EXPECT_EQ(s.compute[0].flops_per_element, 8);
  EXPECT_EQ(s.bandwidth[0].pattern, "triad");
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls.front(), std::make_pair(std::size_t{0}, std::size_t{2}));
  EXPECT_EQ(calls.back(), std::make_pair(std::size_t{2}, std::size_t{2}));
}

TEST(RunSweeps, CancelledRunThrowsInterrupted) {
  const std::atomic<bool> cancel{true};
  SweepPlan plan;
  plan.sampling = tiny_sampling();
  plan.sampling.cancel = &cancel;
  plan.compute.push_back({"fp64", true, 8, kDefaultIlp, 64 * KiB});
  EXPECT_THROW(run_sweeps<Host>(plan, {}), rooftop::Interrupted);
}

TEST(RunSweeps, ConfirmationPassesMeasureEachCeilingsSourceAgainComputeLast) {
  SweepPlan plan;  // plan.machine knows no caches: every bandwidth point is dram
  plan.machine.cores = plan.machine.threads = 2;
  plan.sampling = tiny_sampling();
  plan.compute.push_back({"fp64", true, 8, 8, 64 * KiB});
  plan.compute.push_back({"fp64", true, 1024, 16, 64 * KiB});
  plan.bandwidth.push_back({Pattern::read, 96 * KiB});
  plan.bandwidth.push_back({Pattern::rmw, 96 * KiB});
  plan.confirm_passes = 2;
  std::vector<std::string> steps;
  std::size_t last_done = 0, total = 0;
  const core::Sweeps s =
      run_sweeps<Host>(plan, [&](std::size_t done, std::size_t all, const std::string& what) {
        EXPECT_GE(done, last_done) << "progress never goes back";
        last_done = done;
        total = all;
        steps.push_back(what.substr(0, what.find(' ', what.find(' ') + 1)));
      });
  // 2 + 2 planned points, then after each bandwidth point one pass: dram, then fp64_fma.
  ASSERT_EQ(s.compute.size(), 4u);
  ASSERT_EQ(s.bandwidth.size(), 4u);
  EXPECT_EQ(steps, (std::vector<std::string>{"compute fp64", "compute fp64", "bandwidth read",
                                             "again: bandwidth", "again: compute",
                                             "bandwidth rmw", "again: bandwidth",
                                             "again: compute", "done"}));
  EXPECT_EQ(last_done, total);
  for (std::size_t i : {2u, 3u}) {
    const core::ComputePoint& again = s.compute[i];
    EXPECT_EQ(again.precision, "fp64");
    EXPECT_EQ(again.mode, "fma");
    EXPECT_TRUE(again.ilp == 8 || again.ilp == 16);
    EXPECT_EQ(again.working_set_bytes, s.compute[0].working_set_bytes);
  }
  EXPECT_EQ(s.bandwidth[1].pattern, "read") << "only read was measured before the first pass";
  EXPECT_EQ(s.bandwidth[1].working_set_bytes, s.bandwidth[0].working_set_bytes);
}

}  // namespace
}  // namespace rooftop::microbench

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
