// libcupti is opened by rooftop's first CUPTI call, not by the loader: a process that
// counts nothing (analyze --no-cupti, which Nsight Compute profiles with a CUPTI of its
// own) never has it. A program of its own, since nothing here may load CUPTI first.

#include <gtest/gtest.h>

#include "rooftop/counters/cupti_host.hpp"

namespace rooftop::counters::cupti {
namespace {

TEST(CuptiLibrary, LoadedOnlyOnceAFunctionIsNeeded) {
  EXPECT_FALSE(cupti_loaded()) << "libcupti is loaded before any CUPTI call";
  EXPECT_GE(cupti_version(), kFirstRangeProfilerVersion);
  EXPECT_TRUE(cupti_loaded());
}

}  // namespace
}  // namespace rooftop::counters::cupti
