// access_figures on synthetic sweeps: each ratio, the 90% rule, pooling, and no figure
// where its points are missing.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rooftop/ceilings/access_figures.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings {
namespace {

core::SweepPoint pt(const std::string& sweep, double x, std::vector<double> values) {
  core::SweepPoint p;
  p.sweep = sweep;
  p.x = x;
  p.values = std::move(values);
  p.seconds.assign(p.values.size(), 0.01);
  return p;
}

const core::Ceiling* find(const std::vector<core::Ceiling>& figures, const std::string& name) {
  for (const auto& c : figures)
    if (c.name == name) return &c;
  return nullptr;
}

std::vector<core::SweepPoint> full_sweeps() {
  return {
      pt("stride:l2", 1, {100, 98, 102}),     pt("stride:l2", 32, {10, 11, 9}),
      pt("stride:dram", 1, {40, 40, 40}),     pt("stride:dram", 8, {5, 5, 5}),
      pt("stride:dram", 32, {4, 4, 4}),       pt("rows:dram", 4096, {1, 1, 1}),
      pt("columns:dram", 4096, {8, 8, 8}),    pt("rows:dram", 8192, {2, 2, 2}),
      pt("columns:dram", 8192, {30, 30, 30}), pt("columns:dram", 16384, {31, 31, 31}),
      pt("occupancy:dram", 1, {100}),         pt("occupancy:dram", 2, {400}),
      pt("occupancy:dram", 4, {899}),         pt("occupancy:dram", 8, {950}),
      pt("occupancy:dram", 16, {1000}),       pt("threads:dram", 1, {20, 21, 19}),
      pt("threads:dram", 2, {30, 30, 30}),    pt("divergence:fp32", 1, {2, 2, 2}),
      pt("divergence:fp32", 32, {64, 64, 64}),
  };
}

TEST(AccessFigures, RatiosOfTheMedians) {
  const auto figures = access_figures(full_sweeps());
  const core::Ceiling* l2 = find(figures, "stride32_l2");
  ASSERT_NE(l2, nullptr);
  EXPECT_DOUBLE_EQ(l2->value, 10.0 / 100.0);
  EXPECT_DOUBLE_EQ(l2->median, l2->value);
  EXPECT_DOUBLE_EQ(l2->min, 9.0 / 102.0);   // lowest over highest
  EXPECT_DOUBLE_EQ(l2->max, 11.0 / 98.0);   // highest over lowest
  EXPECT_EQ(l2->samples, 3);
  EXPECT_EQ(l2->kind, "ratio");
  EXPECT_EQ(l2->units, "ratio");
  EXPECT_EQ(l2->pattern, "stride 32 / stride 1");
  EXPECT_FALSE(l2->theoretical.has_value());
  EXPECT_FALSE(l2->note.empty());
  EXPECT_DOUBLE_EQ(find(figures, "stride32_dram")->value, 0.1);
  EXPECT_DOUBLE_EQ(find(figures, "divergence1_fp32")->value, 2.0 / 64.0);
  // Columns over rows at the largest side both have (16384 has no rows point).
  const core::Ceiling* columns = find(figures, "columns_dram");
  ASSERT_NE(columns, nullptr);
  EXPECT_DOUBLE_EQ(columns->value, 15.0);
  EXPECT_NE(columns->pattern.find("8192"), std::string::npos) << columns->pattern;
}

TEST(AccessFigures, TheSmallestXReachingNinetyPercentOfTheBest) {
  const auto figures = access_figures(full_sweeps());
  const core::Ceiling* occupancy = find(figures, "occupancy90_dram");
  ASSERT_NE(occupancy, nullptr);
  EXPECT_DOUBLE_EQ(occupancy->value, 8.0);  // 899 < 900 <= 950
  EXPECT_DOUBLE_EQ(occupancy->min, 8.0);
  EXPECT_DOUBLE_EQ(occupancy->max, 8.0);
  EXPECT_EQ(occupancy->kind, "occupancy");
  EXPECT_EQ(occupancy->units, "warps/SM");
  const core::Ceiling* threads = find(figures, "threads90_dram");
  ASSERT_NE(threads, nullptr);
  EXPECT_DOUBLE_EQ(threads->value, 2.0);  // 20 < 27
  EXPECT_EQ(threads->units, "threads");
  // Exactly 90% reaches; the best need not be the last point.
  const auto edge = access_figures({pt("threads:dram", 1, {90}), pt("threads:dram", 2, {100}),
                                    pt("threads:dram", 4, {95})});
  ASSERT_EQ(edge.size(), 1u);
  EXPECT_DOUBLE_EQ(edge[0].value, 1.0);
}

TEST(AccessFigures, InKFiguresOrder) {
  const auto figures = access_figures(full_sweeps());
  ASSERT_EQ(figures.size(), 6u);
  for (std::size_t i = 1; i < figures.size(); ++i)
    EXPECT_LT(core::figure_rank(figures[i - 1].name), core::figure_rank(figures[i].name));
}

TEST(AccessFigures, PointsOfOneXArePooled) {
  const auto figures = access_figures({pt("stride:l2", 1, {100}), pt("stride:l2", 1, {80, 90}),
                                       pt("stride:l2", 32, {9})});
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_DOUBLE_EQ(figures[0].value, 0.1);  // median of 80, 90, 100
  EXPECT_EQ(figures[0].samples, 1);
}

TEST(AccessFigures, MissingPointsGiveNoFigure) {
  EXPECT_TRUE(access_figures({}).empty());
  // No stride 1, no stride 32, an empty point, a single occupancy point, rows and
  // columns at different sides, a divergence sweep without 32 lanes.
  EXPECT_TRUE(access_figures({pt("stride:l2", 2, {50}), pt("stride:l2", 32, {5}),
                              pt("stride:dram", 1, {50}), pt("stride:dram", 32, {}),
                              pt("occupancy:dram", 64, {1000}), pt("rows:dram", 4096, {1}),
                              pt("columns:dram", 8192, {8}), pt("divergence:fp32", 1, {2}),
                              pt("divergence:fp32", 16, {32})})
                  .empty());
  // A rate of zero at stride 1 is no ratio.
  EXPECT_TRUE(access_figures({pt("stride:l2", 1, {0}), pt("stride:l2", 32, {5})}).empty());
  // Other sweeps are ignored.
  EXPECT_TRUE(access_figures({pt("h2d:pinned", 1, {5}), pt("h2d:pinned", 32, {5})}).empty());
}

TEST(AccessFigures, DisturbanceOfTheWorsePoint) {
  auto points = std::vector<core::SweepPoint>{pt("stride:dram", 1, {40, 40, 40}),
                                              pt("stride:dram", 32, {4, 4, 4})};
  points[0].disturbance = {0.0, 0.01, 0.0};
  points[1].disturbance = {0.05, 0.06, 0.04};
  const auto figures = access_figures(points);
  ASSERT_EQ(figures.size(), 1u);
  ASSERT_TRUE(figures[0].disturbance.has_value());
  EXPECT_DOUBLE_EQ(*figures[0].disturbance, 0.05);
}

}  // namespace
}  // namespace rooftop::ceilings
