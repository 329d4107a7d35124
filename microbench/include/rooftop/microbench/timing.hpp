#pragma once
// Sampling discipline shared by every microbenchmark: calibrate the repetition count
// until one sample lasts long enough to swamp timer and launch noise, then take
// several samples. `launch(reps)` must be blocking (it fences before returning).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "rooftop/core/error.hpp"

namespace rooftop::microbench {

struct Timing {
  int samples = 3;
  double min_sample_seconds = 0.05;
  const std::atomic<bool>* cancel = nullptr;  // set asynchronously (Ctrl-C)
  // When set, the core clock in GHz, read right before and right after every timed run
  // (outside the timed interval): a sample's peak is only known at the clock it ran at.
  std::function<double()> clock;
};

struct SampleSet {
  std::int64_t reps = 1;         // repetitions inside one sample
  std::int64_t total_reps = 0;   // all repetitions run, warm-up included
  std::vector<double> seconds;   // one per sample
  std::vector<double> clock_ghz; // one per sample when Timing::clock is set: the higher
                                 // of the readings before and after it
};

inline void throw_if_cancelled(const Timing& t) {
  if (t.cancel && t.cancel->load()) throw Interrupted();
}

template <class Launch>
double time_blocking(Launch&& launch, std::int64_t reps) {
  const auto t0 = std::chrono::steady_clock::now();
  launch(reps);
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

struct TimedRun {
  double seconds = 0.0;
  double clock_ghz = 0.0;  // 0 without Timing::clock
};

// One blocking run, with the clock read around it when the timing asks for it. The
// higher reading keeps the peak derived from it an upper bound.
template <class Launch>
TimedRun timed_run(const Timing& timing, Launch&& launch, std::int64_t reps) {
  TimedRun run;
  const double before = timing.clock ? timing.clock() : 0.0;
  run.seconds = time_blocking(launch, reps);
  if (timing.clock) run.clock_ghz = std::max(before, timing.clock());
  return run;
}

// `reps` starts from the caller's guess and grows until one run lasts long enough.
// That last calibration run counts as the first sample when an earlier run has
// already brought caches and page tables to their steady state; otherwise it is
// the warm-up.
template <class Launch>
SampleSet sample(const Timing& timing, std::int64_t reps, Launch&& launch) {
  SampleSet out;
  reps = std::max<std::int64_t>(1, reps);
  TimedRun calibrated;  // the last calibration run, if it can be a sample
  for (bool warm = false;; warm = true) {
    throw_if_cancelled(timing);
    const TimedRun run = timed_run(timing, launch, reps);
    const double t = run.seconds;
    out.total_reps += reps;
    if (t >= timing.min_sample_seconds) {
      if (warm) calibrated = run;
      break;
    }
    const double grow = t > 0.0 ? 1.15 * timing.min_sample_seconds / t : 16.0;
    reps = static_cast<std::int64_t>(std::ceil(static_cast<double>(reps) * std::min(grow, 64.0)));
  }
  // Preemption only ever makes a run slower, so a calibration run that was slowed down
  // leaves samples far shorter than asked for; then grow and sample again.
  for (int attempt = 0;; ++attempt) {
    out.reps = reps;
    out.seconds.clear();
    out.clock_ghz.clear();
    auto keep = [&](const TimedRun& run) {
      out.seconds.push_back(run.seconds);
      if (timing.clock) out.clock_ghz.push_back(run.clock_ghz);
    };
    if (calibrated.seconds > 0.0) keep(calibrated);
    calibrated = {};
    while (static_cast<int>(out.seconds.size()) < timing.samples) {
      throw_if_cancelled(timing);
      keep(timed_run(timing, launch, reps));
      out.total_reps += reps;
    }
    const double shortest = *std::min_element(out.seconds.begin(), out.seconds.end());
    if (attempt == 3 || shortest >= 0.5 * timing.min_sample_seconds) break;
    const double grow = shortest > 0.0 ? 1.15 * timing.min_sample_seconds / shortest : 16.0;
    reps = static_cast<std::int64_t>(std::ceil(static_cast<double>(reps) * std::min(grow, 64.0)));
  }
  return out;
}

}  // namespace rooftop::microbench
