// rooftop_analyze: the charts. The overlay of several machines' rooflines: one colour
// and one legend entry per machine, every ceiling drawn and labelled, theoretical
// ceilings that were never measured drawn dotted.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rooftop/analyze/chart.hpp"
#include "support.hpp"

namespace rooftop::analyze {
namespace {

using ceilings::CeilingsFile;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

CeilingsFile gpu_file() {
  CeilingsFile f;
  f.machine.gpu_name = "Test GPU <sm_70>";
  f.ceilings = {rooftop::testing::make_ceiling("fp64_fma", 7000.0, 7000.0, 7000.0, 1),
                rooftop::testing::make_ceiling("l1", 14336.0, 14336.0, 14336.0, 0),
                rooftop::testing::make_ceiling("dram", 800.0, 800.0, 800.0, 1)};
  return f;
}

TEST(ComparisonSvg, OneColourAndOneLegendEntryPerMachine) {
  const std::string svg =
      comparison_svg({rooftop::testing::sample_ceilings_file(), gpu_file()}, {"cpu.h5", "gpu.h5"});
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(count(svg, "class='legend'"), 2u);
  EXPECT_NE(svg.find("[1] cpu.h5: Test GPU"), std::string::npos) << "sample file names a GPU";
  EXPECT_NE(svg.find("[2] gpu.h5: Test GPU &lt;sm_70&gt;"), std::string::npos) << "escaped";
  // Each machine's ceilings in its own colour.
  EXPECT_GE(count(svg, "stroke='#1f77b4'"), 3u);  // legend + fp64_fma + dram of [1]
  EXPECT_GE(count(svg, "stroke='#d62728'"), 4u);  // legend + three ceilings of [2]
}

TEST(ComparisonSvg, EveryCeilingOfEveryMachineIsDrawnAndLabelled) {
  const std::string svg =
      comparison_svg({rooftop::testing::sample_ceilings_file(), gpu_file()}, {"cpu.h5", "gpu.h5"});
  EXPECT_EQ(count(svg, "class='ceiling compute'"), 2u);
  EXPECT_EQ(count(svg, "class='ceiling bandwidth'"), 3u);
  EXPECT_NE(svg.find("[1] fp64_fma 101.5 GFLOP/s"), std::string::npos);
  EXPECT_NE(svg.find("[2] dram 800.0 GB/s"), std::string::npos);
  EXPECT_NE(svg.find("[2] l1 14336.0 GB/s (theoretical)"), std::string::npos);
}

TEST(ComparisonSvg, NeverMeasuredCeilingsAreDotted) {
  const std::string svg = comparison_svg({gpu_file(), gpu_file()}, {"a.h5", "b.h5"});
  EXPECT_EQ(count(svg, "stroke-dasharray='2,3'"), 2u);  // l1 of each
}

TEST(RooflineSvg, TheoreticalCeilingIsMarkedOnTheSingleMachineChartToo) {
  const std::string svg = roofline_svg(gpu_file());
  EXPECT_NE(svg.find("l1 14336.0 GB/s (theoretical)"), std::string::npos);
  EXPECT_EQ(count(svg, "stroke-dasharray='2,3'"), 1u);
}

}  // namespace
}  // namespace rooftop::analyze
