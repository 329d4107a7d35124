// The tensor cores' operations through `rooftop profile`: counted per launch by the
// connector (a fake profiler under the real KernelCounter), summed per label and unit,
// written to the profile file and read back (version 1.1), a 1.0 file without them, hostile
// values refused with the line, and a kernel of mostly tc_fp16 ops placed against the
// tc_fp16 figure after the profile backend ran a program that left the file.

#include <gtest/gtest.h>

#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "rooftop/analyze/profile_backend.hpp"
#include "connector_support.hpp"
#include "rooftop/connector/kernel_counter.hpp"
#include "rooftop/connector/kernel_tracker.hpp"
#include "rooftop/connector/profile_file.hpp"
#include "rooftop/core/roofline.hpp"
#include "rooftop/counters/auto_ranges.hpp"
#include "support.hpp"

namespace rooftop::connector {
namespace {

using core::KernelRecord;
using rooftop::testing::error_of;
using rooftop::testing::TempDir;
namespace cupti = counters::cupti;

using rooftop::connector::testing::kCuda;

// One launch of a Hopper-like GEMM: 1000 FP64 FMAs beside 2^20 FP16 tensor ops.
cupti::MetricValues gemm_launch(double fp16_ops, double int8_ops = 0.0) {
  return {{"sm__sass_thread_inst_executed_op_dfma_pred_on.sum", 1000},
          {"sm__inst_executed_pipe_tensor.sum", fp16_ops / 4096},
          {"sm__ops_path_tensor_src_fp16.sum", fp16_ops},
          {"sm__ops_path_tensor_src_int8.sum", int8_ops},
          {"sm__ops_path_tensor_src_fp64.sum", 0},
          {"dram__bytes.sum", 1e4},
          {"gpu__time_duration.sum", 1000}};  // ns
}

// Each launch's counts from a list, one range per launch, as CUPTI's auto ranges give.
class LaunchesTarget final : public counters::AutoRangeTarget {
 public:
  explicit LaunchesTarget(std::vector<cupti::MetricValues> launches)
      : launches_(std::move(launches)) {}
  counters::AutoRangeSetup setup() const override {
    return {"GH100", {"sm__ops_path_tensor_src_fp16.sum"}, {}, 3};
  }
  void enable() override {}
  void reset_image() override {}
  void start() override {}
  void stop() override {}
  std::size_t decode() override { return 1; }
  std::size_t dropped() const override { return 0; }
  cupti::MetricValues evaluate(std::size_t) override { return launches_.at(next_++); }
  void disable() noexcept override {}

 private:
  std::vector<cupti::MetricValues> launches_;
  std::size_t next_ = 0;
};

// "gemm" launched three times with different counts, counted by the connector's own
// KernelCounter; its LabelStats as the connector writes them at finalize.
LabelStats counted_gemm(ProfileHeader& header) {
  KernelTracker tracker;
  KernelCounter counter(tracker, header, [] {
    return std::make_unique<counters::AutoRangeSession>(std::make_unique<LaunchesTarget>(
        std::vector<cupti::MetricValues>{gemm_launch(1 << 20, 512), gemm_launch(1 << 21),
                                         gemm_launch(1 << 20, 1024)}));
  });
  tracker.set_observer(&counter);
  for (int i = 0; i < 3; ++i)
    tracker.end(tracker.begin("gemm", kCuda, KernelKind::parallel_for));
  tracker.set_observer(nullptr);
  counter.close();
  return tracker.snapshot().at(0);
}

double ops_of(const KernelRecord& r, const std::string& figure) {
  for (const core::TensorOps& t : r.tensor_ops)
    if (t.figure == figure) return t.ops;
  return -1.0;
}

TEST(ProfileTensorOps, RepeatedLabelSumsEachUnitsOps) {
  ProfileHeader header;
  const LabelStats s = counted_gemm(header);
  EXPECT_EQ(s.invocations, 3);
  EXPECT_EQ(s.counted_invocations, 3);
  const KernelRecord r = to_record(s, 0);
  ASSERT_EQ(r.tensor_ops.size(), 2u);
  EXPECT_DOUBLE_EQ(ops_of(r, "tc_fp16"), 4.0 * (1 << 20));
  EXPECT_DOUBLE_EQ(ops_of(r, "tc_int8"), 512.0 + 1024.0);
  EXPECT_DOUBLE_EQ(r.flops(), 3 * 2000.0 + 4.0 * (1 << 20) + 1536.0);
  ASSERT_NE(r.tensor_unit(), nullptr);
  EXPECT_EQ(r.tensor_unit()->figure, "tc_fp16");
  EXPECT_DOUBLE_EQ(r.time_s, 3e-6);  // three gpu__time_duration.sum of 1000 ns
}

TEST(ProfileTensorOps, RoundTripThroughTheFile) {
  TempDir dir;
  ProfileHeader header;
  const LabelStats s = counted_gemm(header);
  const std::string path = dir.file("gemm.jsonl");
  write_profile(path, header, {s});
  const std::string text = rooftop::testing::read_bytes(path);
  EXPECT_NE(text.find("\"tensor_ops\":{\"tc_fp16\":4194304.0,\"tc_int8\":1536.0}"),
            std::string::npos)
      << text;

  const Profile p = read_profile(path);
  EXPECT_EQ(p.version, "1.1");
  EXPECT_EQ(p.source, "cupti");
  ASSERT_EQ(p.kernels.size(), 1u);
  const KernelRecord written = to_record(s, 0);
  const KernelRecord& read = p.kernels[0];
  ASSERT_EQ(read.tensor_ops.size(), written.tensor_ops.size());
  for (std::size_t i = 0; i < read.tensor_ops.size(); ++i) {
    EXPECT_EQ(read.tensor_ops[i].figure, written.tensor_ops[i].figure);
    EXPECT_EQ(read.tensor_ops[i].ops, written.tensor_ops[i].ops);
  }
  EXPECT_DOUBLE_EQ(read.flops(), written.flops());

  // A record with no tensor ops is written with an empty object and reads with none.
  LabelStats timed;
  timed.label = "host_loop";
  timed.invocations = 1;
  const Profile q = parse_profile(profile_text(ProfileHeader{}, {timed}), "q.jsonl");
  ASSERT_EQ(q.kernels.size(), 1u);
  EXPECT_TRUE(q.kernels[0].tensor_ops.empty());
}

// The text a 1.0 connector wrote for the same run: the same lines without tensor_ops.
std::string version_1_0(std::string text) {
  text = std::regex_replace(text, std::regex("\"version\":\"1\\.1\""), "\"version\":\"1.0\"");
  return std::regex_replace(text, std::regex("\"tensor_ops\":\\{[^}]*\\},"), "");
}

TEST(ProfileTensorOps, AVersion1_0FileReadsWithNoTensorOps) {
  ProfileHeader header;
  const std::string old = version_1_0(profile_text(header, {counted_gemm(header)}));
  ASSERT_EQ(old.find("tensor_ops"), std::string::npos) << old;
  const Profile p = parse_profile(old, "old.jsonl");
  EXPECT_EQ(p.version, "1.0");
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_TRUE(p.kernels[0].tensor_ops.empty());
  EXPECT_DOUBLE_EQ(p.kernels[0].flops(), 6000.0);  // the CUDA cores' FLOPs, as 1.0 read them
  EXPECT_DOUBLE_EQ(p.kernels[0].tensor_instructions, 4.0 * 256);
}

TEST(ProfileTensorOps, HostileValuesAreRefusedWithTheLine) {
  const std::string header = "{\"format\":\"rooftop-kokkos-profile\",\"version\":\"1.1\"}\n";
  const auto error = [&](const std::string& tensor_ops) {
    return error_of([&] {
      parse_profile(header + "{\"name\":\"k\",\"tensor_ops\":" + tensor_ops + "}\n", "p.jsonl");
    });
  };
  EXPECT_EQ(error("{\"tc_fp16\":-1}"),
            "p.jsonl:2: tensor_ops \"tc_fp16\" is not a count of operations (a number >= 0)");
  // JSON has no NaN: a NaN is written as null, or arrives as a string.
  EXPECT_EQ(error("{\"tc_fp16\":null}"),
            "p.jsonl:2: tensor_ops \"tc_fp16\" is not a count of operations (a number >= 0)");
  EXPECT_EQ(error("{\"tc_int8\":\"NaN\"}"),
            "p.jsonl:2: tensor_ops \"tc_int8\" is not a count of operations (a number >= 0)");
  EXPECT_EQ(error("{\"tc_fp4\":10}"),
            "p.jsonl:2: tensor_ops \"tc_fp4\" is not a matrix unit (tc_fp64, tc_tf32, tc_bf16, "
            "tc_fp16, tc_fp16_acc16, tc_fp8_e4m3, tc_int8)");
  EXPECT_EQ(error("[1]"), "p.jsonl:2: \"tensor_ops\" is not an object");
  EXPECT_NE(error("{\"tc_fp16\":1e999}").find("p.jsonl:2: not JSON"), std::string::npos);
  // A unit name that would break the message's line is escaped and cut short.
  const std::string odd = error("{\"tc\\nfp16" + std::string(200, 'x') + "\":1}");
  EXPECT_EQ(odd.find('\n'), std::string::npos) << odd;
  EXPECT_EQ(odd.rfind("p.jsonl:2: tensor_ops \"tc\\nfp16xx", 0), 0u) << odd;
  EXPECT_LT(odd.size(), 200u) << odd;
  // A unit with no operations is no unit the kernel ran on.
  const Profile p = parse_profile(
      header + "{\"name\":\"k\",\"tensor_ops\":{\"tc_fp16\":0,\"tc_int8\":3}}\n", "p.jsonl");
  ASSERT_EQ(p.kernels.at(0).tensor_ops.size(), 1u);
  EXPECT_EQ(p.kernels[0].tensor_ops[0].figure, "tc_int8");
}

// ------------------------------------------------------------------------------------
// Through the profile backend: a program that leaves the recorded profile where the
// connector would have written it, then the roofline math the `profile` command applies.

core::CeilingsFile hopper_like() {
  core::CeilingsFile f;
  f.ceilings = {rooftop::testing::make_ceiling("fp64_fma", 100, 99, 101, 5),
                rooftop::testing::make_ceiling("dram", 50, 49, 51, 5)};
  core::Ceiling tc = rooftop::testing::make_ceiling("tc_fp16", 2000, 1990, 2010, 5);
  tc.kind = "compute";
  tc.units = "GFLOP/s";
  f.matrix.figures.push_back(tc);
  return f;
}

std::vector<KernelRecord> profiled(const std::string& recorded) {
  analyze::ProfileBackend backend(
      {"/bin/sh", "-c", "cp \"$0\" \"$ROOFTOP_PROFILE_OUT\"", recorded},
      ROOFTOP_CONNECTOR_LIBRARY);
  std::vector<std::string> notes;
  return backend.collect(notes);
}

TEST(ProfileTensorOps, TheBackendPlacesTheKernelAgainstItsUnitsFigure) {
  TempDir dir;
  ProfileHeader header;
  const std::string text = profile_text(header, {counted_gemm(header)});
  rooftop::testing::write_bytes(dir.file("now.jsonl"), text);
  rooftop::testing::write_bytes(dir.file("old.jsonl"), version_1_0(text));

  std::vector<KernelRecord> kernels = profiled(dir.file("now.jsonl"));
  ASSERT_EQ(kernels.size(), 1u);
  KernelRecord& k = kernels[0];
  // 4.2e6 ops in 3 us: 1400 GFLOP/s, AI at DRAM 140; roofs tc_fp16 2000, DRAM 7000.
  const core::Placement p = core::place(k, hopper_like());
  core::apply(p, k);
  EXPECT_TRUE(p.tensor);
  EXPECT_EQ(k.limiter, "tc_fp16");
  EXPECT_DOUBLE_EQ(k.attainable_gflop_per_s, 2000.0);
  EXPECT_NEAR(k.fraction_of_roof, k.flops() / 3e-6 * 1e-9 / 2000.0, 1e-12);
  EXPECT_TRUE(k.above.empty()) << k.above;

  // The file of a 1.0 connector has only the CUDA cores' FLOPs: 2 GFLOP/s at AI 0.2,
  // under DRAM's roof of 10.
  std::vector<KernelRecord> old = profiled(dir.file("old.jsonl"));
  ASSERT_EQ(old.size(), 1u);
  core::apply(core::place(old[0], hopper_like()), old[0]);
  EXPECT_EQ(old[0].limiter, "dram");
  EXPECT_DOUBLE_EQ(old[0].attainable_gflop_per_s, 10.0);
}

}  // namespace
}  // namespace rooftop::connector
