#include <gtest/gtest.h>

#include <limits>

#include "rooftop/core/format.hpp"

namespace {

using rooftop::core::significant;

// The figures the H200's files hold: a small bandwidth keeps its digits, a ratio its
// three, and a large ceiling its whole integer part.
TEST(Significant, SmallValuesKeepTheirDigits) {
  EXPECT_EQ(significant(0.069812), "0.0698");
  EXPECT_EQ(significant(1.2234), "1.22");
  EXPECT_EQ(significant(1.2), "1.20");
  EXPECT_EQ(significant(0.957), "0.957");
  EXPECT_EQ(significant(49.24), "49.2");
}

TEST(Significant, LargeValuesKeepTheirIntegerPartWithSeparators) {
  EXPECT_EQ(significant(412.04), "412");
  EXPECT_EQ(significant(33086.3), "33,086");
  EXPECT_EQ(significant(1234567.5, 3), "1,234,568");
  EXPECT_EQ(significant(1234.5, 6), "1,234.50");
  EXPECT_EQ(significant(-9722.3), "-9,722");
  EXPECT_EQ(significant(999.6), "1,000");
}

TEST(Significant, RoundingThatCarriesKeepsTheDigitCount) {
  EXPECT_EQ(significant(9.996), "10.0");
  EXPECT_EQ(significant(0.09996), "0.100");
}

TEST(Significant, ExtremesInExponentForm) {
  EXPECT_EQ(significant(0.0), "0");
  EXPECT_EQ(significant(2.5e-6), "2.50e-06");
  EXPECT_EQ(significant(1.76274e16, 6), "1.76274e+16");
  EXPECT_EQ(significant(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(significant(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(significant(5e-324), "4.94e-324");
}

TEST(Trim, SpacesTabsAndLineEndsAtEitherEndGo) {
  EXPECT_EQ(rooftop::core::trim(" \ta b\r\n"), "a b");
  EXPECT_EQ(rooftop::core::trim("a"), "a");
  EXPECT_EQ(rooftop::core::trim(" \t\r\n"), "");
  EXPECT_EQ(rooftop::core::trim(""), "");
}

}  // namespace

TEST(Join, AListOfThousandsStaysALine) {
  EXPECT_EQ(rooftop::core::join({"a", "b"}, ", "), "a, b");
  EXPECT_EQ(rooftop::core::join_first({"a", "b", "c"}, ", ", 2), "a, b, 1 more");
  EXPECT_EQ(rooftop::core::join_first({"a", "b"}, ", ", 2), "a, b");
  EXPECT_EQ(rooftop::core::join_first({}, ", ", 2), "");
  std::vector<std::string> ids;
  for (int i = 1; i <= 5000; ++i) ids.push_back("k" + std::to_string(i));
  EXPECT_EQ(rooftop::core::join_first(ids, ", ", 3), "k1, k2, k3, 4997 more");
}
