// rooftop_ceilings: statistics, level windows, extraction from synthetic sweeps,
// theoretical peaks, the HDF5 file (round trip, atomic writes, rejection) and the fields views
// share. No Kokkos here: everything is built from plain values.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "h5_files.hpp"
#include "rooftop/ceilings/extract.hpp"
#include "rooftop/ceilings/fields.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/model.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/statistics.hpp"
#include "support.hpp"

namespace rooftop::ceilings {
namespace {

using core::check_writable;
using core::write_text_file;

using rooftop::testing::KiB;
using rooftop::testing::MiB;
using rooftop::testing::TempDir;

using rooftop::testing::error_of;
using rooftop::testing::expect_same_ceiling;
using rooftop::testing::expect_same_machine;

// ---------------------------------------------------------------------------------------
// summarize

TEST(Summarize, OddCountTakesTheMiddleSample) {
  const core::Summary s = core::summarize({5.0, 1.0, 3.0, 2.0, 4.0});
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_EQ(s.count, 5);
}

TEST(Summarize, EvenCountAveragesTheTwoMiddleSamples) {
  const core::Summary s = core::summarize({4.0, 1.0, 3.0, 10.0});
  EXPECT_DOUBLE_EQ(s.median, 3.5);
  EXPECT_EQ(s.count, 4);
}

TEST(Summarize, MinMaxAndSpreadRelativeToMedian) {
  const core::Summary s = core::summarize({90.0, 110.0, 100.0});
  EXPECT_DOUBLE_EQ(s.min, 90.0);
  EXPECT_DOUBLE_EQ(s.max, 110.0);
  EXPECT_DOUBLE_EQ(s.median, 100.0);
  EXPECT_DOUBLE_EQ(s.spread, 0.2);
}

TEST(Summarize, SingleSampleHasZeroSpread) {
  const core::Summary s = core::summarize({42.0});
  EXPECT_DOUBLE_EQ(s.median, 42.0);
  EXPECT_DOUBLE_EQ(s.min, 42.0);
  EXPECT_DOUBLE_EQ(s.max, 42.0);
  EXPECT_DOUBLE_EQ(s.spread, 0.0);
  EXPECT_EQ(s.count, 1);
}

TEST(Summarize, ThrowsOnEmptyInput) { EXPECT_THROW(core::summarize({}), rooftop::Error); }

TEST(Summarize, ThrowsOnNaNSample) {
  EXPECT_THROW(core::summarize({1.0, std::numeric_limits<double>::quiet_NaN(), 2.0}),
               rooftop::Error);
}

TEST(Summarize, ThrowsOnInfiniteSample) {
  EXPECT_THROW(core::summarize({1.0, std::numeric_limits<double>::infinity()}), rooftop::Error);
}

// ---------------------------------------------------------------------------------------
// capacity_for_threads / level_windows

// The machine of the extraction tests: 2 cores, 2 threads, private L1 and L2, one L3
// shared by both threads. Its windows (working sets of all threads together):
//   l1 [0, 48 KiB]   l2 [192 KiB, 2 MiB]   l3 [8 MiB, 52.5 MiB]   dram [420 MiB, inf)
core::Machine test_machine() {
  core::Machine m;
  m.hostname = "test-host";
  m.execution_space = "OpenMP";
  m.cpu_model = "Test CPU";
  m.cores = 2;
  m.threads = 2;
  m.hardware_threads = 2;
  m.caches = {{"l1", 48 * KiB, 1}, {"l2", 2 * MiB, 1}, {"l3", 105 * MiB, 2}};
  m.simd_bits = 512;
  m.fma_pipes = 2;
  m.add_pipes = 0;
  m.load_ports = 2;
  m.store_bytes_per_cycle = 64;
  m.clock_ghz = 2.0;
  m.clock_method = "fixed for the test";
  return m;
}

const LevelWindow* find_window(const std::vector<LevelWindow>& windows, const std::string& name) {
  for (const LevelWindow& w : windows)
    if (w.name == name) return &w;
  return nullptr;
}

TEST(CapacityForThreads, PrivateCacheScalesWithThreads) {
  const core::CacheLevel l2{"l2", 2 * MiB, 1};
  EXPECT_EQ(capacity_for_threads(l2, 1), 2 * MiB);
  EXPECT_EQ(capacity_for_threads(l2, 2), 4 * MiB);
}

TEST(CapacityForThreads, SharedCacheCountsEachInstanceOnce) {
  const core::CacheLevel l3{"l3", 105 * MiB, 2};
  EXPECT_EQ(capacity_for_threads(l3, 1), 105 * MiB);
  EXPECT_EQ(capacity_for_threads(l3, 2), 105 * MiB);
  EXPECT_EQ(capacity_for_threads(l3, 4), 210 * MiB);
}

TEST(CapacityForThreads, PartlyFilledInstanceCountsAsAWholeInstance) {
  // Three SMT threads on two cores whose L1 is shared by two hardware threads.
  const core::CacheLevel l1{"l1", 48 * KiB, 2};
  EXPECT_EQ(capacity_for_threads(l1, 3), 96 * KiB);
}

TEST(CapacityForThreads, NoMoreInstancesThanTheMachineHas) {
  // 8 threads on 2 cores: two private L2s, one shared L3.
  EXPECT_EQ(capacity_for_threads({"l2", 2 * MiB, 1}, 8, 2), 4 * MiB);
  EXPECT_EQ(capacity_for_threads({"l3", 105 * MiB, 2}, 8, 2), 105 * MiB);
  // SMT: 4 threads spread over 4 cores with 2 hardware threads each, L1 per core.
  EXPECT_EQ(capacity_for_threads({"l1", 48 * KiB, 2}, 4, 8), 4 * 48 * KiB);
}

TEST(CapacityForThreads, UnknownThreadCountMeansOneInstance) {
  const core::CacheLevel l2{"l2", 2 * MiB, 1};
  EXPECT_EQ(capacity_for_threads(l2, 0), 2 * MiB);
}

TEST(LevelWindows, OneWindowPerLevelInOrderEndingWithDram) {
  const std::vector<LevelWindow> w = level_windows(test_machine());
  ASSERT_EQ(w.size(), 4u);
  EXPECT_EQ(w[0].name, "l1");
  EXPECT_EQ(w[1].name, "l2");
  EXPECT_EQ(w[2].name, "l3");
  EXPECT_EQ(w[3].name, "dram");
  EXPECT_EQ(w[3].hi, std::numeric_limits<std::uint64_t>::max());
}

TEST(LevelWindows, WindowsFitTheirLevelAndNotTheLevelBelow) {
  const core::Machine m = test_machine();
  const std::vector<LevelWindow> w = level_windows(m);
  ASSERT_EQ(w.size(), 4u);
  // Capacities for the run's 2 threads: private levels doubled, the shared L3 not.
  EXPECT_EQ(w[0].capacity, 96 * KiB);
  EXPECT_EQ(w[1].capacity, 4 * MiB);
  EXPECT_EQ(w[2].capacity, 105 * MiB);
  for (std::size_t i = 0; i < w.size(); ++i) {
    SCOPED_TRACE(w[i].name);
    EXPECT_LT(w[i].lo, w[i].hi);
    if (i + 1 < w.size()) {
      EXPECT_LE(w[i].hi, w[i].capacity);
    }
    if (i > 0) {
      EXPECT_GT(w[i].lo, w[i - 1].capacity) << "the level below could still hold it";
      EXPECT_GT(w[i].lo, w[i - 1].hi) << "windows overlap";
    }
  }
  EXPECT_GT(w[3].lo, 105 * MiB) << "dram must start beyond the last-level cache";
}

TEST(LevelWindows, SharedLastLevelCacheIsNotMultipliedByThreads) {
  const std::vector<LevelWindow> w = level_windows(test_machine());
  const LevelWindow* l3 = find_window(w, "l3");
  ASSERT_NE(l3, nullptr);
  EXPECT_LT(l3->hi, 105 * MiB);  // would be above 105 MiB if counted per thread
}

TEST(LevelWindows, MoreThreadsThanCoresDoNotAddCacheInstances) {
  // Oversubscribed: 8 threads on 2 cores with private L1 and L2. There are only two L1s
  // and two L2s on the machine, so the windows must be those of 2 threads.
  core::Machine m = test_machine();
  const std::vector<LevelWindow> expected = level_windows(m);
  m.threads = 8;
  const std::vector<LevelWindow> w = level_windows(m);
  ASSERT_EQ(w.size(), expected.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    SCOPED_TRACE(w[i].name);
    EXPECT_EQ(w[i].capacity, expected[i].capacity);
    EXPECT_EQ(w[i].hi, expected[i].hi);
  }
}

TEST(LevelWindows, LevelTooCloseToTheOneBelowIsSkippedWithAReason) {
  core::Machine m = test_machine();
  m.caches = {{"l1", 48 * KiB, 1}, {"l2", 64 * KiB, 1}, {"l3", 105 * MiB, 2}};
  std::vector<std::string> skipped;
  const std::vector<LevelWindow> w = level_windows(m, &skipped);
  EXPECT_EQ(find_window(w, "l2"), nullptr);
  EXPECT_NE(find_window(w, "l1"), nullptr);
  EXPECT_NE(find_window(w, "l3"), nullptr);
  EXPECT_NE(find_window(w, "dram"), nullptr);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].rfind("l2:", 0), 0u) << skipped[0];
  EXPECT_GT(skipped[0].size(), 4u) << "a reason must follow the level's name";
}

TEST(LevelWindows, MachineWithoutCachesHasOnlyDram) {
  core::Machine m = test_machine();
  m.caches.clear();
  const std::vector<LevelWindow> w = level_windows(m);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].name, "dram");
}

// ---------------------------------------------------------------------------------------
// extract_ceilings: bandwidth

// Samples around `value` with +-1% noise, deterministic per seed.
std::vector<double> noisy(double value, unsigned seed, int n = 5) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> noise(-0.01, 0.01);
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(value * (1.0 + noise(rng)));
  return out;
}

core::BandwidthPoint bw(const std::string& pattern, std::uint64_t ws, std::vector<double> rates) {
  core::BandwidthPoint p;
  p.pattern = pattern;
  p.working_set_bytes = ws;
  p.values = std::move(rates);
  for (double r : p.values) p.seconds.push_back(static_cast<double>(ws) / (r * 1e9));
  return p;
}

core::ComputePoint cp(const std::string& precision, const std::string& mode, int flops,
                      std::vector<double> rates) {
  core::ComputePoint p;
  p.precision = precision;
  p.mode = mode;
  p.flops_per_element = flops;
  p.mul_add_ratio = flops == 1 ? 0.0 : 1.0;
  p.working_set_bytes = 1 * MiB + static_cast<std::uint64_t>(flops);  // tells points apart
  p.values = std::move(rates);
  for (double r : p.values) p.seconds.push_back(1.0 / r);
  return p;
}

const core::Ceiling* find_ceiling(const std::vector<core::Ceiling>& cs, const std::string& name) {
  for (const core::Ceiling& c : cs)
    if (c.name == name) return &c;
  return nullptr;
}

// Plateaus for read and triad over a doubling working-set sweep from 4 KiB to 1 GiB.
// Points between windows (64-128 KiB, 4 MiB, 64-256 MiB) carry a rate far above every
// plateau: if any of them were counted, some level would come out at 500 GB/s.
core::Sweeps plateau_sweeps() {
  const std::map<std::string, std::map<std::string, double>> plateau = {
      {"read", {{"l1", 300.0}, {"l2", 100.0}, {"l3", 40.0}, {"dram", 11.0}}},
      {"triad", {{"l1", 250.0}, {"l2", 90.0}, {"l3", 35.0}, {"dram", 12.0}}}};
  const std::vector<LevelWindow> windows = level_windows(test_machine());
  core::Sweeps s;
  unsigned seed = 1;
  for (std::uint64_t ws = 4 * KiB; ws <= 1024 * MiB; ws *= 2) {
    std::string level;
    for (const LevelWindow& w : windows)
      if (ws >= w.lo && ws <= w.hi) level = w.name;
    for (const auto& [pattern, values] : plateau) {
      const double v = level.empty() ? 500.0 : values.at(level);
      s.bandwidth.push_back(bw(pattern, ws, noisy(v, seed++)));
    }
  }
  return s;
}

TEST(ExtractCompute, TheNoteNamesTheWinningIlpAndThoseMeasured) {
  core::Sweeps s;
  for (const auto& [ilp, rate] : {std::pair{8, 90.0}, {14, 110.0}, {10, 100.0}}) {
    s.compute.push_back(cp("fp64", "fma", 1024, {rate, rate, rate}));
    s.compute.back().ilp = ilp;
  }
  s.compute.push_back(cp("fp64", "nofma", 1024, {50.0}));  // an older file's point: no ILP
  const std::vector<core::Ceiling> cs = extract_ceilings(test_machine(), s);
  const core::Ceiling* fma = find_ceiling(cs, "fp64_fma");
  const core::Ceiling* nofma = find_ceiling(cs, "fp64_nofma");
  ASSERT_TRUE(fma && nofma);
  EXPECT_DOUBLE_EQ(fma->value, 110.0);
  EXPECT_EQ(fma->note, "ILP 14 of 8, 10, 14");
  EXPECT_EQ(nofma->note, "");
}

TEST(ExtractBandwidth, EachLevelGetsItsPlateau) {
  const std::vector<core::Ceiling> cs = extract_ceilings(test_machine(), plateau_sweeps());
  const std::map<std::string, double> want = {
      {"l1", 300.0}, {"l2", 100.0}, {"l3", 40.0}, {"dram", 12.0}};
  for (const auto& [name, value] : want) {
    SCOPED_TRACE(name);
    const core::Ceiling* c = find_ceiling(cs, name);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->kind, "bandwidth");
    EXPECT_EQ(c->units, "GB/s");
    EXPECT_NEAR(c->value, value, 0.011 * value);
    EXPECT_DOUBLE_EQ(c->value, c->median);
    EXPECT_LE(c->min, c->median);
    EXPECT_GE(c->max, c->median);
    EXPECT_EQ(c->samples, 5);
  }
}

TEST(ExtractBandwidth, PointsBetweenWindowsAreIgnored) {
  const std::vector<LevelWindow> windows = level_windows(test_machine());
  const std::vector<core::Ceiling> cs = extract_ceilings(test_machine(), plateau_sweeps());
  for (const core::Ceiling& c : cs) {
    if (c.kind != "bandwidth") continue;
    SCOPED_TRACE(c.name);
    EXPECT_LT(c.value, 400.0) << "a transition point became the ceiling";
    const LevelWindow* w = find_window(windows, c.name);
    ASSERT_NE(w, nullptr);
    EXPECT_GE(c.working_set_bytes, w->lo);
    EXPECT_LE(c.working_set_bytes, w->hi);
  }
}

TEST(ExtractBandwidth, BestSustainedPatternWinsAndIsRecorded) {
  const std::vector<core::Ceiling> cs = extract_ceilings(test_machine(), plateau_sweeps());
  const core::Ceiling* l1 = find_ceiling(cs, "l1");
  const core::Ceiling* dram = find_ceiling(cs, "dram");
  ASSERT_NE(l1, nullptr);
  ASSERT_NE(dram, nullptr);
  EXPECT_EQ(l1->pattern, "read");
  EXPECT_EQ(dram->pattern, "triad");
}

TEST(ExtractBandwidth, SingleHugeSampleDoesNotBecomeTheCeiling) {
  core::Sweeps s;
  s.bandwidth.push_back(bw("read", 512 * KiB, {100.0, 101.0, 99.0, 100.0, 5000.0}));
  s.bandwidth.push_back(bw("triad", 1 * MiB, {102.0, 101.0, 103.0}));
  const std::vector<core::Ceiling> cs = extract_ceilings(test_machine(), s);
  const core::Ceiling* l2 = find_ceiling(cs, "l2");
  ASSERT_NE(l2, nullptr);
  EXPECT_DOUBLE_EQ(l2->value, 102.0);
  EXPECT_EQ(l2->pattern, "triad");
  EXPECT_EQ(l2->working_set_bytes, 1 * MiB);
  EXPECT_DOUBLE_EQ(l2->min, 101.0);
  EXPECT_DOUBLE_EQ(l2->max, 103.0);
  EXPECT_EQ(l2->samples, 3);
}

TEST(ExtractBandwidth, MedianNotBestSampleRanksPatterns) {
  // copy has the single best sample (400) but read sustains more.
  core::Sweeps s;
  s.bandwidth.push_back(bw("copy", 16 * KiB, {200.0, 210.0, 400.0}));
  s.bandwidth.push_back(bw("read", 16 * KiB, {290.0, 291.0, 292.0}));
  const std::vector<core::Ceiling> cs = extract_ceilings(test_machine(), s);
  const core::Ceiling* l1 = find_ceiling(cs, "l1");
  ASSERT_NE(l1, nullptr);
  EXPECT_EQ(l1->pattern, "read");
  EXPECT_DOUBLE_EQ(l1->value, 291.0);
}

TEST(ExtractBandwidth, LevelWithoutPointsInItsWindowIsSkippedWithAReason) {
  core::Sweeps s;
  s.bandwidth.push_back(bw("read", 16 * KiB, {300.0}));
  std::vector<std::string> skipped;
  const std::vector<core::Ceiling> cs = extract_ceilings(test_machine(), s, &skipped);
  EXPECT_NE(find_ceiling(cs, "l1"), nullptr);
  EXPECT_EQ(find_ceiling(cs, "l2"), nullptr);
  EXPECT_EQ(find_ceiling(cs, "dram"), nullptr);
  bool l2_named = false, dram_named = false;
  for (const std::string& why : skipped) {
    l2_named = l2_named || why.rfind("l2:", 0) == 0;
    dram_named = dram_named || why.rfind("dram:", 0) == 0;
  }
  EXPECT_TRUE(l2_named);
  EXPECT_TRUE(dram_named);
}

// ---------------------------------------------------------------------------------------
// extract_ceilings: compute

core::Sweeps compute_sweeps() {
  core::Sweeps s;
  s.compute.push_back(cp("fp64", "fma", 1, {5.0, 5.1, 4.9}));
  s.compute.push_back(cp("fp64", "fma", 64, {100.0, 101.0, 99.0}));
  s.compute.push_back(cp("fp64", "fma", 256, {50.0, 51.0, 900.0}));  // one wild sample
  s.compute.push_back(cp("fp64", "fma", 1024, {110.0, 111.0, 109.0}));
  s.compute.push_back(cp("fp64", "nofma", 256, {55.0, 56.0, 54.0}));
  s.compute.push_back(cp("fp64", "nofma", 1024, {60.0, 61.0, 59.0}));
  return s;
}

TEST(ExtractCompute, BestMedianAcrossFlopsPerElementIsPicked) {
  const std::vector<core::Ceiling> cs = extract_ceilings(test_machine(), compute_sweeps());
  const core::Ceiling* fma = find_ceiling(cs, "fp64_fma");
  ASSERT_NE(fma, nullptr);
  EXPECT_EQ(fma->kind, "compute");
  EXPECT_EQ(fma->units, "GFLOP/s");
  EXPECT_DOUBLE_EQ(fma->value, 110.0);
  EXPECT_EQ(fma->flops_per_element, 1024);
  EXPECT_EQ(fma->working_set_bytes, 1 * MiB + 1024);
  EXPECT_DOUBLE_EQ(fma->min, 109.0);
  EXPECT_DOUBLE_EQ(fma->max, 111.0);
  EXPECT_EQ(fma->samples, 3);
  EXPECT_EQ(fma->pattern, "fma");
}

TEST(CeilingSources, NameThePointEachCeilingIsReadFrom) {
  const core::Sweeps s = plateau_sweeps();
  const std::vector<core::Ceiling> cs = extract_ceilings(test_machine(), s);
  const std::vector<CeilingSource> sources = ceiling_sources(test_machine(), s);
  ASSERT_EQ(sources.size(), cs.size());
  for (std::size_t i = 0; i < cs.size(); ++i) {
    SCOPED_TRACE(cs[i].name);
    EXPECT_EQ(sources[i].name, cs[i].name);
    ASSERT_FALSE(sources[i].compute);
    const core::BandwidthPoint& p = s.bandwidth.at(sources[i].point);
    EXPECT_EQ(p.pattern, cs[i].pattern);
    EXPECT_EQ(p.working_set_bytes, cs[i].working_set_bytes);
  }
}

TEST(CeilingSources, ARepeatedPointTakesOverWhenItsMedianIsHigher) {
  core::Sweeps s = compute_sweeps();
  core::ComputePoint again = s.compute.at(ceiling_sources(test_machine(), s).at(0).point);
  ASSERT_EQ(again.precision + "_" + again.mode, "fp64_fma");
  const std::size_t first = ceiling_sources(test_machine(), s).at(0).point;
  for (double& r : again.values) r *= 1.04;  // the same point, measured when the machine was quieter
  s.compute.push_back(again);
  const std::vector<CeilingSource> sources = ceiling_sources(test_machine(), s);
  EXPECT_EQ(sources.at(0).point, s.compute.size() - 1);
  EXPECT_NE(sources.at(0).point, first);
  const std::vector<core::Ceiling> ceilings = extract_ceilings(test_machine(), s);
  const core::Ceiling* fma = find_ceiling(ceilings, "fp64_fma");  // into a vector that lives on
  ASSERT_NE(fma, nullptr);
  EXPECT_DOUBLE_EQ(fma->value, 110.0 * 1.04);
}

TEST(ExtractCompute, UnfusedModeIsSeparateAndNamedMulAdd) {
  const std::vector<core::Ceiling> cs = extract_ceilings(test_machine(), compute_sweeps());
  const core::Ceiling* nofma = find_ceiling(cs, "fp64_nofma");
  ASSERT_NE(nofma, nullptr);
  EXPECT_DOUBLE_EQ(nofma->value, 60.0);
  EXPECT_EQ(nofma->pattern, "mul+add");
}

TEST(ExtractCompute, UnmeasuredPrecisionIsSkippedWithAReason) {
  std::vector<std::string> skipped;
  const std::vector<core::Ceiling> cs =
      extract_ceilings(test_machine(), compute_sweeps(), &skipped);
  EXPECT_EQ(find_ceiling(cs, "fp32_fma"), nullptr);
  EXPECT_EQ(find_ceiling(cs, "fp32_nofma"), nullptr);
  int fp32_reasons = 0;
  for (const std::string& why : skipped) fp32_reasons += why.rfind("fp32_", 0) == 0;
  EXPECT_EQ(fp32_reasons, 2);
}

// ---------------------------------------------------------------------------------------
// theoretical peaks

core::Ceiling compute_ceiling(const std::string& name, double value) {
  core::Ceiling c;
  c.name = name;
  c.kind = "compute";
  c.value = value;
  return c;
}

TEST(Theoretical, Fp64FmaIsCoresTimesLanesTimesFlopsTimesClock) {
  // 2 cores x (512 / 64 = 8 lanes) x (2 FMA pipes x 2 FLOP) x 2.0 GHz = 128 GFLOP/s.
  core::Ceiling c = compute_ceiling("fp64_fma", 100.0);
  attach_theoretical(test_machine(), c);
  ASSERT_TRUE(c.theoretical.has_value());
  EXPECT_DOUBLE_EQ(*c.theoretical, 128.0);
  EXPECT_FALSE(c.theoretical_basis.empty());
}

TEST(Theoretical, AComputeCeilingIsTakenAtTheHighestClockAroundItsOwnSamples) {
  // The machine's clock (2.0 GHz) is the highest of the run; this point's samples ran at
  // 1.8-1.9 GHz: its peak is 2 cores x 8 lanes x 4 FLOP x 1.9 GHz.
  core::Sweeps s;
  s.compute.push_back(cp("fp64", "fma", 1024, {110.0, 112.0, 111.0}));
  s.compute.back().clock_ghz = {1.8, 1.9, 1.85};
  s.compute.push_back(cp("fp32", "fma", 1024, {220.0, 224.0, 222.0}));  // no clocks recorded
  const std::vector<core::Ceiling> cs = extract_ceilings(test_machine(), s);
  const core::Ceiling* fp64 = find_ceiling(cs, "fp64_fma");
  const core::Ceiling* fp32 = find_ceiling(cs, "fp32_fma");
  ASSERT_TRUE(fp64 && fp64->theoretical && fp32 && fp32->theoretical);
  EXPECT_DOUBLE_EQ(*fp64->theoretical, 2 * 8 * 4 * 1.9);
  EXPECT_NE(fp64->theoretical_basis.find("1.900 GHz (the highest clock read around this "
                                         "ceiling's samples)"),
            std::string::npos)
      << fp64->theoretical_basis;
  EXPECT_DOUBLE_EQ(*fp32->theoretical, 256.0) << "without its own clocks: the machine's";
  EXPECT_NE(fp32->theoretical_basis.find("(the measured clock)"), std::string::npos);
}

TEST(Theoretical, BasisFitsTheFileWhateverTheClockMethodSays) {
  core::Machine m = test_machine();
  m.clock_method = std::string(400, 'x');  // many clock readings on a many-core machine
  for (const char* name : {"fp64_fma", "fp32_nofma"}) {
    core::Ceiling c = compute_ceiling(name, 100.0);
    attach_theoretical(m, c);
    EXPECT_LT(c.theoretical_basis.size(), 256u) << c.theoretical_basis;
  }
}

TEST(Theoretical, Fp32HasTwiceTheLanes) {
  core::Ceiling c = compute_ceiling("fp32_fma", 100.0);
  attach_theoretical(test_machine(), c);
  ASSERT_TRUE(c.theoretical.has_value());
  EXPECT_DOUBLE_EQ(*c.theoretical, 256.0);
}

TEST(Theoretical, NofmaWithoutAddOnlyPipesIsHalfTheFmaPeak) {
  // Intel-like: every multiply and every add takes one of the 2 FMA pipes.
  core::Ceiling c = compute_ceiling("fp64_nofma", 50.0);
  attach_theoretical(test_machine(), c);
  ASSERT_TRUE(c.theoretical.has_value());
  EXPECT_DOUBLE_EQ(*c.theoretical, 64.0);
}

TEST(Theoretical, NofmaWithAsManyAddPipesAsFmaPipesMatchesTheFmaPeak) {
  // Zen-like: multiplies on the 2 FMA pipes, adds on the 2 add pipes.
  core::Machine m = test_machine();
  m.add_pipes = m.fma_pipes;
  core::Ceiling c = compute_ceiling("fp64_nofma", 50.0);
  attach_theoretical(m, c);
  ASSERT_TRUE(c.theoretical.has_value());
  EXPECT_DOUBLE_EQ(*c.theoretical, 128.0);
}

TEST(Theoretical, UnknownPipesOrClockGiveNoPeak) {
  core::Machine no_pipes = test_machine();
  no_pipes.fma_pipes = 0;
  core::Machine no_clock = test_machine();
  no_clock.clock_ghz = 0.0;
  for (const core::Machine& m : {no_pipes, no_clock}) {
    core::Ceiling c = compute_ceiling("fp64_fma", 100.0);
    c.theoretical = 1.0;  // stale value must be cleared
    attach_theoretical(m, c);
    EXPECT_FALSE(c.theoretical.has_value());
    EXPECT_FALSE(c.fraction_of_theoretical().has_value());
    EXPECT_FALSE(c.above_theoretical());
  }
}

TEST(Theoretical, L1ReadPeakIsLoadPortsTimesVectorWidthTimesClock) {
  // 2 cores x 2 loads/cycle x 64 B x 2.0 GHz = 512 GB/s.
  core::Ceiling c;
  c.name = "l1";
  c.kind = "bandwidth";
  c.pattern = "read";
  c.value = 300.0;
  attach_theoretical(test_machine(), c);
  ASSERT_TRUE(c.theoretical.has_value());
  EXPECT_DOUBLE_EQ(*c.theoretical, 512.0);
}

TEST(Theoretical, L1PeakOfMixedPatternsIsPacedByTheBusierPorts) {
  // 64 B/cycle of stores: copy and rmw move 16 B per element in one cycle per 8
  // elements' store (128 B/cycle); triad 24 B in one cycle (192 B/cycle); write 64 B/cycle.
  const std::pair<const char*, double> cases[] = {{"copy", 2 * 128 * 2.0},
                                                  {"rmw", 2 * 128 * 2.0},
                                                  {"triad", 2 * 192 * 2.0},
                                                  {"write", 2 * 64 * 2.0}};
  for (const auto& [pattern, peak] : cases) {
    SCOPED_TRACE(pattern);
    core::Ceiling c;
    c.name = "l1";
    c.kind = "bandwidth";
    c.pattern = pattern;
    attach_theoretical(test_machine(), c);
    ASSERT_TRUE(c.theoretical.has_value());
    EXPECT_DOUBLE_EQ(*c.theoretical, peak);
  }
}

TEST(Theoretical, FractionIsValueOverPeak) {
  core::Ceiling c = compute_ceiling("fp64_fma", 96.0);
  attach_theoretical(test_machine(), c);
  ASSERT_TRUE(c.fraction_of_theoretical().has_value());
  EXPECT_DOUBLE_EQ(*c.fraction_of_theoretical(), 0.75);
  EXPECT_FALSE(c.above_theoretical());
}

TEST(Theoretical, ValueAboveThePeakIsFlagged) {
  core::Ceiling c = compute_ceiling("fp64_fma", 130.0);
  attach_theoretical(test_machine(), c);
  EXPECT_TRUE(c.above_theoretical());
  core::Ceiling at_peak = compute_ceiling("fp64_fma", 128.0);
  attach_theoretical(test_machine(), at_peak);
  EXPECT_FALSE(at_peak.above_theoretical());
}

TEST(Theoretical, ExtractionAttachesPeaksAndNotesCeilingsAboveThem) {
  core::Sweeps s;
  s.compute.push_back(cp("fp64", "fma", 1024, {200.0}));
  s.compute.push_back(cp("fp32", "fma", 1024, {200.0}));
  const std::vector<core::Ceiling> cs = extract_ceilings(test_machine(), s);
  const core::Ceiling* fp64 = find_ceiling(cs, "fp64_fma");
  const core::Ceiling* fp32 = find_ceiling(cs, "fp32_fma");
  ASSERT_NE(fp64, nullptr);
  ASSERT_NE(fp32, nullptr);
  ASSERT_TRUE(fp64->theoretical.has_value());
  EXPECT_DOUBLE_EQ(*fp64->theoretical, 128.0);
  EXPECT_TRUE(fp64->above_theoretical());
  EXPECT_NE(fp64->note.find("ABOVE THEORETICAL"), std::string::npos) << fp64->note;
  EXPECT_FALSE(fp32->above_theoretical());  // 200 of 256
  EXPECT_TRUE(fp32->note.empty()) << fp32->note;
}

// ---------------------------------------------------------------------------------------
// HDF5: round trip and atomic writes

TEST(CeilingsFileIo, RoundTripKeepsEveryField) {
  TempDir dir;
  const core::CeilingsFile original = rooftop::testing::sample_ceilings_file();
  const std::string path = dir.file("c.h5");
  write_file(path, original);
  const core::CeilingsFile back = read_file(path);

  const core::Provenance& p = back.provenance;
  EXPECT_EQ(p.schema_version, std::to_string(kSchemaMajor) + "." + std::to_string(kSchemaMinor));
  EXPECT_EQ(p.tool_version, original.provenance.tool_version);
  EXPECT_EQ(p.git_revision, original.provenance.git_revision);
  EXPECT_EQ(p.created_utc, original.provenance.created_utc);
  EXPECT_EQ(p.command_line, original.provenance.command_line);
  expect_same_machine(back.machine, original.machine);

  ASSERT_EQ(back.ceilings.size(), original.ceilings.size());
  for (std::size_t i = 0; i < original.ceilings.size(); ++i)
    expect_same_ceiling(back.ceilings[i], original.ceilings[i]);
  EXPECT_TRUE(back.ceilings[0].theoretical.has_value());
  EXPECT_FALSE(back.ceilings[1].theoretical.has_value());

  ASSERT_EQ(back.sweeps.compute.size(), original.sweeps.compute.size());
  for (std::size_t i = 0; i < original.sweeps.compute.size(); ++i) {
    SCOPED_TRACE("compute point " + std::to_string(i));
    const core::ComputePoint& a = back.sweeps.compute[i];
    const core::ComputePoint& b = original.sweeps.compute[i];
    EXPECT_EQ(a.precision, b.precision);
    EXPECT_EQ(a.mode, b.mode);
    EXPECT_EQ(a.flops_per_element, b.flops_per_element);
    EXPECT_EQ(a.mul_add_ratio, b.mul_add_ratio);
    EXPECT_EQ(a.ilp, b.ilp);
    EXPECT_EQ(a.working_set_bytes, b.working_set_bytes);
    EXPECT_EQ(a.seconds, b.seconds);
    EXPECT_EQ(a.values, b.values);
    EXPECT_EQ(a.clock_ghz, b.clock_ghz);
  }
  ASSERT_EQ(back.sweeps.bandwidth.size(), original.sweeps.bandwidth.size());
  for (std::size_t i = 0; i < original.sweeps.bandwidth.size(); ++i) {
    SCOPED_TRACE("bandwidth point " + std::to_string(i));
    const core::BandwidthPoint& a = back.sweeps.bandwidth[i];
    const core::BandwidthPoint& b = original.sweeps.bandwidth[i];
    EXPECT_EQ(a.pattern, b.pattern);
    EXPECT_EQ(a.working_set_bytes, b.working_set_bytes);
    EXPECT_EQ(a.seconds, b.seconds);
    EXPECT_EQ(a.values, b.values);
    EXPECT_EQ(a.clock_ghz, b.clock_ghz);
  }
}

// Two kernel records as the analyzer writes them: every field set, one with three
// levels of bytes, one imported with no time and an unknown FMA fraction.
std::vector<core::KernelRecord> sample_kernels() {
  core::KernelRecord a;
  a.name = "gpp::v9_cache_blocking";
  a.id = "v9";
  a.group = "gpp";
  a.order = 8;
  a.description = "G in blocks, every G' of a block before the next";
  a.source = "declared";
  a.precision = "fp64";
  a.flops_fp64 = 4.33e10;
  a.flops_fp32 = 1.5;
  a.flops_fp16 = 0.25;
  a.fma_fraction = 0.515;
  a.tensor_instructions = 7.0;
  a.tensor_ops = {{"tc_fp16", 1.375e11}, {"tc_int8", 3.0}};
  a.bytes = {{"l1", 1e12}, {"l2", 3e11}, {"dram", 1.4e8}};
  a.time_s = 0.75;
  a.time_min = 0.74;
  a.time_max = 0.8;
  a.samples = 5;
  a.invocations = 1;
  a.time_source = "wall clock, fenced, median of 5 samples";
  a.check = "passed";
  a.note = "size small";
  a.limiter = "fp64_fma";
  a.attainable_gflop_per_s = 110.0;
  a.fraction_of_roof = 0.52;
  a.above = "";
  core::KernelRecord b;
  b.name = std::string(300, 'k');  // longer than the field: kept as its head
  b.id = "k1";
  b.group = "import";
  b.source = "ncu-import";
  b.bytes = {{"dram", 64.0}};
  b.above = "dram,l2";
  return {a, b};
}

TEST(CeilingsFileIo, KernelsRoundTrip) {
  TempDir dir;
  core::CeilingsFile original = rooftop::testing::sample_ceilings_file();
  original.kernels = sample_kernels();
  const std::string path = dir.file("k.h5");
  write_file(path, original);
  const core::CeilingsFile back = read_file(path);
  ASSERT_EQ(back.kernels.size(), 2u);
  const core::KernelRecord& a = back.kernels[0];
  const core::KernelRecord& x = original.kernels[0];
  EXPECT_EQ(a.name, x.name);
  EXPECT_EQ(a.id, x.id);
  EXPECT_EQ(a.group, x.group);
  EXPECT_EQ(a.order, x.order);
  EXPECT_EQ(a.description, x.description);
  EXPECT_EQ(a.source, x.source);
  EXPECT_EQ(a.precision, x.precision);
  EXPECT_EQ(a.flops_fp64, x.flops_fp64);
  EXPECT_EQ(a.flops_fp32, x.flops_fp32);
  EXPECT_EQ(a.flops_fp16, x.flops_fp16);
  EXPECT_EQ(a.fma_fraction, x.fma_fraction);
  EXPECT_EQ(a.tensor_instructions, x.tensor_instructions);
  ASSERT_EQ(a.tensor_ops.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(a.tensor_ops[i].figure, x.tensor_ops[i].figure);
    EXPECT_EQ(a.tensor_ops[i].ops, x.tensor_ops[i].ops);
  }
  ASSERT_EQ(a.bytes.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(a.bytes[i].level, x.bytes[i].level);
    EXPECT_EQ(a.bytes[i].bytes, x.bytes[i].bytes);
  }
  EXPECT_EQ(a.time_s, x.time_s);
  EXPECT_EQ(a.time_min, x.time_min);
  EXPECT_EQ(a.time_max, x.time_max);
  EXPECT_EQ(a.samples, x.samples);
  EXPECT_EQ(a.invocations, x.invocations);
  EXPECT_EQ(a.time_source, x.time_source);
  EXPECT_EQ(a.check, x.check);
  EXPECT_EQ(a.note, x.note);
  EXPECT_EQ(a.limiter, x.limiter);
  EXPECT_EQ(a.attainable_gflop_per_s, x.attainable_gflop_per_s);
  EXPECT_EQ(a.fraction_of_roof, x.fraction_of_roof);

  const core::KernelRecord& b = back.kernels[1];
  EXPECT_EQ(b.name, std::string(255, 'k'));
  EXPECT_LT(b.fma_fraction, 0.0) << "unknown stays unknown";
  EXPECT_EQ(b.time_s, 0.0);
  EXPECT_EQ(b.above, "dram,l2");
  ASSERT_EQ(b.bytes.size(), 1u);
  EXPECT_EQ(b.bytes[0].level, "dram");
  EXPECT_TRUE(b.tensor_ops.empty());
}

TEST(CeilingsFileIo, KernelsWithoutTensorOpsWriteNoTensorOpsTable) {
  // A file whose kernels ran no matrix unit is laid out as before schema 1.7's table.
  TempDir dir;
  core::CeilingsFile original = rooftop::testing::sample_ceilings_file();
  original.kernels = sample_kernels();
  original.kernels[0].tensor_ops.clear();
  const std::string path = dir.file("k.h5");
  write_file(path, original);
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  EXPECT_EQ(H5Lexists(f, "kernels/tensor_ops", H5P_DEFAULT), 0);
  H5Fclose(f);
  EXPECT_TRUE(read_file(path).kernels[0].tensor_ops.empty());
}

TEST(CeilingsFileIo, TensorOpsOfAnUnknownUnitOrNegativeAreRefused) {
  TempDir dir;
  for (const core::TensorOps& bad :
       {core::TensorOps{"tc_fp4", 1.0}, core::TensorOps{"fp32_fma", 1.0},
        core::TensorOps{"tc_fp16", -1.0}}) {
    core::CeilingsFile original = rooftop::testing::sample_ceilings_file();
    original.kernels = sample_kernels();
    original.kernels[1].tensor_ops = {bad};
    EXPECT_THROW(write_file(dir.file("bad.h5"), original), rooftop::Error)
        << bad.figure << " " << bad.ops;
  }
}

TEST(CeilingsFileIo, FileWithoutKernelsHasNoKernelsGroup) {
  TempDir dir;
  const std::string path = dir.file("c.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  EXPECT_TRUE(read_file(path).kernels.empty());
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  EXPECT_EQ(H5Lexists(f, "kernels", H5P_DEFAULT), 0);
  H5Fclose(f);
}

// A file without a ceiling is of no use to any reader: not written (and not read).
TEST(CeilingsFileIo, FileWithoutCeilingsIsNotWritten) {
  TempDir dir;
  core::CeilingsFile empty;
  const std::string path = dir.file("empty.h5");
  const std::string msg = error_of([&] { write_file(path, empty); });
  EXPECT_NE(msg.find(path + ": not written: /ceilings: no ceilings"), std::string::npos) << msg;
  EXPECT_TRUE(dir.entries().empty());
}

TEST(CeilingsFileIo, WriteLeavesOnlyTheDestinationInTheDirectory) {
  TempDir dir;
  write_file(dir.file("c.h5"), rooftop::testing::sample_ceilings_file());
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"c.h5"});
}

TEST(CeilingsFileIo, WriteReplacesAnExistingFile) {
  TempDir dir;
  const std::string path = dir.file("c.h5");
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  write_file(path, f);
  f.machine.hostname = "second-write";
  write_file(path, f);
  EXPECT_EQ(read_file(path).machine.hostname, "second-write");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"c.h5"});
}

TEST(CeilingsFileIo, WriteIntoMissingDirectoryThrowsAndLeavesNothing) {
  TempDir dir;
  const std::string path = (dir.path() / "no-such-dir" / "c.h5").string();
  const std::string msg =
      error_of([&] { write_file(path, rooftop::testing::sample_ceilings_file()); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_TRUE(dir.entries().empty());
}

TEST(CeilingsFileIo, FailedWriteKeepsTheExistingFile) {
  TempDir dir;
  const std::string path = dir.file("c.h5");
  core::CeilingsFile good = rooftop::testing::sample_ceilings_file();
  good.machine.hostname = "the-original";
  write_file(path, good);
  const std::string before = rooftop::testing::read_bytes(path);

  core::CeilingsFile bad = good;
  bad.machine.hostname = "the-replacement";
  bad.ceilings[0].name = std::string(40, 'x');  // the name field holds 31 characters
  const std::string msg = error_of([&] { write_file(path, bad); });
  EXPECT_NE(msg.find("name"), std::string::npos) << msg;

  EXPECT_EQ(rooftop::testing::read_bytes(path), before);
  EXPECT_EQ(read_file(path).machine.hostname, "the-original");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"c.h5"}) << "temporary file left behind";
}

TEST(CheckWritable, AcceptsAWritableDirectoryAndLeavesNothing) {
  TempDir dir;
  EXPECT_NO_THROW(check_writable(dir.file("later.h5")));
  EXPECT_TRUE(dir.entries().empty());
}

TEST(CheckWritable, RejectsAMissingDirectoryNamingThePath) {
  TempDir dir;
  const std::string path = (dir.path() / "no-such-dir" / "later.h5").string();
  const std::string msg = error_of([&] { check_writable(path); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
}

// ---------------------------------------------------------------------------------------
// HDF5: rejection of files that are not ours or not readable

// read_file must throw rooftop::Error with one line naming the file and the reason.
void expect_rejected(const std::string& path, const std::string& reason) {
  const std::string msg = error_of([&] { read_file(path); });
  EXPECT_NE(msg.find(path), std::string::npos) << "message does not name the file: " << msg;
  EXPECT_NE(msg.find(reason), std::string::npos) << "message does not say why: " << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << "more than one line: " << msg;
}

TEST(CeilingsFileRejection, MissingFile) {
  TempDir dir;
  expect_rejected(dir.file("missing.h5"), "no such file");
}

TEST(CeilingsFileRejection, Directory) {
  TempDir dir;
  expect_rejected(dir.path().string(), "not a regular file");
}

TEST(CeilingsFileRejection, RandomBytes) {
  TempDir dir;
  const std::string path = dir.file("noise.h5");
  rooftop::testing::write_random_bytes(path, 4096);
  expect_rejected(path, "not an HDF5 file");
}

TEST(CeilingsFileRejection, TruncatedCopyOfAValidFile) {
  TempDir dir;
  const std::string good = dir.file("good.h5");
  const std::string cut = dir.file("cut.h5");
  write_file(good, rooftop::testing::sample_ceilings_file());
  rooftop::testing::write_truncated_copy(good, cut, 0.5);
  expect_rejected(cut, "truncated");
}

TEST(CeilingsFileRejection, ForeignHdf5File) {
  TempDir dir;
  const std::string path = dir.file("foreign.h5");
  rooftop::testing::write_foreign_hdf5(path);
  expect_rejected(path, "not a rooftop ceilings file");
}

TEST(CeilingsFileRejection, UnknownMajorSchemaVersion) {
  TempDir dir;
  const std::string path = dir.file("future.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  rooftop::testing::rewrite_root_string_attr(path, "schema_version", "2.0");
  expect_rejected(path, "schema version 2.0");
  expect_rejected(path, "not supported");
}

TEST(CeilingsFileRejection, UnparsableSchemaVersion) {
  TempDir dir;
  const std::string path = dir.file("odd.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  rooftop::testing::rewrite_root_string_attr(path, "schema_version", "one");
  expect_rejected(path, "schema version");
}

TEST(CeilingsFileIo, FileWrittenBeforeTheLaterMachineAttributesIsRead) {
  TempDir dir;
  const std::string path = dir.file("early.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  rooftop::testing::delete_attr(path, "machine", "store_bytes_per_cycle");
  rooftop::testing::delete_attr(path, "machine", "hardware_model");
  core::CeilingsFile back;
  ASSERT_NO_THROW(back = read_file(path));
  EXPECT_EQ(back.machine.store_bytes_per_cycle, 0.0) << "unknown";
  EXPECT_TRUE(back.machine.hardware_model.empty());
  EXPECT_EQ(back.machine.cpu_model, "Test CPU 9000");
}

TEST(CeilingsFileIo, SchemaOneZeroExampleIsReadWithoutIlp) {
  core::CeilingsFile f;
  ASSERT_NO_THROW(f = read_file(std::string(ROOFTOP_DATA_DIR) + "/example-ceilings.h5"));
  EXPECT_EQ(f.provenance.schema_version, "1.0");
  ASSERT_FALSE(f.sweeps.compute.empty());
  for (const core::ComputePoint& p : f.sweeps.compute)
    EXPECT_EQ(p.ilp, 0) << "not recorded before 1.3";
}

TEST(CeilingsFileRejection, NewerMinorVersionIsStillRead) {
  TempDir dir;
  const std::string path = dir.file("newer.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  rooftop::testing::rewrite_root_string_attr(path, "schema_version", "1.7");
  core::CeilingsFile back;
  ASSERT_NO_THROW(back = read_file(path));
  EXPECT_EQ(back.provenance.schema_version, "1.7");
  EXPECT_EQ(back.ceilings.size(), 2u);
}

// ---------------------------------------------------------------------------------------
// fields

TEST(FormatBytes, WholeUnitsHaveNoDecimals) {
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(48.0 * KiB), "48 KiB");
  EXPECT_EQ(format_bytes(105.0 * MiB), "105 MiB");
  EXPECT_EQ(format_bytes(1024.0 * MiB), "1 GiB");
}

TEST(FormatBytes, FractionalUnitsHaveOneDecimal) {
  EXPECT_EQ(format_bytes(1.5 * MiB), "1.5 MiB");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
}

TEST(CeilingsFileFind, FindsByNameOrReturnsNull) {
  const core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  ASSERT_NE(f.find("dram"), nullptr);
  EXPECT_EQ(f.find("dram")->pattern, "triad");
  EXPECT_EQ(f.find("l7"), nullptr);
}

}  // namespace
}  // namespace rooftop::ceilings
