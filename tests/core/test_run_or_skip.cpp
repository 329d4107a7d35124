// run_or_skip (core/error.hpp): the one way a measurement step is skipped with its reason.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rooftop/core/error.hpp"

namespace rooftop {
namespace {

TEST(RunOrSkip, AFailureIsRecordedWithItsNameAndTheRunGoesOn) {
  std::vector<std::string> skipped;
  int after = 0;
  EXPECT_FALSE(run_or_skip(&skipped, "stride:l2", [] { throw Error("out of memory"); }));
  EXPECT_TRUE(run_or_skip(&skipped, "fence", [&] { ++after; }));
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0], "stride:l2: out of memory");
  EXPECT_EQ(after, 1);
}

TEST(RunOrSkip, WithoutAListTheFailurePropagates) {
  EXPECT_THROW(run_or_skip(nullptr, "l1", [] { throw Error("result check failed"); }), Error);
}

TEST(RunOrSkip, AnInterruptionIsNeverSkipped) {
  std::vector<std::string> skipped;
  EXPECT_THROW(run_or_skip(&skipped, "dram", [] { throw Interrupted(); }), Interrupted);
  EXPECT_TRUE(skipped.empty());
}

}  // namespace
}  // namespace rooftop
