// Charts of extreme values: they must finish and stay small. A bandwidth of 5e-324 and a
// sweep point with a working set of 0 once made the axis framing loop for ever (with
// unbounded memory); readers now refuse both, and the chart no longer depends on it.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "rooftop/report/chart.hpp"
#include "support.hpp"

namespace rooftop::report {
namespace {

using core::CeilingsFile;

// Well under a second each; a runaway loop fails by the size check or ctest's timeout.
void expect_bounded(const std::string& svg) {
  EXPECT_LT(svg.size(), 1u << 20) << "chart of " << svg.size() << " bytes";
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(ChartOfExtremes, DenormalBandwidthFinishes) {
  CeilingsFile f = rooftop::testing::sample_ceilings_file();
  for (core::Ceiling& c : f.ceilings)
    if (c.kind == "bandwidth") c.value = c.median = c.min = c.max = 5e-324;
  const auto t0 = std::chrono::steady_clock::now();
  expect_bounded(roofline_svg(f));
  expect_bounded(comparison_svg({f, rooftop::testing::sample_ceilings_file()}, {"a.h5", "b.h5"}));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}

TEST(ChartOfExtremes, HugeAndTinyValuesFinish) {
  for (double v : {1e308, 1e-308, 0.0, -1.0}) {
    CeilingsFile f = rooftop::testing::sample_ceilings_file();
    f.ceilings[0].value = v;
    f.ceilings.back().value = v;
    expect_bounded(roofline_svg(f));
  }
}

TEST(ChartOfExtremes, SweepPointWithoutWorkingSetFinishes) {
  CeilingsFile f = rooftop::testing::sample_ceilings_file();
  ASSERT_FALSE(f.sweeps.bandwidth.empty());
  f.sweeps.bandwidth[0].working_set_bytes = 0;
  expect_bounded(roofline_svg(f));
}

TEST(ChartOfExtremes, KernelsAtExtremeIntensitiesFinish) {
  CeilingsFile f = rooftop::testing::sample_ceilings_file();
  f.kernels.emplace_back();
  core::KernelRecord& k = f.kernels.back();
  k.name = "far";
  k.flops_fp64 = 1e300;
  k.time_s = 1e-300;
  k.bytes = {{"dram", 1e-300}};
  expect_bounded(kernels_svg(f, "extremes"));
}

}  // namespace
}  // namespace rooftop::report
