// Comparing ceilings files: the noise-aware verdicts at the edge of the runs' spread,
// files without spread, machines with different memory levels.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "rooftop/ceilings/compare.hpp"
#include "rooftop/core/error.hpp"
#include "samples.hpp"
#include "support.hpp"

namespace rooftop::ceilings {
namespace {

using rooftop::testing::cpu_file;
using rooftop::testing::error_of;
using rooftop::testing::file_with;
using rooftop::testing::gpu_file;
using rooftop::testing::make_ceiling;

// The baseline of the edge tests: median 100, samples from 90 to 110.
core::Ceiling base() { return make_ceiling("fp64_fma", 100.0, 90.0, 110.0, 5); }

double just_above(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }
double just_below(double x) { return std::nextafter(x, -std::numeric_limits<double>::infinity()); }

// ---------------------------------------------------------------------------------------
// has_spread / judge

TEST(HasSpread, NeedsTwoSamplesAndARange) {
  EXPECT_TRUE(has_spread(make_ceiling("l1", 10.0, 9.0, 11.0, 2)));
  EXPECT_FALSE(has_spread(make_ceiling("l1", 10.0, 9.0, 11.0, 1))) << "one sample";
  EXPECT_FALSE(has_spread(make_ceiling("l1", 10.0, 10.0, 10.0, 5))) << "zero-width range";
  EXPECT_FALSE(has_spread(make_ceiling("l1", 10.0, 10.0, 10.0, 0))) << "not measured";
}

TEST(Judge, OverlappingRangesAreTheSame) {
  EXPECT_EQ(judge(base(), make_ceiling("fp64_fma", 104.0, 95.0, 108.0, 5)), Verdict::same);
  EXPECT_EQ(judge(base(), make_ceiling("fp64_fma", 100.0, 80.0, 120.0, 3)), Verdict::same) << "contains";
}

TEST(Judge, RangeStartingExactlyAtTheBaselineMaxIsStillTheSame) {
  EXPECT_EQ(judge(base(), make_ceiling("fp64_fma", 120.0, 110.0, 130.0, 5)), Verdict::same);
}

TEST(Judge, RangeStartingJustAboveTheBaselineMaxIsHigher) {
  EXPECT_EQ(judge(base(), make_ceiling("fp64_fma", 120.0, just_above(110.0), 130.0, 5)),
            Verdict::higher);
}

TEST(Judge, RangeEndingExactlyAtTheBaselineMinIsStillTheSame) {
  EXPECT_EQ(judge(base(), make_ceiling("fp64_fma", 85.0, 80.0, 90.0, 5)), Verdict::same);
}

TEST(Judge, RangeEndingJustBelowTheBaselineMinIsLower) {
  EXPECT_EQ(judge(base(), make_ceiling("fp64_fma", 85.0, 80.0, just_below(90.0), 5)), Verdict::lower);
}

TEST(Judge, TheRuleIsSymmetric) {
  const core::Ceiling above = make_ceiling("fp64_fma", 120.0, just_above(110.0), 130.0, 5);
  EXPECT_EQ(judge(above, base()), Verdict::lower);
  const core::Ceiling touching = make_ceiling("fp64_fma", 120.0, 110.0, 130.0, 5);
  EXPECT_EQ(judge(touching, base()), Verdict::same);
}

TEST(Judge, EitherSideWithoutSpreadSaysSoInsteadOfGuessing) {
  const core::Ceiling single = make_ceiling("fp64_fma", 500.0, 500.0, 500.0, 1);
  EXPECT_EQ(judge(base(), single), Verdict::no_spread) << "five times faster, but one sample";
  EXPECT_EQ(judge(single, base()), Verdict::no_spread);
  EXPECT_EQ(judge(single, single), Verdict::no_spread) << "equal values are not evidence either";
}

TEST(VerdictNames, AreTheDocumentedWords) {
  EXPECT_STREQ(to_string(Verdict::baseline), "baseline");
  EXPECT_STREQ(to_string(Verdict::same), "same");
  EXPECT_STREQ(to_string(Verdict::higher), "higher");
  EXPECT_STREQ(to_string(Verdict::lower), "lower");
  EXPECT_STREQ(to_string(Verdict::absent), "absent");
  EXPECT_STREQ(to_string(Verdict::no_spread), "no spread");
  EXPECT_STREQ(to_string(Verdict::no_baseline), "no baseline");
}

// ---------------------------------------------------------------------------------------
// compare

const ComparedCeiling& row(const Comparison& c, const std::string& name) {
  for (const ComparedCeiling& r : c.ceilings)
    if (r.name == name) return r;
  throw std::runtime_error("no row " + name);
}

TEST(Compare, RowsInRooflineOrderOverTheUnionOfCeilings) {
  const Comparison c = compare({gpu_file(), cpu_file()}, {"gpu.h5", "cpu.h5"});
  std::vector<std::string> names;
  for (const ComparedCeiling& r : c.ceilings) names.push_back(r.name);
  EXPECT_EQ(names, (std::vector<std::string>{"fp64_fma", "l1", "l3", "dram"}));
  ASSERT_EQ(c.files.size(), 2u);
  EXPECT_EQ(c.files[0].label, "gpu.h5");
  EXPECT_EQ(c.files[0].machine, "Test GPU");
  EXPECT_EQ(c.files[1].machine, "Test CPU");
}

TEST(Compare, RatiosAreAgainstTheFirstFile) {
  const Comparison c = compare({cpu_file(), gpu_file()}, {"cpu.h5", "gpu.h5"});
  const ComparedCeiling& dram = row(c, "dram");
  ASSERT_TRUE(dram.ratios[0] && dram.ratios[1]);
  EXPECT_DOUBLE_EQ(*dram.ratios[0], 1.0);
  EXPECT_DOUBLE_EQ(*dram.ratios[1], 20.0);
  EXPECT_EQ(dram.verdicts[0], Verdict::baseline);
  EXPECT_EQ(dram.verdicts[1], Verdict::no_spread);
}

TEST(Compare, LevelsOneMachineLacksAreAbsentNotZero) {
  const Comparison c = compare({cpu_file(), gpu_file()}, {"cpu.h5", "gpu.h5"});
  const ComparedCeiling& l3 = row(c, "l3");
  EXPECT_TRUE(l3.ceilings[0].has_value());
  EXPECT_FALSE(l3.ceilings[1].has_value());
  EXPECT_FALSE(l3.ratios[1].has_value());
  EXPECT_EQ(l3.verdicts[1], Verdict::absent);
}

TEST(Compare, CeilingTheBaselineLacksHasNoBaseline) {
  const Comparison c = compare({gpu_file(), cpu_file()}, {"gpu.h5", "cpu.h5"});
  const ComparedCeiling& l3 = row(c, "l3");
  EXPECT_EQ(l3.verdicts[0], Verdict::absent);
  EXPECT_EQ(l3.verdicts[1], Verdict::no_baseline);
  EXPECT_FALSE(l3.ratios[0].has_value());
  EXPECT_FALSE(l3.ratios[1].has_value());
}

TEST(Compare, ThreeFilesEachAgainstTheFirst) {
  core::CeilingsFile faster = cpu_file(), same = cpu_file();
  faster.ceilings[0] = make_ceiling("fp64_fma", 130.0, 120.0, 140.0, 5);
  same.ceilings[0] = make_ceiling("fp64_fma", 108.0, 105.0, 111.0, 5);
  const Comparison c = compare({cpu_file(), faster, same}, {"a", "b", "c"});
  const ComparedCeiling& fma = row(c, "fp64_fma");
  EXPECT_EQ(fma.verdicts,
            (std::vector<Verdict>{Verdict::baseline, Verdict::higher, Verdict::same}));
  EXPECT_DOUBLE_EQ(*fma.ratios[1], 1.3);
}

TEST(Compare, ACopyOfAFileIsTheSameEverywhere) {
  const Comparison c = compare({cpu_file(), cpu_file()}, {"a.h5", "copy-of-a.h5"});
  for (const ComparedCeiling& r : c.ceilings) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(r.verdicts[1], Verdict::same);
    EXPECT_DOUBLE_EQ(*r.ratios[1], 1.0);
  }
}

TEST(Compare, NeedsTwoFiles) {
  const std::string msg = error_of([] { compare({cpu_file()}, {"a.h5"}); });
  EXPECT_NE(msg.find("at least two"), std::string::npos) << msg;
}

TEST(Compare, DifferentUnitsForOneCeilingAreAnError) {
  core::CeilingsFile odd = cpu_file();
  odd.ceilings[1].units = "GiB/s";
  const std::string msg = error_of([&] { compare({cpu_file(), odd}, {"a.h5", "odd.h5"}); });
  EXPECT_NE(msg.find("odd.h5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("l1"), std::string::npos) << msg;
}

}  // namespace
// Schema 1.7's figures are compared like the ceilings, listed after them.
TEST(Compare, FiguresAreComparedAfterTheCeilings) {
  core::CeilingsFile a = rooftop::testing::cpu_file(), b = rooftop::testing::cpu_file();
  core::Ceiling h2d = rooftop::testing::make_ceiling("dram", 25.0, 24.0, 26.0, 3);
  h2d.name = "h2d";
  h2d.kind = "transfer";
  a.costs.figures = {h2d};
  h2d.value = h2d.median = 50.0;
  h2d.min = 49.0;
  h2d.max = 51.0;
  b.costs.figures = {h2d};
  const Comparison c = compare({a, b}, {"a.h5", "b.h5"});
  ASSERT_FALSE(c.ceilings.empty());
  const ComparedCeiling& last = c.ceilings.back();
  EXPECT_EQ(last.name, "h2d");
  EXPECT_EQ(last.kind, "transfer");
  EXPECT_EQ(last.ratios[1], 2.0);
  EXPECT_EQ(last.verdicts[1], Verdict::higher);
}

}  // namespace rooftop::ceilings
