// The life cycle of auto-range counting across a run, against a fake profiler that
// records every step: set up once for many kernels, kernels with no launch, counter
// units held by another process, failures that heal and failures that last.

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "rooftop/counters/auto_ranges.hpp"

namespace rooftop::counters {
namespace {

// Records each call; the launches of the next kernel are what `launches` holds when it
// stops; a step listed in `fail_next` throws what is there once.
struct FakeProfiler {
  std::vector<std::string> calls;
  std::size_t launches = 1;
  std::size_t capacity = 64;
  std::deque<std::pair<std::string, std::string>> fail_next;  // step, "busy"|"refused"|"error"
  bool enabled = false, started = false;
  std::size_t ranges = 0;

  void step(const std::string& name) {
    calls.push_back(name);
    if (!fail_next.empty() && fail_next.front().first == name) {
      const std::string kind = fail_next.front().second;
      fail_next.pop_front();
      if (kind == "busy") throw CountersBusy(name + ": CUPTI_ERROR_HARDWARE_BUSY");
      if (kind == "refused") throw CountersRefused(name + ": CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
      throw Error(name + ": CUPTI_ERROR_UNKNOWN");
    }
  }
  int count(const std::string& name) const {
    int n = 0;
    for (const std::string& c : calls) n += c == name;
    return n;
  }
};

class FakeTarget final : public AutoRangeTarget {
 public:
  explicit FakeTarget(FakeProfiler& p) : p_(p) {}
  AutoRangeSetup setup() const override { return {"GH100", {"dram__bytes.sum"}, {}, 3}; }
  void enable() override {
    EXPECT_FALSE(p_.enabled) << "enabled twice without a disable";
    p_.step("enable");
    p_.enabled = true;
  }
  void reset_image() override {
    EXPECT_TRUE(p_.enabled);
    p_.step("reset_image");
    p_.ranges = 0;
  }
  void start() override {
    EXPECT_TRUE(p_.enabled);
    p_.step("start");
    p_.started = true;
  }
  void stop() override {
    EXPECT_TRUE(p_.started);
    p_.step("stop");
    p_.started = false;
    p_.ranges += p_.launches;
  }
  std::size_t decode() override {
    p_.step("decode");
    return std::min(p_.ranges, p_.capacity);
  }
  std::size_t dropped() const override {
    return p_.ranges > p_.capacity ? p_.ranges - p_.capacity : 0;
  }
  cupti::MetricValues evaluate(std::size_t range) override {
    p_.step("evaluate");
    return {{"dram__bytes.sum", 32.0 * static_cast<double>(range + 1)}};
  }
  void disable() noexcept override {
    p_.calls.push_back("disable");
    p_.enabled = false;
    p_.started = false;
  }

 private:
  FakeProfiler& p_;
};

std::unique_ptr<AutoRangeSession> make(FakeProfiler& p, std::vector<int>* sleeps = nullptr) {
  AutoRangeOptions o;
  o.sleep = [sleeps](std::chrono::milliseconds d) {
    if (sleeps) sleeps->push_back(static_cast<int>(d.count()));
  };
  return std::make_unique<AutoRangeSession>(std::make_unique<FakeTarget>(p), o);
}

KernelCounts count_one(AutoRangeSession& s) {
  s.begin();
  return s.end();
}

TEST(AutoRangeSession, SetsTheProfilerUpOnceForManyKernels) {
  FakeProfiler p;
  auto s = make(p);
  for (int i = 0; i < 1000; ++i) {
    const KernelCounts c = count_one(*s);
    ASSERT_TRUE(c.counted) << c.reason;
    ASSERT_EQ(c.ranges, 1u);
    ASSERT_DOUBLE_EQ(c.values.at("dram__bytes.sum"), 32.0);
  }
  EXPECT_EQ(s->setups(), 1u);
  EXPECT_EQ(p.count("enable"), 1);
  EXPECT_EQ(p.count("disable"), 0);
  EXPECT_EQ(p.count("start"), 1000);
  EXPECT_EQ(p.count("decode"), 1000);
  s->close();
  EXPECT_EQ(p.count("disable"), 1);
}

TEST(AutoRangeSession, SumsTheLaunchesOfOneKernel) {
  FakeProfiler p;
  p.launches = 3;
  auto s = make(p);
  const KernelCounts c = count_one(*s);
  ASSERT_TRUE(c.counted);
  EXPECT_EQ(c.ranges, 3u);
  EXPECT_DOUBLE_EQ(c.values.at("dram__bytes.sum"), 32.0 + 64.0 + 96.0);
}

TEST(AutoRangeSession, AKernelWithNoLaunchIsAnEmptyCollection) {
  FakeProfiler p;
  p.launches = 0;
  auto s = make(p);
  const KernelCounts c = count_one(*s);
  EXPECT_TRUE(c.counted) << c.reason;
  EXPECT_EQ(c.ranges, 0u);
  EXPECT_TRUE(c.values.empty());
  EXPECT_TRUE(c.reason.empty());
  p.launches = 1;
  EXPECT_TRUE(count_one(*s).counted);
  EXPECT_EQ(s->setups(), 1u);
}

TEST(AutoRangeSession, MoreLaunchesThanTheImageHoldsAreNotCounted) {
  FakeProfiler p;
  p.launches = 70;
  p.capacity = 64;
  auto s = make(p);
  const KernelCounts c = count_one(*s);
  EXPECT_FALSE(c.counted);
  EXPECT_EQ(c.dropped, 6u);
  EXPECT_NE(c.reason.find("6 CUDA launches more than the counter-data image holds"),
            std::string::npos)
      << c.reason;
  p.launches = 1;
  EXPECT_TRUE(count_one(*s).counted);
}

TEST(AutoRangeSession, BusyCountersAreTriedAgainAndSaidSo) {
  FakeProfiler p;
  p.fail_next = {{"enable", "busy"}, {"enable", "busy"}};
  std::vector<int> sleeps;
  auto s = make(p, &sleeps);
  const KernelCounts c = count_one(*s);
  EXPECT_TRUE(c.counted) << c.reason;
  EXPECT_EQ(s->busy_retries(), 2u);
  EXPECT_EQ(sleeps, (std::vector<int>{50, 100}));
  EXPECT_FALSE(s->gave_up());
}

TEST(AutoRangeSession, CountersHeldThroughEveryTryLeaveThatKernelUncounted) {
  FakeProfiler p;
  for (int i = 0; i < 4; ++i) p.fail_next.push_back({"start", "busy"});
  auto s = make(p);
  EXPECT_FALSE(s->begin());
  const KernelCounts c = s->end();
  EXPECT_FALSE(c.counted);
  EXPECT_NE(c.reason.find("another process is profiling this GPU"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("tried 4 times"), std::string::npos) << c.reason;
  EXPECT_EQ(c.reason.find("NVreg"), std::string::npos) << "busy is not a permission problem";
  EXPECT_FALSE(s->gave_up());
  EXPECT_FALSE(p.enabled) << "a busy start leaves the profiler disabled";
  const KernelCounts next = count_one(*s);
  EXPECT_TRUE(next.counted) << next.reason;
}

TEST(AutoRangeSession, NoPermissionEndsCountingAtOnce) {
  FakeProfiler p;
  p.fail_next = {{"enable", "refused"}};
  auto s = make(p);
  EXPECT_FALSE(s->begin());
  EXPECT_FALSE(s->end().counted);
  EXPECT_TRUE(s->gave_up());
  EXPECT_NE(s->gave_up_reason().find("INSUFFICIENT_PRIVILEGES"), std::string::npos);
  EXPECT_FALSE(s->begin());
  EXPECT_EQ(p.count("enable"), 1) << "no new attempt after a lasting refusal";
}

TEST(AutoRangeSession, AFailedKernelDisablesAndTheNextOneEnablesAgain) {
  FakeProfiler p;
  p.fail_next = {{"decode", "error"}};
  auto s = make(p);
  const KernelCounts bad = count_one(*s);
  EXPECT_FALSE(bad.counted);
  EXPECT_NE(bad.reason.find("decode: CUPTI_ERROR_UNKNOWN"), std::string::npos) << bad.reason;
  EXPECT_FALSE(p.enabled);
  const KernelCounts good = count_one(*s);
  EXPECT_TRUE(good.counted) << good.reason;
  EXPECT_EQ(s->setups(), 2u);
}

TEST(AutoRangeSession, RepeatedFailuresEndCounting) {
  FakeProfiler p;
  for (int i = 0; i < 3; ++i) p.fail_next.push_back({"start", "error"});
  auto s = make(p);
  for (int i = 0; i < 3; ++i) count_one(*s);
  EXPECT_TRUE(s->gave_up());
  EXPECT_NE(s->gave_up_reason().find("3 kernels in a row"), std::string::npos)
      << s->gave_up_reason();
}

TEST(AutoRangeSession, AStartFailureStopsNothingThatDidNotStart) {
  FakeProfiler p;
  p.fail_next = {{"start", "error"}};
  auto s = make(p);
  count_one(*s);
  EXPECT_EQ(p.count("stop"), 0);
  EXPECT_EQ(p.count("disable"), 1);
}

TEST(AutoRangeSession, ClosingMidKernelStopsThenDisables) {
  FakeProfiler p;
  {
    auto s = make(p);
    ASSERT_TRUE(s->begin());
  }
  ASSERT_GE(p.calls.size(), 2u);
  EXPECT_EQ(p.calls[p.calls.size() - 2], "stop");
  EXPECT_EQ(p.calls.back(), "disable");
}

}  // namespace
}  // namespace rooftop::counters
