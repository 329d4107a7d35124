// The injection library's logic without a GPU: launch calls and activity records as CUPTI
// reports them, a fake profiler under the real AutoRangeSession and KernelCounter, and the
// profile file it writes, read back as `rooftop profile` reads it.

#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "rooftop/connector/profile_file.hpp"
#include "rooftop/counters/auto_ranges.hpp"
#include "rooftop/counters/evaluate.hpp"
#include "rooftop/inject/launch_profile.hpp"
#include "support.hpp"

namespace rooftop::inject {
namespace {

using connector::LabelStats;

// PyTorch's float multiply kernel and a cuBLAS kernel, as CUPTI names them.
constexpr const char* kMul =
    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_13BUnaryFunctorIfffNS0_"
    "15binary_internal10MulFunctorIfEEEESt5arrayIPcLm2EEEEviT0_T1_";
constexpr const char* kGemm = "nvjet_sm90_hsh_256x128_64x4_1x2_h_bz_coopA_TNT";

// Every counted launch: 100 FP32 FMAs, 4096 DRAM bytes, 2 microseconds in its replay.
class FakeTarget final : public counters::AutoRangeTarget {
 public:
  FakeTarget(std::string refuse, int* disables)
      : refuse_(std::move(refuse)), disables_(disables) {}
  counters::AutoRangeSetup setup() const override {
    return {"GH100", {fma_, "dram__bytes.sum", "gpu__time_duration.sum"}, {}, 8};
  }
  void enable() override {
    if (!refuse_.empty()) throw counters::CountersRefused(refuse_);
  }
  void reset_image() override {}
  void start() override {}
  void stop() override {}
  std::size_t decode() override { return 1; }
  std::size_t dropped() const override { return 0; }
  counters::cupti::MetricValues evaluate(std::size_t) override {
    return {{fma_, 100.0}, {"dram__bytes.sum", 4096.0}, {"gpu__time_duration.sum", 2000.0}};
  }
  void disable() noexcept override {
    if (disables_) ++*disables_;
  }

 private:
  std::string refuse_;
  int* disables_;
  std::string fma_ = counters::flop_metric('f', "fma");
};

connector::KernelCounter::MakeSession fake_session(std::string refuse = "",
                                                  int* disables = nullptr) {
  return [refuse, disables] {
    return std::make_unique<counters::AutoRangeSession>(
        std::make_unique<FakeTarget>(refuse, disables));
  };
}

// One launch as CUPTI reports it: the call (runtime, with the driver's inside it when
// `driver` is not 0) and, later, the kernel's activity record.
void launch(LaunchProfile& p, const char* symbol, std::uint32_t correlation,
            std::uint32_t driver = 0) {
  p.launch_enter(symbol, correlation);
  if (driver) {
    p.launch_enter(symbol, driver);
    p.launch_exit();
  }
  p.launch_exit();
}

std::map<std::string, LabelStats> by_name(const std::vector<LabelStats>& labels) {
  std::map<std::string, LabelStats> out;
  for (const LabelStats& s : labels) out[s.label] = s;
  return out;
}

TEST(LaunchProfile, SelectedLaunchesCountedOthersTimedSummedByDemangledName) {
  int disables = 0;
  LaunchProfile p({"elementwise", 1, 2}, fake_session("", &disables));
  // Four launches of the multiply (the 2nd and 3rd selected), two of the GEMM.
  for (std::uint32_t c = 1; c <= 6; ++c) {
    launch(p, c % 3 == 0 ? kGemm : kMul, c);
    // The profiler is shut down as soon as the last selected launch is counted.
    EXPECT_EQ(disables, c < 4 ? 0 : 1) << "after launch " << c;
  }
  // Their records: the multiply 10 us when not replayed, 50 us when it was.
  const std::map<std::uint32_t, std::uint64_t> ns = {{1, 10'000}, {2, 50'000}, {3, 7'000},
                                                     {4, 50'000}, {5, 10'000}, {6, 9'000}};
  for (const auto& [c, d] : ns) p.kernel_ran(c % 3 == 0 ? kGemm : kMul, c, 1'000'000, 1'000'000 + d);
  p.close();
  const std::vector<LabelStats> labels = p.labels();
  ASSERT_EQ(labels.size(), 2u);
  std::map<std::string, LabelStats> k = by_name(labels);
  const LabelStats& mul = labels[0];
  EXPECT_EQ(mul.label.rfind("void at::native::vectorized_elementwise_kernel<4, ", 0), 0u);
  EXPECT_EQ(mul.invocations, 2);  // the counted launches
  EXPECT_EQ(mul.counted_invocations, 2);
  EXPECT_DOUBLE_EQ(mul.counters.at("dram__bytes.sum"), 8192.0);
  // The mean of the two unreplayed runs (10 us each), times the two counted launches.
  EXPECT_NEAR(mul.total_s, 20e-6, 1e-12);
  EXPECT_NE(mul.time_source.find("2 launches not replayed"), std::string::npos) << mul.time_source;
  const LabelStats& gemm = k.at(kGemm);
  EXPECT_EQ(gemm.counted_invocations, 0);
  EXPECT_EQ(gemm.invocations, 2);
  EXPECT_NEAR(gemm.total_s, 16e-6, 1e-12);
  EXPECT_EQ(p.header().source, "cupti");
}

TEST(LaunchProfile, ARuntimeLaunchAndTheDriverLaunchInsideItAreOneReplayedLaunch) {
  LaunchProfile p({}, fake_session());
  launch(p, kMul, 10, 11);  // counted: every launch is selected
  p.kernel_ran(kMul, 11, 0, 80'000);  // the record carries the driver call's id: replayed
  p.close();
  const LabelStats mul = p.labels().at(0);
  EXPECT_EQ(mul.counted_invocations, 1);
  EXPECT_EQ(mul.invocations, 1);
  EXPECT_TRUE(mul.time_source.empty()) << "no unreplayed launch: CUPTI's duration is the time";
  EXPECT_EQ(p.launches(), 1);
  // Written and read back as `rooftop profile` reads it: the replay's duration, 2 us.
  const core::KernelRecord r = connector::to_record(mul, 0);
  EXPECT_EQ(r.source, "cupti");
  EXPECT_DOUBLE_EQ(r.flops_fp32, 200.0);
  EXPECT_NEAR(r.time_s, 2e-6, 1e-12);
}

TEST(LaunchProfile, EveryRecordOfAReplayedLaunchIsSetAsideAndCounted) {
  // Whether CUPTI gives one activity record for a replayed launch or one per pass, none of
  // them times the kernel; the header says how many there were.
  LaunchProfile p({"elementwise", 0, 1}, fake_session());
  launch(p, kMul, 1);  // counted
  launch(p, kMul, 2);
  for (int pass = 0; pass < 3; ++pass) p.kernel_ran(kMul, 1, 0, 90'000);
  p.kernel_ran(kMul, 2, 0, 10'000);
  p.close();
  const LabelStats mul = p.labels().at(0);
  EXPECT_EQ(mul.counted_invocations, 1);
  EXPECT_NEAR(mul.total_s, 10e-6, 1e-12) << "the one unreplayed launch's time";
  EXPECT_EQ(p.kernel_runs(), 4);
  const std::vector<std::string> notes = p.header().notes;
  EXPECT_NE(std::find(notes.begin(), notes.end(),
                      "CUPTI gave 3 kernel activity records for the 1 replayed launch: set "
                      "aside, their durations hold the replay passes"),
            notes.end());
}

TEST(LaunchProfile, ALaunchOfAnotherThreadDuringACountedOneIsReplayedAndNotCounted) {
  LaunchProfile p({"elementwise", 0, 0}, fake_session());
  p.launch_enter(kMul, 1);  // counted, still in its call
  std::async(std::launch::async, [&p] { launch(p, kGemm, 2); }).get();
  p.launch_exit();
  launch(p, kGemm, 3);
  for (std::uint32_t c = 1; c <= 3; ++c) p.kernel_ran(c == 1 ? kMul : kGemm, c, 0, 4'000);
  p.close();
  std::map<std::string, LabelStats> k = by_name(p.labels());
  // The GEMM ran inside the multiply's range: neither is counted, its time is its one
  // unreplayed launch's.
  EXPECT_EQ(k.at(demangle(kMul)).counted_invocations, 0);
  EXPECT_EQ(k.at(kGemm).invocations, 1);
  EXPECT_NEAR(k.at(kGemm).total_s, 4e-6, 1e-12);
}

TEST(LaunchProfile, KernelsNoLaunchCallSawAreTimedAndSaidSo) {
  LaunchProfile p({}, fake_session());
  p.kernel_ran(kGemm, 7, 0, 3'000);  // a CUDA graph's kernel
  const std::vector<LabelStats> labels = p.labels();
  ASSERT_EQ(labels.size(), 1u);
  EXPECT_EQ(labels[0].invocations, 1);
  EXPECT_NE(labels[0].notes.at(0).find("graph"), std::string::npos);
}

TEST(LaunchProfile, CountersRefusedLeaveTimesAndTheReasonInTheHeader) {
  LaunchProfile p({}, fake_session("cuptiRangeProfilerEnable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"));
  launch(p, kMul, 1);
  launch(p, kMul, 2);
  p.kernel_ran(kMul, 1, 0, 5'000);
  p.kernel_ran(kMul, 2, 0, 5'000);
  p.close();
  const LabelStats mul = p.labels().at(0);
  EXPECT_EQ(mul.counted_invocations, 0);
  EXPECT_NEAR(mul.total_s, 10e-6, 1e-12) << "a launch not replayed keeps its time";
  bool said = false;
  for (const std::string& n : p.header().notes)
    said = said || n.find("INSUFFICIENT_PRIVILEGES") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(LaunchProfile, TheFileIsTheConnectorsFormatAndReadsBack) {
  rooftop::testing::TempDir dir;
  LaunchProfile p({"", 0, 1}, fake_session());
  launch(p, kMul, 1);
  launch(p, kMul, 2);
  launch(p, kGemm, 3);
  for (std::uint32_t c = 1; c <= 3; ++c) p.kernel_ran(c == 3 ? kGemm : kMul, c, 0, 6'000);
  p.close();
  connector::write_profile(dir.file("p.jsonl"), p.header(), p.labels());
  const connector::Profile read = connector::read_profile(dir.file("p.jsonl"));
  EXPECT_EQ(read.source, "cupti");
  ASSERT_EQ(read.kernels.size(), 2u);
  const core::KernelRecord& mul = read.kernels[0];
  EXPECT_EQ(mul.group, "");  // a program's kernels are no ladder
  EXPECT_EQ(mul.invocations, 1);
  EXPECT_DOUBLE_EQ(mul.flops_fp32, 200.0);
  EXPECT_NEAR(mul.time_s, 6e-6, 1e-12);
  EXPECT_EQ(read.kernels[1].source, "cupti-activity") << "the GEMM has times only";
}

}  // namespace
}  // namespace rooftop::inject
