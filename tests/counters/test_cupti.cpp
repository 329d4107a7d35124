// CUPTI's Profiler Host API on a machine with no GPU and no driver (built where CUPTI
// is found): the chips it knows, the roofline metric list against real chips (which
// names each lacks, and why), config images and replay passes, metrics that cannot be
// scheduled, and clear errors. Where this machine's CUPTI refuses the host API itself,
// the tests are skipped with CUPTI's reason, never passed.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "rooftop/core/error.hpp"
#include "rooftop/counters/cupti_host.hpp"
#include "rooftop/counters/metrics.hpp"
#include "support.hpp"

namespace rooftop::counters::cupti {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

using rooftop::testing::error_of;

// Skips the test unless this CUPTI's host API knows `chip`.
#define REQUIRE_CHIP(chip)                                                       \
  do {                                                                           \
    std::vector<std::string> chips;                                              \
    try {                                                                        \
      chips = supported_chips();                                                 \
    } catch (const Error& e) {                                                   \
      GTEST_SKIP() << "CUPTI's Profiler Host API is refused here: " << e.what(); \
    }                                                                            \
    if (std::find(chips.begin(), chips.end(), chip) == chips.end())              \
      GTEST_SKIP() << "this CUPTI does not know chip " << chip;                  \
  } while (0)

std::vector<std::string> names_of(const std::vector<SkippedMetric>& skipped) {
  std::vector<std::string> names;
  for (const SkippedMetric& s : skipped) names.push_back(s.name);
  std::sort(names.begin(), names.end());
  return names;
}

TEST(CuptiHost, VersionHasTheRangeProfiler) {
  EXPECT_GE(cupti_version(), kFirstRangeProfilerVersion);
}

TEST(CuptiHost, KnowsDatacenterChips) {
  REQUIRE_CHIP("GH100");
  const std::vector<std::string> chips = supported_chips();
  EXPECT_NE(std::find(chips.begin(), chips.end(), "GA100"), chips.end());
  EXPECT_NE(std::find(chips.begin(), chips.end(), "GV100"), chips.end());
}

TEST(CuptiHost, RooflineMetricsOnGH100) {
  REQUIRE_CHIP("GH100");
  ProfilerHost host("GH100");
  EXPECT_EQ(host.chip(), "GH100");
  const std::vector<SkippedMetric> skipped = host.add_metrics(roofline_metric_names());
  // Hopper names the newer L1 definition _mem_lgds; _mem_lg and _mem_ds are Ampere's. Its
  // FP16 tensor ops are one metric, _src_fp16, and FP8's _src_fp8 (Blackwell's has _dst_).
  EXPECT_EQ(names_of(skipped),
            (std::vector<std::string>{"l1tex__lsu_writeback_active_mem_ds.sum",
                                      "l1tex__lsu_writeback_active_mem_lg.sum",
                                      "sm__ops_path_tensor_src_fp16_dst_fp16.sum",
                                      "sm__ops_path_tensor_src_fp16_dst_fp32.sum",
                                      "sm__ops_path_tensor_src_fp8_dst_fp32.sum"}));
  for (const SkippedMetric& s : skipped) {
    EXPECT_TRUE(contains(s.reason, "not a metric on GH100")) << s.reason;
    EXPECT_TRUE(contains(s.reason, "CUPTI_ERROR_INVALID_METRIC_NAME")) << s.reason;
  }
  EXPECT_EQ(host.metrics().size(), roofline_metric_names().size() - 5);
  for (const char* m : {"dram__bytes.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum",
                        "sm__sass_thread_inst_executed_op_dfma_pred_on.sum",
                        "l1tex__lsu_writeback_active_mem_lgds.sum", "gpu__time_duration.sum"})
    EXPECT_NE(std::find(host.metrics().begin(), host.metrics().end(), m), host.metrics().end())
        << m;

  const std::vector<std::uint8_t> image = host.config_image();
  EXPECT_FALSE(image.empty());
  const std::size_t passes = ProfilerHost::passes(image);
  EXPECT_GE(passes, 1u);
  EXPECT_LE(passes, 8u);  // one batch: 8 with CUDA 13.0, as the H200 ran it
  RecordProperty("gh100_config_image_bytes", static_cast<int>(image.size()));
  RecordProperty("gh100_passes", static_cast<int>(passes));
}

TEST(CuptiHost, RooflineMetricsOnGA100) {
  REQUIRE_CHIP("GA100");
  ProfilerHost host("GA100");
  const std::vector<SkippedMetric> skipped = host.add_metrics(roofline_metric_names());
  EXPECT_EQ(names_of(skipped),
            (std::vector<std::string>{"l1tex__lsu_writeback_active_mem_ds.sum",
                                      "l1tex__lsu_writeback_active_mem_lgds.sum",
                                      "sm__ops_path_tensor_src_fp16.sum",
                                      "sm__ops_path_tensor_src_fp8.sum",
                                      "sm__ops_path_tensor_src_fp8_dst_fp32.sum"}));
  EXPECT_GE(ProfilerHost::passes(host.config_image()), 1u);
}

TEST(CuptiHost, UnknownMetricIsSkippedWithItsReason) {
  REQUIRE_CHIP("GH100");
  ProfilerHost host("GH100");
  const auto skipped = host.add_metrics({"dram__bytes.sum", "rooftop__no_such_counter.sum"});
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].name, "rooftop__no_such_counter.sum");
  EXPECT_TRUE(contains(skipped[0].reason, "not a metric on GH100")) << skipped[0].reason;
  EXPECT_EQ(host.metrics(), std::vector<std::string>{"dram__bytes.sum"});
  EXPECT_GE(ProfilerHost::passes(host.config_image()), 1u);
  EXPECT_TRUE(contains(host.check_metric("rooftop__no_such_counter.sum"), "INVALID_METRIC_NAME"));
  EXPECT_EQ(host.check_metric("dram__bytes.sum"), "");
}

TEST(CuptiHost, MetricThatCannotBeScheduledDoesNotSpoilTheOthers) {
  REQUIRE_CHIP("GH100");
  ProfilerHost host("GH100");
  // A base metric without a rollup: CUPTI describes it, but refuses to schedule it, and
  // its refusal leaves a host object unusable; the others must still be scheduled.
  const auto skipped = host.add_metrics({"dram__bytes.sum", "dram__bytes", "lts__t_bytes.sum"});
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].name, "dram__bytes");
  EXPECT_TRUE(contains(skipped[0].reason, "cannot be scheduled on GH100")) << skipped[0].reason;
  EXPECT_EQ(host.metrics(), (std::vector<std::string>{"dram__bytes.sum", "lts__t_bytes.sum"}));
  EXPECT_GE(ProfilerHost::passes(host.config_image()), 1u);
  // And more can be added afterwards.
  EXPECT_TRUE(host.add_metrics({"gpu__time_duration.sum"}).empty());
  EXPECT_EQ(host.metrics().size(), 3u);
  EXPECT_GE(ProfilerHost::passes(host.config_image()), 1u);
}

TEST(CuptiHost, MetricsAreAddedOnce) {
  REQUIRE_CHIP("GH100");
  ProfilerHost host("GH100");
  EXPECT_TRUE(host.add_metrics({"dram__bytes.sum", "dram__bytes.sum"}).empty());
  EXPECT_TRUE(host.add_metrics({"dram__bytes.sum"}).empty());
  EXPECT_EQ(host.metrics(), std::vector<std::string>{"dram__bytes.sum"});
}

TEST(CuptiHost, NoMetricsNoConfigImage) {
  REQUIRE_CHIP("GH100");
  ProfilerHost host("GH100");
  EXPECT_TRUE(contains(error_of([&] { host.config_image(); }), "no metrics"));
  EXPECT_TRUE(contains(error_of([] { ProfilerHost::passes({}); }), "config image is empty"));
}

TEST(CuptiHost, UnknownChipNamesTheKnownOnes) {
  REQUIRE_CHIP("GH100");
  const std::string e = error_of([] { ProfilerHost host("NOPE100"); });
  EXPECT_TRUE(contains(e, "cuptiProfilerHostInitialize for chip \"NOPE100\"")) << e;
  EXPECT_TRUE(contains(e, "GH100")) << e;
  EXPECT_TRUE(contains(e, "CUPTI_ERROR")) << e;
}

TEST(CuptiHost, CorruptCounterDataIsAnErrorNotACrash) {
  REQUIRE_CHIP("GH100");
  ProfilerHost host("GH100");
  host.add_metrics({"dram__bytes.sum"});
  const std::vector<std::uint8_t> zeros(4096, 0);
  std::string e = error_of([&] { host.evaluate(zeros, 0); });
  EXPECT_TRUE(contains(e, "cuptiProfilerHostEvaluateToGpuValues on GH100 (range 0)")) << e;
  e = error_of([&] { range_count(zeros); });
  EXPECT_TRUE(contains(e, "cuptiRangeProfilerGetCounterDataInfo")) << e;
  EXPECT_TRUE(contains(error_of([&] { host.evaluate({}, 0); }), "counter-data image is empty"));
}

TEST(CuptiHost, MovedHostKeepsItsMetrics) {
  REQUIRE_CHIP("GH100");
  ProfilerHost a("GH100");
  a.add_metrics({"dram__bytes.sum"});
  ProfilerHost b(std::move(a));
  EXPECT_EQ(b.metrics(), std::vector<std::string>{"dram__bytes.sum"});
  EXPECT_FALSE(b.config_image().empty());
  EXPECT_TRUE(
      contains(error_of([&] { a.check_metric("dram__bytes.sum"); }), "moved from"));  // NOLINT
  ProfilerHost c("GA100");
  c = std::move(b);
  EXPECT_EQ(c.chip(), "GH100");
  EXPECT_FALSE(c.config_image().empty());
}

// What GH100's CUPTI says of the FP64 sums: instructions, which is why the evaluator
// takes FLOPs from the add, mul and fma parts (an FMA counted twice) and never from them.
TEST(CuptiHost, GH100InstructionSumsAreInstructions) {
  REQUIRE_CHIP("GH100");
  const ProfilerHost host("GH100");
  const auto sum = host.describe_metric(
      "sm__sass_thread_inst_executed_ops_dadd_dmul_dfma_pred_on.sum");
  const auto fma = host.describe_metric("sm__sass_thread_inst_executed_op_dfma_pred_on.sum");
  EXPECT_TRUE(contains(sum.description + " " + sum.dimension, "inst")) << sum.description;
  EXPECT_EQ(sum.dimension, fma.dimension) << "the sum is the same kind of count as its parts";
  EXPECT_TRUE(contains(error_of([&] { host.describe_metric("no_such__metric.sum"); }),
                       "no_such__metric.sum on GH100"));
}

TEST(CuptiHost, DriverOlderThanTheBuildsCuptiIsRefusedWithTheFix) {
  EXPECT_EQ(driver_too_old(13000, 13000), "");
  EXPECT_EQ(driver_too_old(13010, 13000), "");
  EXPECT_EQ(driver_too_old(13000, 13020), "") << "a newer minor runs on the major's driver";
  const std::string old = driver_too_old(12060, 13000);  // accepted before: 12.6 >= 12.6
  EXPECT_TRUE(contains(old, "supports CUDA 12.6")) << old;
  EXPECT_TRUE(contains(old, "CUDA 13.0")) << old;
  EXPECT_TRUE(contains(old, "r580")) << old;
  EXPECT_TRUE(contains(driver_too_old(12040, 12080), "supports CUDA 12.4")) << "Range Profiler";
  EXPECT_EQ(driver_too_old(12060, 12080), "");
}

TEST(CuptiHost, BusyCountersAreNotAPermissionProblem) {
  const std::string s = describe_result(26);  // CUPTI_ERROR_HARDWARE_BUSY
  EXPECT_TRUE(contains(s, "another process is profiling this GPU")) << s;
  EXPECT_FALSE(contains(s, "NVreg")) << s;
}

TEST(CuptiHost, PrivilegeErrorsSayHowToFixThem) {
  const std::string s = describe_result(35);  // CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
  EXPECT_TRUE(contains(s, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES")) << s;
  EXPECT_TRUE(contains(s, "run as root or set NVreg_RestrictProfilingToAdminUsers=0")) << s;
  EXPECT_TRUE(contains(s, "https://developer.nvidia.com/ERR_NVGPUCTRPERM")) << s;
  EXPECT_EQ(describe_result(0), "CUPTI_SUCCESS");
}

}  // namespace
}  // namespace rooftop::counters::cupti
