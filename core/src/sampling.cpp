#include "rooftop/core/sampling.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "rooftop/core/error.hpp"

namespace rooftop::core {
namespace {

struct Timed {
  double seconds = 0.0;
  double clock_ghz = 0.0;    // 0 without Sampling::clock
  double disturbance = 0.0;  // the watch's share; 0 without one
  int launch = 0;            // its number in the measurement
};

// Every launch of a measurement is one of these, numbered in `launches`.
Timed timed(const Sampling& sampling, const Launch& launch, std::int64_t reps, int& launches) {
  Timed run;
  run.launch = launches++;
  const double before = sampling.clock ? sampling.clock() : 0.0;
  if (sampling.watch) sampling.watch->before();
  const auto t0 = std::chrono::steady_clock::now();
  launch(reps);
  const auto t1 = std::chrono::steady_clock::now();
  run.seconds = std::chrono::duration<double>(t1 - t0).count();
  if (sampling.watch) run.disturbance = std::clamp(sampling.watch->after(run.seconds), 0.0, 1.0);
  if (sampling.clock) run.clock_ghz = std::max(before, sampling.clock());
  return run;
}

// The count that makes a launch of `seconds` at `reps` last min_sample_seconds, with a
// margin; at most 64 times more at once.
std::int64_t grown(const Sampling& sampling, std::int64_t reps, double seconds) {
  const double grow = seconds > 0.0 ? 1.15 * sampling.min_sample_seconds / seconds : 16.0;
  return static_cast<std::int64_t>(std::ceil(static_cast<double>(reps) * std::min(grow, 64.0)));
}

// Takes the most disturbed sample again while the median sample is disturbed: at most
// `samples` more launches, none that would end past the budget. A disturbed sample is a
// slow one, so while at most a minority is disturbed the median rate is a quiet sample's
// and nothing is retaken (a quiet machine's odd timer tick of steal costs no time).
void retake_disturbed(const Sampling& sampling, const Launch& launch, double spent,
                      int& launches, SampleSet& out) {
  if (out.disturbance.empty()) return;
  const double launch_seconds =
      *std::min_element(out.seconds.begin(), out.seconds.end());
  for (int retakes = std::max(1, sampling.samples); retakes > 0; --retakes) {
    if (median_disturbance(out.disturbance) <= kDisturbedShare ||
        spent + launch_seconds > sampling.budget_seconds)
      return;
    const auto worst = std::max_element(out.disturbance.begin(), out.disturbance.end());
    throw_if_cancelled(sampling);
    const Timed run = timed(sampling, launch, out.reps, launches);
    spent += run.seconds;
    out.total_reps += out.reps;
    const auto i = static_cast<std::size_t>(worst - out.disturbance.begin());
    out.seconds[i] = run.seconds;
    if (!out.clock_ghz.empty()) out.clock_ghz[i] = run.clock_ghz;
    out.disturbance[i] = run.disturbance;
    out.launch[i] = run.launch;
  }
}

}  // namespace

double LostTimeWatch::after(double seconds) {
  return seconds > 0.0 ? (lost_seconds_() - before_) / seconds : 0.0;
}

double median_disturbance(std::vector<double> disturbance) {
  if (disturbance.empty()) return 0.0;
  const auto mid = disturbance.begin() + static_cast<std::ptrdiff_t>(disturbance.size() / 2);
  std::nth_element(disturbance.begin(), mid, disturbance.end());
  if (disturbance.size() % 2 == 1) return *mid;
  return 0.5 * (*mid + *std::max_element(disturbance.begin(), mid));
}

std::vector<double> SampleSet::per_rep() const {
  std::vector<double> out;
  out.reserve(seconds.size());
  for (double s : seconds) out.push_back(s / static_cast<double>(reps));
  return out;
}

namespace {
// A repetition's `units` in 10^9 per second, from its seconds.
auto rate_of(double units) {
  return [units](double seconds) { return units / seconds * 1e-9; };
}
}  // namespace

SampleSeries rate_series(const SampleSet& samples, double units_per_rep) {
  return series(samples, rate_of(units_per_rep));
}

SweepPoint rate_point(const std::string& sweep, double x, double units_per_rep,
                      const SampleSet& samples) {
  return sweep_point(sweep, x, samples, rate_of(units_per_rep));
}

void throw_if_cancelled(const Sampling& sampling) {
  if (sampling.cancel && sampling.cancel->load()) throw Interrupted();
}

SampleSet sample(const Sampling& sampling, std::int64_t reps, const Launch& launch) {
  SampleSet out;
  reps = std::max<std::int64_t>(1, reps);
  const int samples = std::max(1, sampling.samples);
  double spent = 0.0;        // seconds of every launch so far, against the budget
  int launches = 0;          // launches so far
  Timed calibrated;          // the last calibration launch, if it is a sample
  double rep_seconds = 0.0;  // one repetition in the last launch: the next one's estimate
  if (sampling.watch) sampling.watch->start();
  for (bool warm = false;; warm = true) {
    throw_if_cancelled(sampling);
    const Timed run = timed(sampling, launch, reps, launches);
    const double t = run.seconds;
    spent += t;
    rep_seconds = t / static_cast<double>(reps);
    out.total_reps += reps;
    if (t >= sampling.min_sample_seconds) {
      if (warm || t >= sampling.budget_seconds / 4) calibrated = run;
      break;
    }
    reps = grown(sampling, reps, t);
  }
  const auto keep = [&](const Timed& run) {
    out.seconds.push_back(run.seconds);
    if (sampling.clock) out.clock_ghz.push_back(run.clock_ghz);
    if (sampling.watch) out.disturbance.push_back(run.disturbance);
    out.launch.push_back(run.launch);
  };
  // Preemption only ever makes a launch slower, so a calibration launch that was slowed
  // down leaves samples far shorter than asked for; then grow and sample again.
  for (int attempt = 0;; ++attempt) {
    out.reps = reps;
    out.seconds.clear();
    out.clock_ghz.clear();
    out.disturbance.clear();
    out.launch.clear();
    if (calibrated.seconds > 0.0) keep(calibrated);
    calibrated = {};
    while (static_cast<int>(out.seconds.size()) < samples) {
      if (!out.seconds.empty() &&
          spent + rep_seconds * static_cast<double>(reps) > sampling.budget_seconds)
        break;
      throw_if_cancelled(sampling);
      const Timed run = timed(sampling, launch, reps, launches);
      spent += run.seconds;
      rep_seconds = run.seconds / static_cast<double>(reps);
      keep(run);
      out.total_reps += reps;
    }
    const double shortest = *std::min_element(out.seconds.begin(), out.seconds.end());
    if (attempt == 3 || shortest >= 0.5 * sampling.min_sample_seconds ||
        spent >= sampling.budget_seconds)
      break;
    reps = grown(sampling, reps, shortest);
  }
  retake_disturbed(sampling, launch, spent, launches, out);
  if (sampling.watch) sampling.watch->measured(out);
  return out;
}

}  // namespace rooftop::core
