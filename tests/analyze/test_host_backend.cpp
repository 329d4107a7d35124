// rooftop_analyze's host backend: its sampling and error reporting, with a fake kernel.

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "rooftop/analyze/host_backend.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/kernels/kernel.hpp"

namespace rooftop::analyze {
namespace {

core::Sampling quick_sampling() {
  core::Sampling t;
  t.samples = 2;
  t.min_sample_seconds = 1e-3;
  t.budget_seconds = 1.0;
  return t;
}

// A kernel whose answer is wrong, and which counts how it was driven.
class FakeKernel final : public kernels::Kernel {
 public:
  explicit FakeKernel(bool right) : right_(right) {}
  core::KernelRecord declared() const override {
    core::KernelRecord r;
    r.name = right_ ? "fake::right" : "fake::wrong";
    r.precision = "fp64";
    r.flops_fp64 = 1e6;
    r.bytes = {{"dram", 1e6}};
    return r;
  }
  void prepare() override { ++prepared; }
  void run() override {
    ++runs;
    volatile double x = 0;
    for (int i = 0; i < 20000; ++i) x = x + 1.0;
  }
  std::string check() override { return right_ ? "" : "x = 1, expected 2"; }
  void release() override { ++released; }
  int prepared = 0, runs = 0, released = 0;

 private:
  bool right_;
};

TEST(HostBackend, SamplesChecksAndRecordsEachKernel) {
  kernels::KernelList ks;
  ks.push_back(std::make_unique<FakeKernel>(true));
  ks.push_back(std::make_unique<FakeKernel>(false));
  const FakeKernel* right = static_cast<const FakeKernel*>(ks[0].get());
  HostBackend backend(std::move(ks), quick_sampling());
  std::vector<std::string> notes;
  const std::vector<core::KernelRecord> records = backend.collect(notes);
  ASSERT_EQ(records.size(), 2u);
  const core::KernelRecord& r = records[0];
  EXPECT_EQ(r.source, "declared");
  EXPECT_EQ(r.check, "passed");
  EXPECT_EQ(r.samples, 2);
  EXPECT_GT(r.time_s, 0.0);
  EXPECT_LE(r.time_min, r.time_s);
  EXPECT_GE(r.time_max, r.time_s);
  EXPECT_NE(r.time_source.find("wall clock"), std::string::npos);
  EXPECT_EQ(right->prepared, 1);
  EXPECT_EQ(right->released, 1);
  EXPECT_GE(right->runs, 3) << "a warm-up run, then the samples";

  EXPECT_EQ(records[1].check, "failed");
  EXPECT_NE(records[1].note.find("WRONG ANSWER"), std::string::npos);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("fake::wrong"), std::string::npos);
}

TEST(HostBackend, ACancelledRunStops) {
  std::atomic<bool> cancel{true};
  core::Sampling t = quick_sampling();
  t.cancel = &cancel;
  kernels::KernelList ks;
  ks.push_back(std::make_unique<FakeKernel>(true));
  HostBackend backend(std::move(ks), t);
  std::vector<std::string> notes;
  EXPECT_THROW(backend.collect(notes), Interrupted);
}

}  // namespace
}  // namespace rooftop::analyze
