// The cost model analyze says before it runs: timed runs as the sampling loop takes them,
// one run a replay pass plus the set-up where counted, run times from the declared
// counts at the roof.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rooftop/analyze/cost_model.hpp"
#include "rooftop/analyze/host_backend.hpp"
#include "rooftop/ceilings/io.hpp"
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
  EXPECT_DOUBLE_EQ(timed_seconds(0.001, gpu, Calibration::kept), 5 * 0.05)
      << "the calibration launch is the first sample";
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

  const RunModel& model = kDeviceRunModel;
  const Counting cupti{8, kCuptiSetupSeconds};
  const Estimate e = estimate({k, k}, c, kDeviceKernelSampling, cupti, model);
  const double held = held_bytes(k);
  EXPECT_DOUBLE_EQ(held, 1e12);
  EXPECT_DOUBLE_EQ(e.low_seconds, 2 * (kernel_seconds(at_roof, kDeviceKernelSampling, cupti,
                                                      Calibration::kept) +
                                       held / model.setup_fast_bytes_per_second));
  EXPECT_DOUBLE_EQ(e.high_seconds,
                   model.start_seconds +
                       2 * (kernel_seconds(at_roof / model.lowest_fraction, kDeviceKernelSampling,
                                           cupti) +
                            held / model.setup_slow_bytes_per_second));
  EXPECT_NE(e.text.find("2 kernels, about "), std::string::npos) << e.text;
  EXPECT_NE(e.text.find("(timed runs + 8 replay passes) x its run time + 1.8 s"),
            std::string::npos)
      << e.text;
}

TEST(CostModel, AKernelLaunchedOncePerFrequencyHoldsOneLaunchsBytes) {
  core::KernelRecord k;
  k.name = "gpp::v4_frequency_outside";
  k.bytes = {{"dram", 3e9}};
  EXPECT_DOUBLE_EQ(held_bytes(k), 3e9);
  k.note = "size small; " + std::string(core::kKernelsPerRunNote) + k.name + " x3";
  EXPECT_DOUBLE_EQ(held_bytes(k), 1e9);
}

// The model against real runs: each file of data/ holds the kernels of one `analyze` run
// on its ceilings, with the counts it declared and the times it measured; the whole run's
// wall time is the one data/README.md and BENCHMARKS.md give. The estimate made from the
// declared counts must hold it.
TEST(CostModel, ItsRangeHoldsTheWallTimeOfRealRuns) {
  struct Run {
    const char* file;
    bool device;
    double seconds_low, seconds_high;  // the wall time, or the range of repeated runs
  };
  for (const Run& run : {
           // 2-vCPU Zen 4 guest, 2026-11-29, `analyze --kernels gpp` (small): 57 and 64 s.
           Run{"epyc-zen4-2026-11-29-gpp-small.h5", false, 57.0, 64.0},
           // The same guest, the whole body (counts per version, v4 on three launches):
           // 57.0 and 57.5 s.
           Run{"epyc-zen4-2026-11-29-gpp-whole-body-small.h5", false, 57.0, 57.5},
           // 2-vCPU Zen 4 guest, 2026-11-22, gpp and the reference kernels: 59 to 69 s.
           Run{"epyc-zen4-gpp.h5", false, 59.0, 69.0},
           // H200, 2026-11-27, `--size classic --no-cupti`: 39 s.
           Run{"h200-2026-11-27-gpp-classic-nocupti.h5", true, 39.0, 39.0},
       }) {
    SCOPED_TRACE(run.file);
    const core::CeilingsFile file = ceilings::read_file(std::string(ROOFTOP_DATA_DIR) + "/" + run.file);
    ASSERT_FALSE(file.kernels.empty());
    for (const core::KernelRecord& k : file.kernels) ASSERT_EQ(k.source, "declared") << k.name;
    const Estimate e =
        estimate(file.kernels, file, run.device ? kDeviceKernelSampling : kKernelSampling, {},
                 run.device ? kDeviceRunModel : kHostRunModel);
    EXPECT_LE(e.low_seconds, run.seconds_low) << e.text;
    EXPECT_GE(e.high_seconds, run.seconds_high) << e.text;
    // And each kernel's measured run between its roof and the model's lowest fraction of it.
    for (const core::KernelRecord& k : file.kernels) {
      const double roof = roof_seconds(k, file);
      EXPECT_LE(roof, k.time_s * 1.001) << k.name;
      EXPECT_GE(roof / (run.device ? kDeviceRunModel : kHostRunModel).lowest_fraction, k.time_s)
          << k.name;
    }
  }
}

}  // namespace
}  // namespace rooftop::analyze
