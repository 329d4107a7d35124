// The cost model analyze says before it runs: timed runs as the sampling loop takes them,
// one run a replay pass plus the set-up where counted, run times from the declared
// counts at the roof.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rooftop/analyze/cost_model.hpp"
#include "rooftop/analyze/host_backend.hpp"
#include "rooftop/core/roofline.hpp"
#include "support.hpp"

namespace rooftop::analyze {
namespace {

TEST(CostModel, TimedRunsStopAtTheBudgetAndAlwaysTakeOneRun) {
  const core::Sampling gpu = kDeviceKernelSampling;  // 5 samples of 50 ms, within 1.5 s
  EXPECT_DOUBLE_EQ(timed_seconds(0.001, gpu), 6 * 0.05) << "samples grow to 50 ms";
  EXPECT_DOUBLE_EQ(timed_seconds(0.2, gpu), 1.2);
  EXPECT_DOUBLE_EQ(timed_seconds(1.0, gpu), 1.5) << "a second-long run: the budget";
  EXPECT_DOUBLE_EQ(timed_seconds(4.0, gpu), 4.0) << "one run at least";
  EXPECT_DOUBLE_EQ(timed_seconds(0.3, kOnceSampling), 0.3) << "--once: that run";
}

TEST(CostModel, CountingAddsOneRunAPassAndTheSetUp) {
  const Counting cupti{8, kCuptiSetupSeconds};
  EXPECT_DOUBLE_EQ(kernel_seconds(0.2, kDeviceKernelSampling, cupti),
                   1.2 + 8 * 0.2 + kCuptiSetupSeconds);
  EXPECT_DOUBLE_EQ(kernel_seconds(0.2, kDeviceKernelSampling, {}), 1.2) << "nothing counted";
}

TEST(CostModel, RunTimeAtTheRoofFromTheDeclaredCounts) {
  const core::CeilingsFile c = testing::sample_ceilings_file();
  core::KernelRecord k;
  k.name = "k";
  k.precision = "fp64";
  k.flops_fp64 = 1e9;
  k.bytes = {{"dram", 1e12}};  // far below the ridge: the DRAM roof binds
  const double at_roof = roof_seconds(k, c);
  ASSERT_GT(at_roof, 0.0);
  const core::Placement p = core::place(k, c);
  EXPECT_DOUBLE_EQ(at_roof, 1e9 / (p.attainable_gflop_per_s * 1e9));

  const Estimate e = estimate({k, k}, c, kDeviceKernelSampling, {8, kCuptiSetupSeconds});
  EXPECT_DOUBLE_EQ(e.low_seconds, 2 * kernel_seconds(at_roof, kDeviceKernelSampling,
                                                     {8, kCuptiSetupSeconds}));
  EXPECT_DOUBLE_EQ(e.high_seconds, 2 * kernel_seconds(10 * at_roof, kDeviceKernelSampling,
                                                      {8, kCuptiSetupSeconds}));
  EXPECT_NE(e.text.find("2 kernels, about "), std::string::npos) << e.text;
  EXPECT_NE(e.text.find("(timed runs + 8 replay passes) x its run time + 1.8 s"),
            std::string::npos)
      << e.text;
}

}  // namespace
}  // namespace rooftop::analyze
