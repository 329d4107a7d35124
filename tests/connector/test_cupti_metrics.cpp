// The CUPTI metric list and its evaluation math, pure (no CUPTI needed): the roofline
// metrics named once, their roles and levels, counts worked out by hand from one Hopper-like
// range, missing metrics named rather than guessed; and the cupti backend's answer in builds
// without it.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "connector_support.hpp"
#include "rooftop/analyze/cupti_backend.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/counters/metrics.hpp"

namespace rooftop::connector {
namespace {

using core::KernelRecord;
using namespace rooftop::connector::testing;
namespace cupti = counters::cupti;

TEST(CuptiMetrics, ListHoldsTheRooflineMetricsOnce) {
  const std::vector<std::string> names = cupti::roofline_metric_names();
  for (char p : {'d', 'f', 'h'})
    for (const char* op : {"add", "mul", "fma"}) {
      const std::string name =
          std::string("sm__sass_thread_inst_executed_op_") + p + op + "_pred_on.sum";
      EXPECT_EQ(std::count(names.begin(), names.end(), name), 1) << name;
    }
  for (const char* name :
       {"sm__inst_executed_pipe_tensor.sum", "l1tex__t_bytes.sum", "lts__t_bytes.sum",
        "dram__bytes.sum", "l1tex__lsu_writeback_active_mem_lg.sum",
        "l1tex__lsu_writeback_active_mem_ds.sum", "l1tex__lsu_writeback_active_mem_lgds.sum",
        "lts__lts2xbar_cycles_active.sum", "gpu__time_duration.sum"})
    EXPECT_EQ(std::count(names.begin(), names.end(), name), 1) << name;
  for (const core::TensorPath& t : core::kTensorPaths)
    EXPECT_EQ(std::count(names.begin(), names.end(), std::string(t.metric)), 1) << t.metric;
  EXPECT_EQ(names.size(), 27u);
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
}

TEST(CuptiMetrics, RolesAndLevels) {
  int flops = 0, bytes = 0, alternative = 0, tensor = 0, tensor_ops = 0, time = 0;
  for (const cupti::Metric& m : cupti::roofline_metrics()) {
    EXPECT_FALSE(m.what.empty()) << m.name;
    EXPECT_EQ(m.name.substr(m.name.size() - 4), ".sum") << m.name;  // summable counters only
    switch (m.role) {
      case cupti::MetricRole::flops:
        ++flops;
        break;
      case cupti::MetricRole::tensor:
        ++tensor;
        break;
      case cupti::MetricRole::tensor_ops:
        ++tensor_ops;
        break;
      case cupti::MetricRole::bytes:
        ++bytes;
        break;
      case cupti::MetricRole::bytes_alternative:
        ++alternative;
        break;
      case cupti::MetricRole::time:
        ++time;
        break;
    }
    const bool has_level =
        m.role == cupti::MetricRole::bytes || m.role == cupti::MetricRole::bytes_alternative;
    EXPECT_EQ(!m.level.empty(), has_level) << m.name;
  }
  EXPECT_EQ(flops, 9);
  EXPECT_EQ(tensor, 1);
  EXPECT_EQ(tensor_ops, 9);  // core::kTensorPaths
  EXPECT_EQ(bytes, 3);
  EXPECT_EQ(alternative, 4);
  EXPECT_EQ(time, 1);
}

TEST(CuptiMetrics, EvaluatesHandComputedCounts) {
  const cupti::Evaluation e = cupti::evaluate(hopper_range());
  const KernelRecord& c = e.counts;
  EXPECT_DOUBLE_EQ(c.flops_fp64, 100 + 50 + 2 * 200);  // 550: an FMA is two FLOPs
  EXPECT_DOUBLE_EQ(c.flops_fp32, 10 + 0 + 2 * 20);     // 50
  EXPECT_DOUBLE_EQ(c.flops_fp16, 0.0);
  EXPECT_DOUBLE_EQ(c.fma_fraction, (400.0 + 40.0) / 600.0);
  EXPECT_EQ(c.precision, "fp64");
  EXPECT_DOUBLE_EQ(c.tensor_instructions, 7.0);
  ASSERT_EQ(c.tensor_ops.size(), 1u);  // tc_fp64's 0 is no unit the kernel ran on
  EXPECT_EQ(c.tensor_ops[0].figure, "tc_fp16");
  EXPECT_DOUBLE_EQ(c.tensor_ops[0].ops, 7 * 4096.0);
  EXPECT_DOUBLE_EQ(c.flops(), 550 + 50 + 7 * 4096.0);
  EXPECT_DOUBLE_EQ(bytes_at(c, "l1"), 1000.0);  // the classic definitions are recorded
  EXPECT_DOUBLE_EQ(bytes_at(c, "l2"), 800.0);
  EXPECT_DOUBLE_EQ(bytes_at(c, "dram"), 300.0);
  ASSERT_EQ(e.bytes_alternative.size(), 2u);
  EXPECT_EQ(e.bytes_alternative[0].level, "l1");
  EXPECT_DOUBLE_EQ(e.bytes_alternative[0].bytes, 10 * 128.0);
  EXPECT_EQ(e.bytes_alternative[1].level, "l2");
  EXPECT_DOUBLE_EQ(e.bytes_alternative[1].bytes, 20 * 32.0);
  ASSERT_TRUE(e.gpu_time_s.has_value());
  EXPECT_DOUBLE_EQ(*e.gpu_time_s, 1.5e-6);
  EXPECT_TRUE(e.remarks.empty()) << e.remarks.front();
}

TEST(CuptiMetrics, AmpereWritebackIsLgPlusDs) {
  cupti::MetricValues v = {{"l1tex__lsu_writeback_active_mem_lg.sum", 10}};
  auto e = cupti::evaluate(v);
  ASSERT_FALSE(e.bytes_alternative.empty());
  EXPECT_DOUBLE_EQ(e.bytes_alternative[0].bytes, 1280.0);
  v["l1tex__lsu_writeback_active_mem_ds.sum"] = 5;
  e = cupti::evaluate(v);
  EXPECT_DOUBLE_EQ(e.bytes_alternative[0].bytes, 15 * 128.0);
  v["l1tex__lsu_writeback_active_mem_lgds.sum"] = 2;  // where the chip has it, it wins
  e = cupti::evaluate(v);
  EXPECT_DOUBLE_EQ(e.bytes_alternative[0].bytes, 2 * 128.0);
}

TEST(CuptiMetrics, MissingMetricsAreNamedNotGuessed) {
  cupti::MetricValues v = hopper_range();
  v.erase("lts__t_bytes.sum");  // L2 falls back on the newer definition
  v.erase("dram__bytes.sum");   // DRAM has none: no bytes
  v.erase("sm__inst_executed_pipe_tensor.sum");
  for (const char* op : {"hadd", "hmul", "hfma"})
    v.erase(std::string("sm__sass_thread_inst_executed_op_") + op + "_pred_on.sum");
  const cupti::Evaluation e = cupti::evaluate(v);
  EXPECT_DOUBLE_EQ(bytes_at(e.counts, "l2"), 640.0);
  EXPECT_DOUBLE_EQ(bytes_at(e.counts, "dram"), -1.0);
  EXPECT_DOUBLE_EQ(e.counts.fma_fraction, 440.0 / 600.0);  // FP16 had no FLOPs to count
  std::string all;
  for (const std::string& r : e.remarks) all += r + "\n";
  EXPECT_TRUE(contains(all, "L2 bytes from lts__lts2xbar_cycles_active.sum")) << all;
  EXPECT_TRUE(contains(all, "no DRAM bytes (dram__bytes.sum not collected)")) << all;
  EXPECT_TRUE(contains(all, "no FP16 FLOP metric")) << all;
  EXPECT_TRUE(contains(all, "no tensor instruction count")) << all;
}

TEST(CuptiMetrics, PartialPrecisionLeavesTheFmaShareUnknown) {
  cupti::MetricValues v = hopper_range();
  v.erase("sm__sass_thread_inst_executed_op_ffma_pred_on.sum");
  const cupti::Evaluation e = cupti::evaluate(v);
  EXPECT_DOUBLE_EQ(e.counts.flops_fp32, 10.0);  // what it has: fadd + fmul
  EXPECT_DOUBLE_EQ(e.counts.fma_fraction, -1.0);
  std::string all;
  for (const std::string& r : e.remarks) all += r + "\n";
  EXPECT_TRUE(contains(all, "FP32 FLOPs without ffma")) << all;
  EXPECT_TRUE(contains(all, "FMA share unknown")) << all;
}

TEST(CuptiMetrics, NoValuesNoCounts) {
  const cupti::Evaluation e = cupti::evaluate({});
  EXPECT_DOUBLE_EQ(e.counts.flops(), 0.0);
  EXPECT_DOUBLE_EQ(e.counts.fma_fraction, -1.0);
  EXPECT_TRUE(e.counts.precision.empty());
  EXPECT_TRUE(e.counts.bytes.empty());
  EXPECT_FALSE(e.gpu_time_s.has_value());
  EXPECT_FALSE(e.remarks.empty());
}

TEST(CuptiMetrics, AccumulateSumsRanges) {
  cupti::MetricValues total;
  cupti::accumulate(total, {{"dram__bytes.sum", 10}, {"gpu__time_duration.sum", 5}});
  cupti::accumulate(total, {{"dram__bytes.sum", 32}});
  EXPECT_DOUBLE_EQ(total.at("dram__bytes.sum"), 42.0);
  EXPECT_DOUBLE_EQ(total.at("gpu__time_duration.sum"), 5.0);
}

TEST(CuptiMetrics, ApplyCountsKeepsTheRecordAndNotesTheNewerBytes) {
  KernelRecord r;
  r.name = "gpp::v1";
  r.time_s = 2.0;
  r.note = "declared";
  cupti::apply_counts(cupti::evaluate(hopper_range()), r);
  EXPECT_EQ(r.name, "gpp::v1");
  EXPECT_DOUBLE_EQ(r.time_s, 2.0);
  EXPECT_DOUBLE_EQ(r.flops(), 600.0 + 7 * 4096.0);  // the CUDA cores' and tc_fp16's
  ASSERT_EQ(r.tensor_ops.size(), 1u);
  EXPECT_EQ(r.precision, "fp64");
  EXPECT_EQ(r.bytes.size(), 3u);
  EXPECT_EQ(r.note, "declared; newer Nsight Compute byte definitions: l1 1280 B, l2 640 B");
}

}  // namespace
}  // namespace rooftop::connector

namespace rooftop::analyze {
namespace {

// Where the build has no cupti backend, asking for one says why instead of failing late.
TEST(CuptiBackend, BuildsWithoutItSayWhy) {
  if (cupti_backend_available())
    GTEST_SKIP() << "this build has the cupti backend (it needs a GPU)";
  const std::string why = cupti_backend_unavailable_reason();
  EXPECT_TRUE(why.find("GPU counters need") == 0) << why;
  try {
    make_cupti_backend({}, kKernelSampling);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), why);
  }
}

}  // namespace
}  // namespace rooftop::analyze
