// The connector's counting rules without a GPU: a KernelTracker driven as Kokkos drives
// it, from one or two host threads, and a fake profiler underneath the real
// AutoRangeSession. What a launch on the context adds is what the fake's next decode
// gives, so a count taken while another thread's kernel ran would show.

#include <gtest/gtest.h>

#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "connector_support.hpp"
#include "rooftop/connector/kernel_counter.hpp"
#include "rooftop/connector/kernel_tracker.hpp"
#include "rooftop/connector/profile_file.hpp"
#include "rooftop/counters/auto_ranges.hpp"

namespace rooftop::connector {
namespace {

using rooftop::connector::testing::kCuda;
using rooftop::connector::testing::kOpenMP;

struct Steps {
  int enables = 0, starts = 0, decodes = 0;
};

// One range per kernel, 64 DRAM bytes.
class OneRangeTarget final : public counters::AutoRangeTarget {
 public:
  explicit OneRangeTarget(Steps& s) : s_(s) {}
  counters::AutoRangeSetup setup() const override { return {"GH100", {"dram__bytes.sum"}, {}, 3}; }
  void enable() override { ++s_.enables; }
  void reset_image() override {}
  void start() override { ++s_.starts; }
  void stop() override {}
  std::size_t decode() override {
    ++s_.decodes;
    return 1;
  }
  std::size_t dropped() const override { return 0; }
  counters::cupti::MetricValues evaluate(std::size_t) override {
    return {{"dram__bytes.sum", 64.0}};
  }
  void disable() noexcept override {}

 private:
  Steps& s_;
};

struct Fixture {
  KernelTracker tracker;
  ProfileHeader header;
  Steps steps;
  int sessions = 0;
  KernelCounter counter{tracker, header, [this] {
                          ++sessions;
                          return std::make_unique<counters::AutoRangeSession>(
                              std::make_unique<OneRangeTarget>(steps));
                        }};
  Fixture() { tracker.set_observer(&counter); }
  const LabelStats& stats(const std::string& label) {
    snapshot = tracker.snapshot();
    for (const LabelStats& s : snapshot)
      if (s.label == label) return s;
    throw std::runtime_error("no label " + label);
  }
  std::string notes(const std::string& label) {
    std::string s;
    for (const std::string& n : stats(label).notes) s += n + "\n";
    return s;
  }
  std::vector<LabelStats> snapshot;
};

TEST(KernelCounter, SetsUpOnceForEveryKernelOfTheRun) {
  Fixture f;
  for (int i = 0; i < 500; ++i)
    f.tracker.end(f.tracker.begin("app::axpy", kCuda, KernelKind::parallel_for));
  EXPECT_EQ(f.sessions, 1);
  EXPECT_EQ(f.steps.enables, 1);
  EXPECT_EQ(f.steps.starts, 500);
  EXPECT_EQ(f.stats("app::axpy").counted_invocations, 500);
  EXPECT_DOUBLE_EQ(f.stats("app::axpy").counters.at("dram__bytes.sum"), 500 * 64.0);
  f.counter.close();
  EXPECT_EQ(f.header.source, "cupti");
  EXPECT_EQ(f.header.passes, 3);
  bool noted = false;
  for (const std::string& n : f.header.notes)
    noted = noted || n == "CUPTI profiler set up 1 times for 500 counted invocations";
  EXPECT_TRUE(noted);
}

TEST(KernelCounter, MemsetInitialisationsCostNothing) {
  Fixture f;
  f.tracker.end(f.tracker.begin("Kokkos::View::initialization [x] via memset", kCuda,
                                KernelKind::parallel_for));
  EXPECT_EQ(f.sessions, 0) << "no profiler for a label that launches no kernel";
  EXPECT_EQ(f.steps.starts, 0);
  EXPECT_EQ(f.stats("Kokkos::View::initialization [x] via memset").counted_invocations, 0);
  EXPECT_TRUE(f.stats("Kokkos::View::initialization [x] via memset").notes.empty());
  EXPECT_TRUE(is_memset_label("Kokkos::View::initialization [y_mirror] via memset"));
  EXPECT_FALSE(is_memset_label("Kokkos::View::initialization [y]"));
}

TEST(KernelCounter, AnotherThreadsKernelSpoilsTheCountAndIsNotCountedItself) {
  Fixture f;
  std::promise<void> a_open, b_done;
  std::uint64_t a = 0;
  std::thread first([&] {
    a = f.tracker.begin("a", kCuda, KernelKind::parallel_for);
    a_open.set_value();
    b_done.get_future().wait();
    f.tracker.end(a);
  });
  std::thread second([&] {
    a_open.get_future().wait();
    f.tracker.end(f.tracker.begin("b", kCuda, KernelKind::parallel_for));
    b_done.set_value();
  });
  first.join();
  second.join();
  EXPECT_EQ(f.stats("a").counted_invocations, 0);
  EXPECT_EQ(f.stats("b").counted_invocations, 0);
  EXPECT_EQ(f.stats("b").max_depth, 0) << "nesting is per host thread";
  EXPECT_NE(f.notes("a").find("overlapped another host thread's kernel: not counted"),
            std::string::npos)
      << f.notes("a");
  EXPECT_NE(f.notes("b").find("overlapped another host thread's counted kernel"), std::string::npos)
      << f.notes("b");
  // Alone again, both count.
  f.tracker.end(f.tracker.begin("a", kCuda, KernelKind::parallel_for));
  f.tracker.end(f.tracker.begin("b", kCuda, KernelKind::parallel_for));
  EXPECT_EQ(f.stats("a").counted_invocations, 1);
  EXPECT_EQ(f.stats("b").counted_invocations, 1);
}

TEST(KernelCounter, AHostKernelOpenOnAnotherThreadStopsNothing) {
  Fixture f;
  std::promise<void> host_open, cuda_done;
  std::thread host([&] {
    const auto h = f.tracker.begin("host::loop", kOpenMP, KernelKind::parallel_for);
    host_open.set_value();
    cuda_done.get_future().wait();
    f.tracker.end(h);
  });
  host_open.get_future().wait();
  f.tracker.end(f.tracker.begin("gpu", kCuda, KernelKind::parallel_for));
  cuda_done.set_value();
  host.join();
  EXPECT_EQ(f.stats("gpu").max_depth, 0);
  EXPECT_EQ(f.stats("gpu").counted_invocations, 1) << f.notes("gpu");
}

TEST(KernelCounter, AKernelNestedOnTheSameThreadIsInsideTheOuterRange) {
  Fixture f;
  const auto outer = f.tracker.begin("outer", kCuda, KernelKind::parallel_for);
  f.tracker.end(f.tracker.begin("inner", kCuda, KernelKind::parallel_for));
  f.tracker.end(outer);
  EXPECT_EQ(f.stats("outer").counted_invocations, 1);
  EXPECT_EQ(f.stats("inner").counted_invocations, 0);
  EXPECT_EQ(f.stats("inner").max_depth, 1);
  EXPECT_EQ(f.steps.starts, 1);
}

// A counter whose n-th session comes from make(n), run over `kernels` launches of "k".
struct SetUps {
  using Make = std::function<std::unique_ptr<counters::AutoRangeSession>(int)>;
  KernelTracker tracker;
  ProfileHeader header;
  int attempts = 0;
  KernelCounter counter;
  SetUps(int kernels, Make make)
      : counter(tracker, header, [this, make] { return make(++attempts); }) {
    tracker.set_observer(&counter);
    for (int i = 0; i < kernels; ++i)
      tracker.end(tracker.begin("k", kCuda, KernelKind::parallel_for));
  }
};

TEST(KernelCounter, AProfilerThatCannotStartEndsCountingOnce) {
  const SetUps f(3, [](int) -> std::unique_ptr<counters::AutoRangeSession> {
    throw counters::CountersRefused("cuptiProfilerInitialize: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
  });
  EXPECT_EQ(f.attempts, 1);
  ASSERT_FALSE(f.header.notes.empty());
  EXPECT_NE(f.header.notes.back().find("no counters: cuptiProfilerInitialize"), std::string::npos);
  EXPECT_EQ(f.tracker.snapshot().at(0).invocations, 3);
}

// Another process holding the counters while the profiler is set up (the first kernel's
// counter-availability query, say) costs that kernel its counts, not the run.
TEST(KernelCounter, CountersBusyAtSetUpAreTriedAgainAtTheNextKernel) {
  Steps steps;
  const SetUps f(3, [&](int attempt) {
    if (attempt == 1)
      throw counters::CountersBusy(
          "cuptiProfilerGetCounterAvailability: CUPTI_ERROR_HARDWARE_BUSY");
    return std::make_unique<counters::AutoRangeSession>(std::make_unique<OneRangeTarget>(steps));
  });
  EXPECT_EQ(f.attempts, 2);
  const LabelStats k = f.tracker.snapshot().at(0);
  EXPECT_EQ(k.invocations, 3);
  EXPECT_EQ(k.counted_invocations, 2);
  ASSERT_EQ(k.notes.size(), 1u);
  EXPECT_NE(k.notes[0].find("not counted: another process is profiling this GPU"),
            std::string::npos)
      << k.notes[0];
  for (const std::string& n : f.header.notes)
    EXPECT_EQ(n.find("no counters"), std::string::npos) << n;
  EXPECT_EQ(f.header.source, "cupti");
}

TEST(KernelCounter, CountersBusyThroughEverySetUpEndCountingWithTheReason) {
  const SetUps f(
      2 * KernelCounter::kBusySetups, [](int) -> std::unique_ptr<counters::AutoRangeSession> {
        throw counters::CountersBusy("cuptiRangeProfilerEnable: CUPTI_ERROR_HARDWARE_BUSY");
      });
  EXPECT_EQ(f.attempts, KernelCounter::kBusySetups) << "no set-up after counting ended";
  ASSERT_FALSE(f.header.notes.empty());
  const std::string& last = f.header.notes.back();
  EXPECT_NE(last.find("no counters: another process is profiling this GPU"), std::string::npos)
      << last;
  EXPECT_NE(last.find(std::to_string(KernelCounter::kBusySetups) + " set-ups in a row"),
            std::string::npos)
      << last;
  EXPECT_EQ(last.find("NVreg"), std::string::npos) << "not a permission problem: " << last;
}

}  // namespace
}  // namespace rooftop::connector
