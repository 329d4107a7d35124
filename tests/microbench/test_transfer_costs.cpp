// The transfer and launch sweeps under the host space at tiny sizes (copies checked,
// points and units), and the figures drawn from them on synthetic points whose answers
// are known exactly: the latency fit's intercept, the breakeven, the PCIe rate table,
// and figures left out where their points are missing.

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <map>
#include <string>

#include "costs/cost_checks.hpp"
#include "rooftop/ceilings/transfer_figures.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/microbench/device.hpp"
#include "rooftop/microbench/costs/transfer_costs.hpp"

namespace rooftop {
namespace {

using Space = Kokkos::DefaultHostExecutionSpace;

core::Sampling tiny() {
  core::Sampling t;
  t.samples = 2;
  t.min_sample_seconds = 0.001;
  return t;
}

std::map<std::string, std::vector<const core::SweepPoint*>> by_sweep(
    const std::vector<core::SweepPoint>& points) {
  std::map<std::string, std::vector<const core::SweepPoint*>> out;
  for (const core::SweepPoint& p : points) out[p.sweep].push_back(&p);
  return out;
}

// ---- the sweeps under the host space ---------------------------------------------

TEST(TransferCosts, EverySweepCopiesEverySizeAndChecksIt) {
  microbench::TransferPlan plan;
  plan.sizes = {4096, 16384, 65536 + 4096};
  plan.sampling = tiny();
  std::vector<std::string> skipped;
  std::vector<std::string> steps;
  const auto points = microbench::run_transfer_costs<Space>(
      plan, [&](std::size_t, std::size_t, const std::string& what) { steps.push_back(what); },
      &skipped);
  EXPECT_TRUE(skipped.empty()) << skipped.front();
  const auto sweeps = by_sweep(points);
  ASSERT_EQ(sweeps.size(), 5u);
  for (const char* name : {"h2d:pinned", "h2d:pageable", "d2h:pinned", "d2h:pageable", "d2d"}) {
    SCOPED_TRACE(name);
    const core::Sweep* row = core::find_sweep(name);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->units, "GB/s");
    ASSERT_EQ(sweeps.at(name).size(), plan.sizes.size());
    for (std::size_t i = 0; i < plan.sizes.size(); ++i) {
      const core::SweepPoint& p = *sweeps.at(name)[i];
      EXPECT_EQ(p.x, static_cast<double>(plan.sizes[i]));
      ASSERT_EQ(p.values.size(), 2u);
      ASSERT_EQ(p.seconds.size(), 2u);
      for (std::size_t s = 0; s < 2; ++s) {
        EXPECT_GT(p.values[s], 0.0);
        EXPECT_GT(p.seconds[s], 0.0);
      }
      EXPECT_TRUE(p.clock_ghz.empty());
    }
  }
  EXPECT_EQ(steps.back(), "");  // done
}

TEST(TransferCosts, ASweepThatSpentItsTimeLeavesItsLargerCopiesOut) {
  microbench::TransferPlan plan;
  plan.sizes = {4096, 8192, 16384};
  plan.sampling = tiny();
  plan.sweep_seconds = 0.0;  // spent after the first size
  std::vector<std::string> skipped;
  const auto points = microbench::run_transfer_costs<Space>(plan, {}, &skipped);
  ASSERT_EQ(points.size(), 5u);  // the smallest copy of each sweep
  for (const core::SweepPoint& p : points) EXPECT_EQ(p.x, 4096.0);
  ASSERT_EQ(skipped.size(), 5u);
  EXPECT_EQ(skipped[0].rfind("h2d:pinned: copies of 8 KiB and more left out", 0), 0u) << skipped[0];
}

TEST(TransferCosts, TheCheckFindsAWordTheCopyDidNotWrite) {
  Kokkos::View<microbench::costs::Word*, Kokkos::HostSpace> v("v", 5000);
  for (std::int64_t i = 0; i < 5000; ++i) v(i) = static_cast<microbench::costs::Word>(3 * i);
  const auto want = [](std::int64_t i) { return static_cast<microbench::costs::Word>(3 * i); };
  EXPECT_NO_THROW(microbench::costs::check_words<Space>(v, 5000, "v", want));
  v(4999) = 1;  // the last word is always among those checked
  EXPECT_THROW(microbench::costs::check_words<Space>(v, 5000, "v", want), Error);
  v(4999) = 3 * 4999;
  v(0) = 7;
  EXPECT_THROW(microbench::costs::check_words<Space>(v, 5000, "v", want), Error);
}

TEST(TransferCosts, PlanSweepsFourKibToOneGibAndShrinksToTheMemoryThere) {
  const auto full = microbench::make_transfer_plan(0, 0, false);
  ASSERT_EQ(full.sizes.size(), 10u);
  EXPECT_EQ(full.sizes.front(), 4096u);
  EXPECT_EQ(full.sizes.back(), std::uint64_t{1} << 30);
  EXPECT_TRUE(full.top_note.empty());
  const auto quick = microbench::make_transfer_plan(0, 0, true);
  ASSERT_EQ(quick.sizes.size(), 5u);
  EXPECT_EQ(quick.sizes.back(), std::uint64_t{256} << 20);
  EXPECT_LT(quick.sampling.min_sample_seconds, full.sampling.min_sample_seconds);
  // 1 GiB free on the device: copies up to a quarter of it.
  const auto small = microbench::make_transfer_plan(std::uint64_t{1} << 30, 0, false);
  EXPECT_EQ(small.sizes.back(), std::uint64_t{256} << 20);
  EXPECT_NE(small.top_note.find("free device memory"), std::string::npos) << small.top_note;
  const auto host = microbench::make_transfer_plan(0, std::uint64_t{512} << 20, false);
  EXPECT_EQ(host.sizes.back(), std::uint64_t{64} << 20);
  EXPECT_NE(host.top_note.find("host memory"), std::string::npos) << host.top_note;
  // The smaller top is a note in skipped, and the sweep still runs.
  microbench::TransferPlan noted;
  noted.sizes = {4096};
  noted.sampling = tiny();
  noted.top_note = "copies above 4 KiB left out: a test";
  std::vector<std::string> skipped;
  EXPECT_EQ(microbench::run_transfer_costs<Space>(noted, {}, &skipped).size(), 5u);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0], "transfers: copies above 4 KiB left out: a test");
}

TEST(LaunchCosts, EveryKernelSizeSyncedAndBackToBackThenAFence) {
  microbench::LaunchPlan plan;
  plan.items = {1, 4, 1000};
  plan.sampling = tiny();
  std::vector<std::string> skipped;
  const auto points = microbench::run_launch_costs<Space>(plan, {}, &skipped);
  EXPECT_TRUE(skipped.empty()) << skipped.front();
  const auto sweeps = by_sweep(points);
  ASSERT_EQ(sweeps.size(), 3u);
  for (const char* name : {"launch:sync", "launch"}) {
    SCOPED_TRACE(name);
    ASSERT_NE(core::find_sweep(name), nullptr);
    EXPECT_EQ(core::find_sweep(name)->units, "us");
    ASSERT_EQ(sweeps.at(name).size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(sweeps.at(name)[i]->x, static_cast<double>(plan.items[i]));
      ASSERT_EQ(sweeps.at(name)[i]->values.size(), 2u);
      for (double us : sweeps.at(name)[i]->values) EXPECT_GT(us, 0.0);
    }
  }
  ASSERT_EQ(sweeps.at("fence").size(), 1u);
  EXPECT_EQ(sweeps.at("fence")[0]->x, 0.0);
  EXPECT_GT(sweeps.at("fence")[0]->values.at(0), 0.0);
  // The figures come out of real points too.
  const auto figures = ceilings::launch_figures(points, "host");
  EXPECT_GE(figures.size(), 3u);
}

TEST(LaunchCosts, PlanSweepsOneToTwoToTheTwentyFourItems) {
  const auto full = microbench::make_launch_plan(false);
  ASSERT_EQ(full.items.size(), 13u);
  EXPECT_EQ(full.items.front(), 1);
  EXPECT_EQ(full.items.back(), std::int64_t{1} << 24);
  const auto quick = microbench::make_launch_plan(true);
  ASSERT_EQ(quick.items.size(), 7u);
  EXPECT_EQ(quick.items.back(), std::int64_t{1} << 24);
}

TEST(TransferCosts, NoLinkWithoutAGpuBackend) {
#if !defined(KOKKOS_ENABLE_CUDA)
  const ceilings::PcieLink link = microbench::pcie_link();
  EXPECT_EQ(link.generation, 0);
  EXPECT_FALSE(link.why_unknown.empty());
#endif
}

// ---- the figures on synthetic points ---------------------------------------------

TEST(TransferFigures, PcieRatesPerDirectionAfterLineEncoding) {
  EXPECT_DOUBLE_EQ(*ceilings::pcie_gbps(3, 16), 8.0 * 128 / 130 * 16 / 8);  // 15.75
  EXPECT_NEAR(*ceilings::pcie_gbps(3, 16), 15.754, 1e-3);
  EXPECT_NEAR(*ceilings::pcie_gbps(4, 16), 31.508, 1e-3);
  EXPECT_NEAR(*ceilings::pcie_gbps(5, 16), 63.015, 1e-3);
  EXPECT_NEAR(*ceilings::pcie_gbps(5, 8), 31.508, 1e-3);
  EXPECT_DOUBLE_EQ(*ceilings::pcie_gbps(6, 16), 118.0);  // 236 of 256 flit bytes
  EXPECT_DOUBLE_EQ(*ceilings::pcie_gbps(2, 16), 8.0);    // 8b/10b
  EXPECT_FALSE(ceilings::pcie_gbps(7, 16));
  EXPECT_FALSE(ceilings::pcie_gbps(0, 16));
  EXPECT_FALSE(ceilings::pcie_gbps(4, 0));
  ceilings::PcieLink link;
  link.generation = 5;
  link.width = 16;
  EXPECT_EQ(ceilings::link_name(link), "PCIe 5.0 x16");
  link.generation = 9;
  EXPECT_EQ(ceilings::link_name(link), "");
  link.interconnect = "NVLink-C2C";
  EXPECT_EQ(ceilings::link_name(link), "NVLink-C2C");
}

TEST(TransferFigures, TheFitRecoversAnExactLatencyAndBandwidth) {
  std::vector<double> bytes, seconds;
  for (double b = 4096; b <= 1 << 30; b *= 4) {
    bytes.push_back(b);
    seconds.push_back(12e-6 + b / 25e9);
  }
  const auto fit = ceilings::fit_latency(bytes, seconds);
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->latency_s, 12e-6, 1e-12);
  EXPECT_NEAR(fit->bandwidth_gbps, 25.0, 1e-6);
  EXPECT_EQ(fit->points, 10);
  EXPECT_EQ(fit->min_bytes, 4096.0);
  EXPECT_EQ(fit->max_bytes, double(1 << 30));
  // One size, a negative intercept (faster small copies than the model allows), a zero time.
  EXPECT_FALSE(ceilings::fit_latency({4096, 4096}, {1e-5, 1e-5}));
  EXPECT_FALSE(ceilings::fit_latency({1e3, 1e6}, {1e-9, 1e-3}));
  EXPECT_FALSE(ceilings::fit_latency({1e3, 1e6}, {0.0, 1e-3}));
}

TEST(TransferFigures, BreakevenIsWhereLaunchToCompletionDoubles) {
  // Reached exactly at a measured size.
  auto b = ceilings::launch_breakeven({1, 4, 16, 64, 256}, {5, 5, 6, 8, 10});
  ASSERT_TRUE(b);
  EXPECT_DOUBLE_EQ(b->items, 256.0);
  EXPECT_DOUBLE_EQ(b->time, 10.0);
  // Halfway in time between 64 and 256 items: 128 in log items.
  b = ceilings::launch_breakeven({1, 16, 64, 256}, {5, 5, 6, 14});
  ASSERT_TRUE(b);
  EXPECT_NEAR(b->items, 128.0, 1e-9);
  EXPECT_EQ(b->below, 64.0);
  EXPECT_EQ(b->above, 256.0);
  EXPECT_FALSE(ceilings::launch_breakeven({1, 4, 16}, {5, 6, 9}));  // never doubles
  EXPECT_FALSE(ceilings::launch_breakeven({1}, {5}));
}

core::SweepPoint point(const std::string& sweep, double x, double value) {
  core::SweepPoint p;
  p.sweep = sweep;
  p.x = x;
  p.values = {value * 0.99, value, value * 1.01};
  p.seconds = {0.01, 0.01, 0.01};
  return p;
}

// A copy sweep that follows t = latency + bytes / bandwidth exactly.
void add_copies(std::vector<core::SweepPoint>& out, const std::string& sweep, double latency_s,
                double gbps, double top = double(1 << 30)) {
  for (double b = 4096; b <= top; b *= 4) {
    core::SweepPoint p = point(sweep, b, b / (latency_s + b / (gbps * 1e9)) * 1e-9);
    p.values = {p.values[1], p.values[1], p.values[1]};
    out.push_back(p);
  }
}

const core::Ceiling* find(const std::vector<core::Ceiling>& figures, const std::string& name) {
  for (const core::Ceiling& c : figures)
    if (c.name == name) return &c;
  return nullptr;
}

TEST(TransferFigures, EveryFigureFromCompleteSweeps) {
  std::vector<core::SweepPoint> sweeps;
  add_copies(sweeps, "h2d:pinned", 10e-6, 50.0);
  add_copies(sweeps, "h2d:pageable", 30e-6, 10.0);
  add_copies(sweeps, "d2h:pinned", 8e-6, 40.0);
  add_copies(sweeps, "d2d", 5e-6, 1500.0);
  ceilings::PcieLink link;
  link.generation = 5;
  link.width = 16;
  link.current_generation = 1;
  link.current_width = 16;
  std::vector<std::string> skipped;
  const auto figures = ceilings::transfer_figures(sweeps, link, &skipped);
  EXPECT_TRUE(skipped.empty()) << skipped.front();
  ASSERT_EQ(figures.size(), 5u);
  // In kFigures' order, with its kinds and units.
  const char* order[] = {"h2d", "d2h", "d2d", "h2d_latency", "d2h_latency"};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(figures[i].name, order[i]);
    const core::Figure* row = core::find_figure(order[i]);
    EXPECT_EQ(figures[i].kind, row->kind);
    EXPECT_EQ(figures[i].units, row->units);
    EXPECT_GT(figures[i].samples, 0);
    EXPECT_LE(figures[i].min, figures[i].median);
    EXPECT_LE(figures[i].median, figures[i].max);
  }
  const core::Ceiling& h2d = *find(figures, "h2d");
  EXPECT_NEAR(h2d.value, double(1 << 30) / (10e-6 + double(1 << 30) / 50e9) * 1e-9, 1e-9);
  EXPECT_EQ(h2d.working_set_bytes, std::uint64_t{1} << 30);
  ASSERT_TRUE(h2d.theoretical);
  EXPECT_NEAR(*h2d.theoretical, 63.015, 1e-3);
  EXPECT_NE(h2d.theoretical_basis.find("PCIe 5.0 x16"), std::string::npos);
  EXPECT_NE(h2d.note.find("PCIe 5.0 x16"), std::string::npos) << h2d.note;
  EXPECT_NE(h2d.note.find("PCIe 1.0 x16 when read"), std::string::npos) << h2d.note;
  EXPECT_FALSE(find(figures, "d2d")->theoretical);
  EXPECT_NEAR(find(figures, "h2d_latency")->value, 10.0, 1e-6);  // us
  EXPECT_NEAR(find(figures, "d2h_latency")->value, 8.0, 1e-6);
  const std::string& note = find(figures, "h2d_latency")->note;
  EXPECT_NE(note.find("fitted bandwidth 50.0 GB/s"), std::string::npos) << note;
  EXPECT_NE(note.find("4 KiB to 1 GiB"), std::string::npos) << note;
}

TEST(TransferFigures, MissingPointsMakeNoFigureRatherThanAWrongOne) {
  std::vector<core::SweepPoint> sweeps;
  add_copies(sweeps, "d2d", 5e-6, 1500.0);
  add_copies(sweeps, "h2d:pinned", 10e-6, 50.0, 256 * 1024);  // small copies only
  std::vector<std::string> skipped;
  const auto figures = ceilings::transfer_figures(sweeps, {}, &skipped);
  ASSERT_EQ(figures.size(), 2u);
  EXPECT_EQ(figures[0].name, "d2d");
  EXPECT_EQ(figures[1].name, "h2d_latency");  // the fit needs no large copy
  EXPECT_NEAR(figures[1].value, 10.0, 1e-6);
  EXPECT_EQ(skipped.size(), 3u);  // h2d (no large copy), d2h, d2h_latency
  // Nothing at all: nothing, and no crash.
  skipped.clear();
  EXPECT_TRUE(ceilings::transfer_figures({}, {}, &skipped).empty());
  EXPECT_EQ(skipped.size(), 5u);
}

TEST(TransferFigures, NoPcieRateOverNvlinkC2cOrAnUnknownLink) {
  std::vector<core::SweepPoint> sweeps;
  add_copies(sweeps, "h2d:pinned", 10e-6, 50.0);
  ceilings::PcieLink c2c;
  c2c.interconnect = "NVLink-C2C";
  c2c.generation = 5;  // whatever NVML says, C2C carries the copies
  c2c.width = 16;
  // The figures outlive the pointers into them.
  const std::vector<core::Ceiling> over_c2c = ceilings::transfer_figures(sweeps, c2c);
  const core::Ceiling* h2d = find(over_c2c, "h2d");
  ASSERT_NE(h2d, nullptr);
  EXPECT_FALSE(h2d->theoretical);
  EXPECT_NE(h2d->note.find("NVLink-C2C"), std::string::npos);
  ceilings::PcieLink unknown;
  unknown.why_unknown = "NVML did not load";
  const std::vector<core::Ceiling> over_unknown = ceilings::transfer_figures(sweeps, unknown);
  h2d = find(over_unknown, "h2d");
  ASSERT_NE(h2d, nullptr);
  EXPECT_FALSE(h2d->theoretical);
  EXPECT_NE(h2d->note.find("NVML did not load"), std::string::npos);
}

TEST(LaunchFigures, LatencyIntervalFenceAndBreakeven) {
  std::vector<core::SweepPoint> sweeps;
  const double sync[] = {8, 8, 8, 8.5, 9, 12, 20, 50};
  const double queued[] = {3, 3, 3, 3, 3, 4, 12, 42};
  double items = 1;
  for (std::size_t i = 0; i < 8; ++i, items *= 4) {
    sweeps.push_back(point("launch:sync", items, sync[i]));
    sweeps.push_back(point("launch", items, queued[i]));
  }
  sweeps.push_back(point("fence", 0, 0.5));
  std::vector<std::string> skipped;
  const auto figures = ceilings::launch_figures(sweeps, "GPU", &skipped);
  EXPECT_TRUE(skipped.empty()) << skipped.front();
  ASSERT_EQ(figures.size(), 4u);
  EXPECT_EQ(figures[0].name, "launch_latency");
  EXPECT_DOUBLE_EQ(figures[0].value, 8.0);
  EXPECT_EQ(figures[0].kind, "latency");
  EXPECT_EQ(figures[0].units, "us");
  EXPECT_EQ(figures[1].name, "launch_interval");
  EXPECT_DOUBLE_EQ(figures[1].value, 3.0);
  EXPECT_EQ(figures[2].name, "fence");
  EXPECT_DOUBLE_EQ(figures[2].value, 0.5);
  EXPECT_EQ(figures[3].name, "launch_breakeven");
  // 16 us (twice the smallest) lies halfway between 12 us (1024 items) and 20 us (4096):
  // 2048 items of 8 bytes.
  EXPECT_NEAR(figures[3].value, 8.0 * 2048, 1e-6);
  EXPECT_EQ(figures[3].units, "B");
  EXPECT_EQ(figures[3].working_set_bytes, 8u * 2048);
  EXPECT_NE(figures[3].note.find("takes 16 us"), std::string::npos) << figures[3].note;
  EXPECT_NE(figures[3].note.find("2048 work items"), std::string::npos) << figures[3].note;
  EXPECT_EQ(figures[3].note.rfind(" (GPU)"), figures[3].note.size() - 6) << figures[3].note;
  for (const core::Ceiling& c : figures) {
    EXPECT_LE(c.min, c.median);
    EXPECT_LE(c.median, c.max);
  }
  EXPECT_EQ(figures[3].samples, 3);

  // A smallest kernel whose samples spread from 6 to 10 us: twice its fastest sample is
  // 12 us (1024 items), twice its slowest 20 us (4096 items), around the medians' 2048.
  std::vector<core::SweepPoint> spread = sweeps;
  for (core::SweepPoint& p : spread)
    if (p.sweep == "launch:sync") p.values = {p.values[1], p.values[1], p.values[1]};
  spread[0].values = {6.0, 8.0, 10.0};
  const auto wide = ceilings::launch_figures(spread, "GPU", &skipped);
  ASSERT_EQ(wide.size(), 4u);
  EXPECT_NEAR(wide[3].median, 8.0 * 2048, 1e-6);
  EXPECT_NEAR(wide[3].min, 8.0 * 1024, 1e-6);
  EXPECT_NEAR(wide[3].max, 8.0 * 4096, 1e-6);

  // Without the fence sweep and a kernel that ever doubles: two figures, two reasons.
  std::vector<core::SweepPoint> partial = {point("launch:sync", 1, 8), point("launch:sync", 4, 9),
                                           point("launch", 1, 3)};
  skipped.clear();
  const auto some = ceilings::launch_figures(partial, "GPU", &skipped);
  ASSERT_EQ(some.size(), 2u);
  EXPECT_EQ(skipped.size(), 2u);
}

}  // namespace
}  // namespace rooftop

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
