// The one sampling loop (core/sampling.hpp): calibration, the budget and cancellation,
// with stand-in launches timed from inside.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

#include "rooftop/core/error.hpp"
#include "rooftop/core/sampling.hpp"

namespace rooftop::core {
namespace {

// Short samples: these tests check bookkeeping, not speed.
Sampling tiny_sampling() {
  Sampling t;
  t.samples = 2;
  t.min_sample_seconds = 1e-4;
  return t;
}

// A stand-in for a kernel launch: work proportional to `reps`, timed from inside. The
// first call can carry extra work, as if the thread had been preempted during it.
struct FakeLaunch {
  struct Call {
    std::int64_t reps;
    double seconds;
  };
  std::vector<Call>* calls;
  int steps_per_rep = 100;
  std::int64_t extra_reps_first_call = 0;
  void operator()(std::int64_t reps) const {
    const auto t0 = std::chrono::steady_clock::now();
    const std::int64_t work = reps + (calls->empty() ? extra_reps_first_call : 0);
    volatile double x = 1.0;
    for (std::int64_t r = 0; r < work; ++r)
      for (int i = 0; i < steps_per_rep; ++i) x = x * 0.5 + 0.5;
    const auto t1 = std::chrono::steady_clock::now();
    calls->push_back({reps, std::chrono::duration<double>(t1 - t0).count()});
  }
};

// Calibration is the run of launches with strictly growing counts before the first
// launch repeated at the same count (the warm-up and the first sample share a count).
std::size_t calibration_launches(const std::vector<FakeLaunch::Call>& calls) {
  for (std::size_t i = 1; i < calls.size(); ++i)
    if (calls[i].reps == calls[i - 1].reps) return i;
  return calls.size();
}

void expect_consistent_bookkeeping(const std::vector<FakeLaunch::Call>& calls, const SampleSet& s,
                                   const Sampling& sampling) {
  const std::size_t n = static_cast<std::size_t>(sampling.samples);
  ASSERT_EQ(s.seconds.size(), n);
  ASSERT_GE(calls.size(), n + 1) << "no warm-up launch";
  for (std::size_t i = 1; i < calls.size(); ++i)
    EXPECT_GE(calls[i].reps, calls[i - 1].reps) << "the count went down at launch " << i;
  for (std::size_t i = calls.size() - n; i < calls.size(); ++i)
    EXPECT_EQ(calls[i].reps, s.reps) << "the reported samples ran another count";
  std::int64_t total = 0;
  for (const auto& c : calls) total += c.reps;
  EXPECT_EQ(s.total_reps, total);
  for (double sec : s.seconds) EXPECT_GT(sec, 0.0);
}

TEST(Sample, GrowsRepetitionsUntilASampleLastsLongEnough) {
  Sampling sampling;
  sampling.samples = 3;
  sampling.min_sample_seconds = 0.02;
  std::vector<FakeLaunch::Call> calls;
  const SampleSet s = sample(sampling, 1, FakeLaunch{&calls});

  expect_consistent_bookkeeping(calls, s, sampling);
  EXPECT_EQ(calls.front().reps, 1);
  EXPECT_GT(s.reps, 1) << "one repetition of a tiny launch cannot last 20 ms";
  const std::size_t calibration = calibration_launches(calls);
  ASSERT_GE(calibration, 2u) << "the count never grew";
  // Calibration went on only after launches too short to count.
  for (std::size_t i = 0; i + 1 < calibration; ++i)
    EXPECT_LT(calls[i].seconds, sampling.min_sample_seconds) << "launch " << i;
}

TEST(Sample, EverySampleCarriesTheHigherClockReadAroundIt) {
  // The clock reads 3.0, 3.1, 3.2, ... GHz, one step per reading: read right before and
  // right after each timed launch, a sample's clock is the later (higher) reading.
  Sampling sampling;
  sampling.samples = 4;
  sampling.min_sample_seconds = 0.005;
  static std::vector<double> read;  // a plain function's state
  read.clear();
  sampling.clock = [] {
    read.push_back(3.0 + 0.1 * static_cast<double>(read.size()));
    return read.back();
  };
  std::vector<FakeLaunch::Call> calls;
  const SampleSet s = sample(sampling, 1, FakeLaunch{&calls});

  ASSERT_EQ(s.clock_ghz.size(), s.seconds.size());
  EXPECT_EQ(read.size(), 2 * calls.size()) << "not one reading before and after every launch";
  // The samples are the last launches; each one's clock is its closing reading.
  for (std::size_t i = 0; i < s.clock_ghz.size(); ++i)
    EXPECT_DOUBLE_EQ(s.clock_ghz[i], read[read.size() - 2 * (s.clock_ghz.size() - i) + 1]);
}

TEST(Sample, NoClockNoClockReadings) {
  std::vector<FakeLaunch::Call> calls;
  EXPECT_TRUE(sample(tiny_sampling(), 1, FakeLaunch{&calls}).clock_ghz.empty());
}

TEST(Sample, CalibrationSlowedDownOnceIsCorrectedBeforeReporting) {
  // The first launch is long (as if preempted), so calibration stops at one repetition
  // and the samples that follow are far too short: they must be redone at a higher count.
  Sampling sampling;
  sampling.samples = 3;
  sampling.min_sample_seconds = 0.005;
  std::vector<FakeLaunch::Call> calls;
  FakeLaunch launch{&calls, 10000, 2000};
  const SampleSet s = sample(sampling, 1, launch);

  ASSERT_GE(calls.front().seconds, sampling.min_sample_seconds)
      << "the simulated preemption was too short to test anything";
  EXPECT_EQ(calibration_launches(calls), 1u);
  expect_consistent_bookkeeping(calls, s, sampling);
  EXPECT_GT(s.reps, 1) << "short samples were reported as they were";
  EXPECT_GE(*std::min_element(s.seconds.begin(), s.seconds.end()),
            0.5 * sampling.min_sample_seconds);
}

TEST(Sample, StartsFromTheCallersGuess) {
  Sampling sampling;
  sampling.samples = 1;
  sampling.min_sample_seconds = 1e-9;  // any launch is long enough
  std::vector<FakeLaunch::Call> calls;
  const SampleSet s = sample(sampling, 7, FakeLaunch{&calls});
  ASSERT_EQ(calls.size(), 2u);  // one warm-up, one sample
  EXPECT_EQ(calls[0].reps, 7);
  EXPECT_EQ(s.reps, 7);
  EXPECT_EQ(s.total_reps, 14);
}

TEST(Sample, AlreadySetCancelFlagThrowsBeforeAnyLaunch) {
  const std::atomic<bool> cancel{true};
  Sampling sampling = tiny_sampling();
  sampling.cancel = &cancel;
  std::vector<FakeLaunch::Call> calls;
  EXPECT_THROW(sample(sampling, 1, FakeLaunch{&calls}), rooftop::Interrupted);
  EXPECT_TRUE(calls.empty());
}

TEST(Sample, CancelSetDuringALaunchStopsBeforeTheNext) {
  std::atomic<bool> cancel{false};
  Sampling sampling;
  sampling.samples = 5;
  sampling.min_sample_seconds = 1e-9;
  sampling.cancel = &cancel;
  int launches = 0;
  auto launch = [&](std::int64_t) {
    ++launches;
    cancel = true;  // as if Ctrl-C arrived during this launch
  };
  EXPECT_THROW(sample(sampling, 1, launch), rooftop::Interrupted);
  EXPECT_EQ(launches, 1);
}

TEST(Sample, InterruptedIsARooftopError) {
  const std::atomic<bool> cancel{true};
  Sampling sampling;
  sampling.cancel = &cancel;
  EXPECT_THROW(throw_if_cancelled(sampling), rooftop::Error);
}

TEST(Sample, ALaunchThatAloneLastsAQuarterOfTheBudgetIsTheOnlySample) {
  Sampling sampling;
  sampling.samples = 5;
  sampling.min_sample_seconds = 1e-9;
  sampling.budget_seconds = 1e-9;  // any launch is past the budget
  std::vector<FakeLaunch::Call> calls;
  const SampleSet s = sample(sampling, 1, FakeLaunch{&calls});
  ASSERT_EQ(calls.size(), 1u) << "no warm-up before work that lasts a quarter of the budget";
  ASSERT_EQ(s.seconds.size(), 1u);
  EXPECT_GE(s.seconds[0], calls[0].seconds);
  EXPECT_EQ(s.total_reps, 1);
}

TEST(Sample, NoSampleStartsThatWouldEndPastTheBudgetOnceThereIsOne) {
  // A quick warm-up, then launches each far longer than the budget: the first sample is
  // taken all the same, the second would end past the budget.
  Sampling sampling;
  sampling.samples = 5;
  sampling.min_sample_seconds = 1e-9;
  sampling.budget_seconds = 0.1;
  int launches = 0;
  auto launch = [&](std::int64_t) {
    if (launches++ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  };
  const SampleSet s = sample(sampling, 1, launch);
  EXPECT_EQ(launches, 2);
  ASSERT_EQ(s.seconds.size(), 1u);
  EXPECT_GT(s.seconds[0], sampling.budget_seconds);
}

// A neighbour that takes `share` of every launch whose number `disturbed` picks: the
// launch adds that share of its own time to the lost time the probe reports.
struct Neighbour {
  static inline double lost = 0.0;
  static inline int launches = 0;
  static double probe() { return lost; }
  static inline LostTimeWatch watch{probe};
};

// A launch during which a neighbour ran for `lost(seconds)`, `seconds` being the launch's
// own time, whenever `disturbed` says so of the launch's number.
template <class Lost, class Disturbed>
Launch launch_beside_neighbour(std::vector<FakeLaunch::Call>& calls, Lost lost, Disturbed disturbed) {
  Neighbour::lost = 0.0;
  Neighbour::launches = 0;
  return [&calls, lost, disturbed](std::int64_t reps) {
    FakeLaunch{&calls}(reps);
    if (disturbed(Neighbour::launches++)) Neighbour::lost += lost(calls.back().seconds);
  };
}

// A disturbed launch loses a whole second: more than it lasts, whatever the sampler's own
// overhead around a launch of a microsecond, so its share is 1 and a quiet one's 0.
template <class Disturbed>
Launch disturbed_launch(std::vector<FakeLaunch::Call>& calls, Disturbed disturbed) {
  return launch_beside_neighbour(calls, [](double) { return 1.0; }, disturbed);
}

// Any launch is long enough, and the neighbour is watched: one warm-up, then 3 samples.
Sampling watched_sampling() {
  Sampling sampling;
  sampling.samples = 3;
  sampling.min_sample_seconds = 1e-9;
  sampling.watch = &Neighbour::watch;
  return sampling;
}

TEST(Sample, EverySampleCarriesTheShareOfItsTimeLostToOthers) {
  Sampling sampling = tiny_sampling();
  sampling.min_sample_seconds = 0.002;
  sampling.watch = &Neighbour::watch;
  std::vector<FakeLaunch::Call> calls;
  const SampleSet s = sample(sampling, 1, launch_beside_neighbour(
          calls, [](double seconds) { return 0.25 * seconds; }, [](int) { return true; }));
  ASSERT_EQ(s.disturbance.size(), s.seconds.size());
  // The neighbour's time is a quarter of a launch's own timing; the sample's timing holds
  // it and the sampler's overhead, so the share is what one launch lost over the sample's
  // time, a little under a quarter. (Retakes reorder samples, so the launch is searched.)
  for (std::size_t i = 0; i < s.seconds.size(); ++i) {
    const double lost = s.disturbance[i] * s.seconds[i];
    EXPECT_TRUE(std::any_of(calls.begin(), calls.end(), [&](const FakeLaunch::Call& c) {
      return std::abs(lost - 0.25 * c.seconds) < 1e-12;
    })) << "sample " << i << " lost " << lost << " s";
    EXPECT_LE(s.disturbance[i], 0.25);
  }
}

TEST(Sample, ADisturbedMachineGetsAtMostTwiceTheSamples) {
  // Any launch is long enough: one warm-up, 3 samples, then, every launch being
  // disturbed, one retake per sample asked for and no more.
  const Sampling sampling = watched_sampling();
  std::vector<FakeLaunch::Call> calls;
  const SampleSet s = sample(sampling, 1, disturbed_launch(calls, [](int) { return true; }));
  EXPECT_EQ(calls.size(), 1u + 3u + 3u);
  EXPECT_EQ(s.total_reps, 7);
  ASSERT_EQ(s.disturbance.size(), 3u);
  for (double d : s.disturbance) EXPECT_GT(d, kDisturbedShare);
}

TEST(Sample, RetakesGoOnWhileTheMedianSampleIsDisturbed) {
  // Launches 2, 3 and 4 disturbed: the samples are launches 1 (quiet), 2 and 3; the
  // first retake (4) is disturbed too and replaces sample 2 again, the second (5) is
  // quiet and leaves a minority disturbed, which ends the retakes.
  const Sampling sampling = watched_sampling();
  std::vector<FakeLaunch::Call> calls;
  const SampleSet s =
      sample(sampling, 1, disturbed_launch(calls, [](int n) { return n >= 2 && n <= 4; }));
  EXPECT_EQ(calls.size(), 6u);
  ASSERT_EQ(s.disturbance.size(), 3u);
  EXPECT_EQ(std::count(s.disturbance.begin(), s.disturbance.end(), 0.0), 2);
  EXPECT_LE(median_disturbance(s.disturbance), kDisturbedShare);
}

TEST(Sample, OneDisturbedSampleOfThreeIsNotRetaken) {
  // A slow minority does not move the median rate: a quiet machine's odd tick of steal
  // costs no time.
  const Sampling sampling = watched_sampling();
  std::vector<FakeLaunch::Call> calls;
  const SampleSet s =
      sample(sampling, 1, disturbed_launch(calls, [](int n) { return n == 2; }));
  EXPECT_EQ(calls.size(), 4u);
  EXPECT_GT(s.disturbance[1], kDisturbedShare);
}

TEST(Sample, EverySampleNamesItsLaunchAndTheWatchSeesTheSamplesKept) {
  // Launches 2, 3 and 4 disturbed, as above: the samples kept are launches 1, 5 and 3
  // (the second retake replaced the retake of sample 2, the worst).
  struct Recording : LostTimeWatch {
    Recording() : LostTimeWatch(Neighbour::probe) {}
    int starts = 0, befores = 0, afters = 0;
    std::vector<int> kept;
    void start() override { ++starts; }
    void before() override {
      ++befores;
      LostTimeWatch::before();
    }
    double after(double seconds) override {
      ++afters;
      return LostTimeWatch::after(seconds);
    }
    void measured(const SampleSet& samples) override { kept = samples.launch; }
  } watch;
  Sampling sampling = watched_sampling();
  sampling.watch = &watch;
  std::vector<FakeLaunch::Call> calls;
  const SampleSet s =
      sample(sampling, 1, disturbed_launch(calls, [](int n) { return n >= 2 && n <= 4; }));
  EXPECT_EQ(watch.starts, 1);
  EXPECT_EQ(watch.befores, 6);
  EXPECT_EQ(watch.afters, 6);
  EXPECT_EQ(s.launch, (std::vector<int>{1, 5, 3}));
  EXPECT_EQ(watch.kept, s.launch);
  for (std::size_t i = 0; i < s.launch.size(); ++i)
    EXPECT_EQ(s.disturbance[i] > kDisturbedShare, s.launch[i] >= 2 && s.launch[i] <= 4) << i;
}

TEST(Sample, WithoutAWatchSamplesStillNameTheirLaunches) {
  std::vector<FakeLaunch::Call> calls;
  const SampleSet s = sample(tiny_sampling(), 1, FakeLaunch{&calls});
  ASSERT_EQ(s.launch.size(), s.seconds.size());
  EXPECT_TRUE(s.disturbance.empty());
  // The samples are the last launches here, each at the count they ran at.
  for (std::size_t i = 0; i < s.launch.size(); ++i) {
    EXPECT_EQ(s.launch[i], static_cast<int>(calls.size() - s.launch.size() + i)) << i;
    EXPECT_EQ(calls[static_cast<std::size_t>(s.launch[i])].reps, s.reps) << i;
  }
}

TEST(Sample, MedianDisturbance) {
  EXPECT_EQ(median_disturbance({}), 0.0);
  EXPECT_EQ(median_disturbance({0.3, 0.0, 0.1}), 0.1);
  EXPECT_DOUBLE_EQ(median_disturbance({0.4, 0.0, 0.1, 0.2}), 0.15);
}

TEST(Sample, AQuietMachineGetsNoRetake) {
  const Sampling sampling = watched_sampling();
  std::vector<FakeLaunch::Call> calls;
  const SampleSet s = sample(sampling, 1, disturbed_launch(calls, [](int) { return false; }));
  EXPECT_EQ(calls.size(), 1u + 3u);
  EXPECT_EQ(s.disturbance, std::vector<double>(3, 0.0));
}

TEST(Sample, NoRetakePastTheBudget) {
  // Launches of at least 6 ms (a sleep only ever lasts longer), every one disturbed, and a
  // budget of 20 ms: the first launch is a sample (it is over a quarter of the budget),
  // the second makes two (12 ms spent), one retake fits (18 ms) and a second would end
  // at 24 ms. Slower launches on a loaded machine only leave less room for retakes (and
  // fewer samples); without the budget there would be two retakes, four launches.
  Sampling sampling = tiny_sampling();
  sampling.min_sample_seconds = 0.002;
  sampling.budget_seconds = 0.02;
  sampling.watch = &Neighbour::watch;
  Neighbour::lost = 0.0;
  int launches = 0;
  sample(sampling, 1, [&](std::int64_t) {
    ++launches;
    std::this_thread::sleep_for(std::chrono::milliseconds(6));
    Neighbour::lost += 1.0;
  });
  EXPECT_GE(launches, 1);
  EXPECT_LE(launches, 3);
}

TEST(Sample, PerRepDividesEverySampleByTheCount) {
  SampleSet s;
  s.reps = 4;
  s.seconds = {2.0, 1.0};
  EXPECT_EQ(s.per_rep(), (std::vector<double>{0.5, 0.25}));
}

}  // namespace
}  // namespace rooftop::core
