// rooftop_ceilings: statistics, level windows, extraction from synthetic sweeps,
// theoretical peaks and the fields views share (the file: test_file_io.cpp). No Kokkos
// here: everything is built from plain values.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "rooftop/ceilings/extract.hpp"
#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/model.hpp"
#include "rooftop/core/statistics.hpp"
#include "support.hpp"

namespace rooftop::ceilings {
namespace {

using rooftop::testing::KiB;
using rooftop::testing::MiB;

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

TEST(ExtractBandwidth, ASweepShortOfTheDramWindowSetsDramAtItsLargestSetAndSaysSo) {
  // `measure --quick` stops at 1 GiB: under the DRAM window of a 480 MiB L3 (3.75 GiB on).
  core::Machine m = test_machine();
  m.caches.back().bytes = 480 * MiB;
  core::Sweeps s;
  s.bandwidth.push_back(bw("triad", 512 * MiB, {40.0, 40.0, 40.0}));  // partly in the L3
  s.bandwidth.push_back(bw("triad", 1024 * MiB, {20.0, 21.0, 22.0}));
  s.bandwidth.push_back(bw("read", 1024 * MiB, {24.0, 25.0, 26.0}));
  const std::vector<core::Ceiling> cs = extract_ceilings(m, s);
  const core::Ceiling* dram = find_ceiling(cs, "dram");
  ASSERT_NE(dram, nullptr);
  EXPECT_DOUBLE_EQ(dram->value, 25.0);
  EXPECT_EQ(dram->working_set_bytes, 1024 * MiB);
  EXPECT_NE(dram->note.find("bounded at 1024 MiB, 2.1x the last-level cache's 480 MiB"),
            std::string::npos) << dram->note;

  // A largest set the last-level cache could half hold sets no DRAM ceiling.
  s.bandwidth.erase(s.bandwidth.begin() + 1, s.bandwidth.end());
  m.caches.back().bytes = 300 * MiB;
  std::vector<std::string> skipped;
  EXPECT_EQ(find_ceiling(extract_ceilings(m, s, &skipped), "dram"), nullptr);
  EXPECT_NE(std::find(skipped.begin(), skipped.end(),
                      "dram: no sweep point inside its working-set window"),
            skipped.end());
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
