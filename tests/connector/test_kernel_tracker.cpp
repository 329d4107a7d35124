// The connector's kernel tracker without Kokkos: fake callback sequences (repeated labels,
// nesting, ends out of order, a begin without an end, stray ends, several threads) and the
// Kokkos Tools device ids of Kokkos 3 to 5.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "connector_support.hpp"
#include "rooftop/connector/kernel_tracker.hpp"

namespace rooftop::connector {
namespace {

using namespace rooftop::connector::testing;

// A clock the test moves by hand.
struct FakeClock {
  double now = 100.0;
  KernelTracker::Clock clock() {
    return [this] { return now; };
  }
};

const LabelStats& stats(const std::vector<LabelStats>& all, const std::string& label) {
  for (const LabelStats& s : all)
    if (s.label == label) return s;
  ADD_FAILURE() << "no label " << label;
  static const LabelStats none;
  return none;
}

TEST(KernelTracker, RepeatedLabelSumsInvocationsAndTimes) {
  FakeClock t;
  KernelTracker tracker(t.clock());
  for (double seconds : {1.0, 3.0, 2.0}) {
    const std::uint64_t id = tracker.begin("daxpy", kOpenMP, KernelKind::parallel_for);
    t.now += seconds;
    EXPECT_TRUE(tracker.end(id));
  }
  const auto all = tracker.snapshot();
  ASSERT_EQ(all.size(), 1u);
  const LabelStats& s = all[0];
  EXPECT_EQ(s.label, "daxpy");
  EXPECT_EQ(s.invocations, 3);
  EXPECT_DOUBLE_EQ(s.total_s, 6.0);
  EXPECT_DOUBLE_EQ(s.min_s, 1.0);
  EXPECT_DOUBLE_EQ(s.max_s, 3.0);
  EXPECT_EQ(s.max_depth, 0);
  EXPECT_EQ(s.unfinished, 0);
  EXPECT_EQ(s.kinds, std::vector<std::string>{"parallel_for"});
  EXPECT_EQ(s.spaces, std::vector<std::string>{"OpenMP"});
}

TEST(KernelTracker, LabelsKeepTheOrderOfFirstLaunch) {
  FakeClock t;
  KernelTracker tracker(t.clock());
  for (const char* label : {"b", "a", "b", "c", "a"})
    tracker.end(tracker.begin(label, kSerial, KernelKind::parallel_for));
  std::vector<std::string> order;
  for (const LabelStats& s : tracker.snapshot()) order.push_back(s.label);
  EXPECT_EQ(order, (std::vector<std::string>{"b", "a", "c"}));
}

TEST(KernelTracker, NestedKernelsRecordDepthAndInclusiveTimes) {
  FakeClock t;
  KernelTracker tracker(t.clock());
  const auto outer = tracker.begin("outer", kSerial, KernelKind::parallel_for);
  t.now += 1.0;
  const auto inner = tracker.begin("inner", kSerial, KernelKind::parallel_reduce);
  t.now += 2.0;
  const auto innermost = tracker.begin("innermost", kSerial, KernelKind::parallel_scan);
  t.now += 0.5;
  EXPECT_TRUE(tracker.end(innermost));
  EXPECT_TRUE(tracker.end(inner));
  t.now += 4.0;
  EXPECT_TRUE(tracker.end(outer));
  const auto all = tracker.snapshot();
  EXPECT_EQ(stats(all, "outer").max_depth, 0);
  EXPECT_EQ(stats(all, "inner").max_depth, 1);
  EXPECT_EQ(stats(all, "innermost").max_depth, 2);
  EXPECT_DOUBLE_EQ(stats(all, "outer").total_s, 7.5);  // inclusive of the inner ones
  EXPECT_DOUBLE_EQ(stats(all, "inner").total_s, 2.5);
  EXPECT_DOUBLE_EQ(stats(all, "innermost").total_s, 0.5);
  EXPECT_EQ(stats(all, "inner").kinds, std::vector<std::string>{"parallel_reduce"});
  EXPECT_EQ(tracker.open_invocations(), 0u);
}

TEST(KernelTracker, EndsOutOfOrderStillMatchTheirBegins) {
  FakeClock t;
  KernelTracker tracker(t.clock());
  const auto a = tracker.begin("a", kSerial, KernelKind::parallel_for);
  t.now += 1.0;
  const auto b = tracker.begin("b", kSerial, KernelKind::parallel_for);
  t.now += 1.0;
  EXPECT_TRUE(tracker.end(a));  // the outer one first (two host threads, say)
  t.now += 1.0;
  EXPECT_TRUE(tracker.end(b));
  const auto all = tracker.snapshot();
  EXPECT_DOUBLE_EQ(stats(all, "a").total_s, 2.0);
  EXPECT_DOUBLE_EQ(stats(all, "b").total_s, 2.0);
}

TEST(KernelTracker, BeginWithoutEndIsUnfinishedNotTimed) {
  FakeClock t;
  KernelTracker tracker(t.clock());
  tracker.end(tracker.begin("k", kSerial, KernelKind::parallel_for));
  const auto open = tracker.begin("k", kSerial, KernelKind::parallel_for);
  t.now += 10.0;
  auto all = tracker.snapshot();
  EXPECT_EQ(stats(all, "k").invocations, 1);
  EXPECT_EQ(stats(all, "k").unfinished, 1);
  EXPECT_DOUBLE_EQ(stats(all, "k").total_s, 0.0);
  EXPECT_EQ(tracker.open_invocations(), 1u);
  // A snapshot does not close it: a late end still completes it.
  EXPECT_TRUE(tracker.end(open));
  all = tracker.snapshot();
  EXPECT_EQ(stats(all, "k").invocations, 2);
  EXPECT_EQ(stats(all, "k").unfinished, 0);
  EXPECT_DOUBLE_EQ(stats(all, "k").total_s, 10.0);
}

TEST(KernelTracker, StrayAndDoubleEndsAreCountedAndIgnored) {
  KernelTracker tracker;
  EXPECT_FALSE(tracker.end(12345));
  const auto id = tracker.begin("k", kSerial, KernelKind::parallel_for);
  EXPECT_TRUE(tracker.end(id));
  EXPECT_FALSE(tracker.end(id));
  EXPECT_FALSE(tracker.end(0));
  EXPECT_EQ(tracker.stray_ends(), 3);
  EXPECT_EQ(stats(tracker.snapshot(), "k").invocations, 1);
}

TEST(KernelTracker, IdsAreNeverZeroAndUnique) {
  KernelTracker tracker;
  std::vector<std::uint64_t> ids;
  for (int i = 0; i < 100; ++i)
    ids.push_back(tracker.begin("k", kSerial, KernelKind::parallel_for));
  EXPECT_EQ(std::count(ids.begin(), ids.end(), 0u), 0);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
}

TEST(KernelTracker, MissingLabelsAreKept) {
  KernelTracker tracker;
  tracker.end(tracker.begin(nullptr, kSerial, KernelKind::parallel_for));
  tracker.end(tracker.begin("", kSerial, KernelKind::parallel_for));
  EXPECT_EQ(stats(tracker.snapshot(), "(unlabelled)").invocations, 2);
}

TEST(KernelTracker, OneLabelOnSeveralKindsAndSpaces) {
  KernelTracker tracker;
  tracker.end(tracker.begin("k", kCuda, KernelKind::parallel_for));
  tracker.end(tracker.begin("k", kOpenMP, KernelKind::parallel_reduce));
  tracker.end(tracker.begin("k", kCuda, KernelKind::parallel_for));
  const auto all = tracker.snapshot();
  const LabelStats& s = stats(all, "k");
  EXPECT_EQ(s.kinds, (std::vector<std::string>{"parallel_for", "parallel_reduce"}));
  EXPECT_EQ(s.spaces, (std::vector<std::string>{"Cuda", "OpenMP"}));
}

TEST(KernelTracker, SpaceNamesFromKokkos3To5DeviceIds) {
  EXPECT_EQ(space_name(0), "Serial");
  EXPECT_EQ(space_name((1u << 24) + 3), "OpenMP");              // Kokkos 3: type << 24 | instance
  EXPECT_EQ(space_name((2u << 24) | (1u << 17) | 5u), "Cuda");  // Kokkos 4: type, device, instance
  EXPECT_EQ(space_name(3u << 24), "HIP");
  EXPECT_EQ(space_name(7u << 24), "SYCL");
  EXPECT_EQ(space_name(9u << 24), "NextSilicon");  // Kokkos 5.2
  EXPECT_EQ(space_name(0xFFu << 24), "unknown");
  EXPECT_TRUE(is_cuda((2u << 24) | 9u));
  EXPECT_FALSE(is_cuda(1u << 24));
}

// An observer as the CUPTI code uses it: starts at begin, adds counters at end.
class CountingObserver : public KernelTracker::Observer {
 public:
  explicit CountingObserver(KernelTracker& t) : tracker(t) {}
  void on_begin(const Invocation& k) override {
    begun.push_back(k.label + "@" + std::to_string(k.depth));
  }
  void on_end(const Invocation& k, double seconds) override {
    ended.push_back(k.label);
    last_seconds = seconds;
    if (k.depth == 0) tracker.add_counters(k.label, {{"dram__bytes.sum", 64.0}});
  }
  KernelTracker& tracker;
  std::vector<std::string> begun, ended;
  double last_seconds = -1.0;
};

TEST(KernelTracker, ObserverSeesEveryKernelAndAddsCounters) {
  FakeClock t;
  KernelTracker tracker(t.clock());
  CountingObserver observer(tracker);
  tracker.set_observer(&observer);
  const auto a = tracker.begin("a", kCuda, KernelKind::parallel_for);
  const auto b = tracker.begin("b", kCuda, KernelKind::parallel_for);
  t.now += 2.0;
  tracker.end(b);
  tracker.end(a);
  tracker.end(tracker.begin("a", kCuda, KernelKind::parallel_for));
  tracker.set_observer(nullptr);
  tracker.end(tracker.begin("a", kCuda, KernelKind::parallel_for));  // not observed
  EXPECT_EQ(observer.begun, (std::vector<std::string>{"a@0", "b@1", "a@0"}));
  EXPECT_EQ(observer.ended, (std::vector<std::string>{"b", "a", "a"}));
  const auto all = tracker.snapshot();
  EXPECT_DOUBLE_EQ(stats(all, "a").counters.at("dram__bytes.sum"), 128.0);
  EXPECT_EQ(stats(all, "a").counted_invocations, 2);
  EXPECT_EQ(stats(all, "a").invocations, 3);
  EXPECT_TRUE(stats(all, "b").counters.empty());
}

TEST(KernelTracker, SeveralThreadsLoseNothing) {
  KernelTracker tracker;
  constexpr int kThreads = 4, kEach = 2000;
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&tracker, i] {
      const std::string label = i % 2 ? "odd" : "even";
      for (int k = 0; k < kEach; ++k)
        tracker.end(tracker.begin(label.c_str(), kOpenMP, KernelKind::parallel_for));
    });
  for (auto& th : threads) th.join();
  const auto all = tracker.snapshot();
  EXPECT_EQ(stats(all, "odd").invocations, kThreads / 2 * kEach);
  EXPECT_EQ(stats(all, "even").invocations, kThreads / 2 * kEach);
  EXPECT_EQ(tracker.stray_ends(), 0);
  EXPECT_EQ(tracker.open_invocations(), 0u);
}

}  // namespace
}  // namespace rooftop::connector
