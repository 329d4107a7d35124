#pragma once
// The one sampling loop every measurement shares (the microbenchmarks, the kernels the
// analyzer runs, on the host or on a GPU): calibrate the repetition count until one
// sample lasts long enough to swamp timer and launch noise, then take several samples.
// The launch is a callable, so this knows nothing of Kokkos: `launch(reps)` runs the
// work `reps` times and must be blocking (it fences before returning).

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::core {

struct SampleSet;

// What else ran on the machine while a sample was timed; core knows no source of it (a
// host's lost CPU time, NVML on a GPU). core::sample calls start() as a measurement
// begins, before() right before and after() right after every timed launch (outside the
// timed interval), and measured() with the samples it keeps, whose SampleSet::launch
// says which launches they were.
class Watch {
 public:
  virtual ~Watch() = default;
  virtual void start() {}
  virtual void before() = 0;
  // The share of the launch's `seconds` during which the machine was not the
  // measurement's own, 0 to 1.
  virtual double after(double seconds) = 0;
  virtual void measured(const SampleSet& /*samples*/) {}
};

// The watch of a cumulative count of seconds lost to others (per measuring thread):
// what a launch lost over its time.
class LostTimeWatch : public Watch {
 public:
  explicit LostTimeWatch(double (*lost_seconds)()) : lost_seconds_(lost_seconds) {}
  void before() override { before_ = lost_seconds_(); }
  double after(double seconds) override;

 private:
  double (*lost_seconds_)();
  double before_ = 0.0;
};

struct Sampling {
  int samples = 3;                   // at most; fewer only when the budget runs out
  double min_sample_seconds = 0.05;  // shorter launches are repeated inside one sample
  // Per measurement, calibration included: no sample starts that would end past it,
  // once there is one.
  double budget_seconds = std::numeric_limits<double>::infinity();
  const std::atomic<bool>* cancel = nullptr;  // set asynchronously (Ctrl-C)
  // When set, the clock in GHz, read right before and right after every timed launch
  // (outside the timed interval): a sample's peak is only known at the clock it ran at.
  double (*clock)() = nullptr;
  // When set, what else ran during every timed launch (Watch above). While the median
  // sample was disturbed over kDisturbedShare of its time, the most disturbed sample is
  // taken again (at most `samples` more launches, within the budget).
  Watch* watch = nullptr;
};

// The share of a sample's time lost to others above which the sample is disturbed: a
// quiet machine loses well under 1% (timer interrupts, kernel threads); a competing
// busy task on one of the cores takes about half of that core.
inline constexpr double kDisturbedShare = 0.02;

struct SampleSet {
  std::int64_t reps = 1;        // repetitions inside one sample
  std::int64_t total_reps = 0;  // all repetitions run, warm-up and calibration included
  std::vector<double> seconds;  // one per sample
  // One per sample when Sampling::clock is set: the higher of the readings before and
  // after it, so that a peak taken at it stays an upper bound.
  std::vector<double> clock_ghz;
  // One per sample when Sampling::watch is set: the share of the sample's time the
  // machine was not the measurement's own (0 = quiet throughout).
  std::vector<double> disturbance;
  // One per sample: which launch of the measurement it was (0 = the first, calibration
  // included; a sample taken again is a later launch).
  std::vector<int> launch;

  // The seconds of one repetition, one per sample.
  std::vector<double> per_rep() const;
};

// A sample set as a point's series: each sample's value is `value(seconds of one
// repetition)`, its time, clock and disturbance as sampled.
template <class Value>
SampleSeries series(const SampleSet& samples, Value&& value) {
  SampleSeries out;
  out.seconds = samples.seconds;
  for (double t : samples.per_rep()) out.values.push_back(value(t));
  out.clock_ghz = samples.clock_ghz;
  out.disturbance = samples.disturbance;
  return out;
}

// The common case: a repetition does `units_per_rep` (FLOPs, bytes, operations), and
// each value is their rate in 10^9 per second.
SampleSeries rate_series(const SampleSet& samples, double units_per_rep);

// A point of `sweep` at `x`: its values `value(seconds of one repetition)`, or the rate of
// `units_per_rep` in 10^9 per second.
template <class Value>
SweepPoint sweep_point(const std::string& sweep, double x, const SampleSet& samples,
                       Value&& value) {
  SweepPoint p;
  p.sweep = sweep;
  p.x = x;
  p.series() = series(samples, value);
  return p;
}
SweepPoint rate_point(const std::string& sweep, double x, double units_per_rep,
                      const SampleSet& samples);

using Launch = std::function<void(std::int64_t reps)>;

// `reps` starts from the caller's guess and grows until one launch lasts
// min_sample_seconds. That last calibration launch counts as the first sample when an
// earlier launch has already brought caches and page tables to their steady state, or
// when it alone lasts a quarter of the budget (a cold start is nothing against seconds
// of work); otherwise it is the warm-up. Throws rooftop::Interrupted before any launch
// once the cancel flag is set.
SampleSet sample(const Sampling& sampling, std::int64_t reps, const Launch& launch);

// The median of the samples' disturbances (0 for none): the share of its time the sample
// behind a median rate lost to others, as disturbed samples are the slow ones.
double median_disturbance(std::vector<double> disturbance);

// Throws rooftop::Interrupted once the cancel flag is set.
void throw_if_cancelled(const Sampling& sampling);

}  // namespace rooftop::core
