// The fleet's spread chart: one row per ceiling, one dot per rank that measured it, the
// slow ones red and named, the median and threshold lines, the failed ranks below.

#include <gtest/gtest.h>

#include <string>

#include "label_boxes.hpp"
#include "rooftop/report/chart.hpp"
#include "support.hpp"

namespace rooftop::report {
namespace {

using rooftop::testing::count_of;

using ceilings::RankRecord;


RankRecord rank(int r, const std::string& host, double fma, double dram) {
  RankRecord k;
  k.rank = r;
  k.hostname = host;
  k.device = "cpus " + std::to_string(r);
  k.status = "ok";
  core::CeilingsFile f;
  f.ceilings = {rooftop::testing::make_ceiling("fp64_fma", fma, fma, fma, 3),
                rooftop::testing::make_ceiling("dram", dram, dram, dram, 3)};
  k.file = f;
  return k;
}

ceilings::FleetFile fleet() {
  RankRecord failed;
  failed.rank = 3;
  failed.hostname = "node<3>";
  failed.status = "failed";
  failed.reason = "no GPU visible on node<3>";
  return ceilings::make_fleet({}, {rank(0, "node0", 100, 10), rank(1, "node1", 101, 10.1),
                                   rank(2, "node2", 80, 10.0), failed});
}

TEST(FleetSpreadSvg, OneDotPerRankAndCeilingSlowOnesRedAndNamed) {
  const ceilings::FleetFile f = fleet();
  const std::string svg = fleet_spread_svg(f, ceilings::review(f, 0.05));
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(count_of(svg, "<circle class='rank'"), 5u);
  EXPECT_EQ(count_of(svg, "<circle class='slow'"), 1u);
  EXPECT_NE(svg.find("r2 node2"), std::string::npos);
  EXPECT_EQ(count_of(svg, "class='median'"), 1u);
  EXPECT_EQ(count_of(svg, "class='threshold'"), 1u);
  EXPECT_NE(svg.find("fp64_fma"), std::string::npos);
  EXPECT_NE(svg.find("100.0 GFLOP/s"), std::string::npos);
  EXPECT_NE(svg.find("more than 5.0% below"), std::string::npos);
}

// Slow ranks of nearly one value: each name where it covers no other, or only in its
// dot's tooltip.
TEST(FleetSpreadSvg, NamesOfSlowRanksDoNotOverlap) {
  std::vector<RankRecord> ranks;
  for (int r = 0; r < 10; ++r)
    ranks.push_back(rank(r, "node" + std::to_string(r), r < 6 ? 100 : 70 + 0.1 * r, 10));
  const ceilings::FleetFile f = ceilings::make_fleet({}, ranks);
  const std::string svg = fleet_spread_svg(f, ceilings::review(f, 0.05));
  EXPECT_EQ(count_of(svg, "<circle class='slow'"), 4u);
  EXPECT_GE(count_of(svg, "fill='#d62728'>r"), 2u);
  EXPECT_EQ(rooftop::testing::overlapping_labels(svg), std::vector<std::string>{});
  const std::string other = fleet_spread_svg(fleet(), ceilings::review(fleet(), 0.05));
  EXPECT_EQ(rooftop::testing::overlapping_labels(other), std::vector<std::string>{});
}

TEST(FleetSpreadSvg, FailedRanksAreListedEscaped) {
  const ceilings::FleetFile f = fleet();
  const std::string svg = fleet_spread_svg(f, ceilings::review(f, 0.05));
  EXPECT_EQ(count_of(svg, "class='failed'"), 1u);
  EXPECT_NE(svg.find("no GPU visible on node&lt;3&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("node<3>"), std::string::npos);
}

TEST(FleetSpreadSvg, AFleetWithNothingMeasuredStillDraws) {
  RankRecord failed;
  failed.status = "failed";
  failed.reason = "interrupted";
  const ceilings::FleetFile f = ceilings::make_fleet({}, {failed});
  const std::string svg = fleet_spread_svg(f, ceilings::review(f, 0.05));
  EXPECT_NE(svg.find("no rank measured any ceiling"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

}  // namespace
}  // namespace rooftop::report
