#pragma once
// CUPTI's Range Profiler (CUDA >= 12.6, cupti_range_profiler.h) on the current CUDA
// context, behind one move-only class that hides the replay loop. Compiled only in the
// CUDA build with CUPTI (ROOFTOP_HAS_DEVICE and ROOFTOP_HAS_CUPTI).
//
// Two ways to collect, one per use:
//   user ranges, user replay   the cupti backend: one range around one run of a kernel,
//                              the run repeated once per replay pass (runs must give the
//                              same work each time: rooftop's kernels are idempotent);
//   auto ranges, kernel replay the Kokkos Tools connector: one range per CUDA launch,
//                              CUPTI replays each launch itself (saving and restoring
//                              the memory it writes), so an unmodified application runs
//                              once. make_auto_range_target() gives the steps to an
//                              AutoRangeSession (auto_ranges.hpp), which sets the
//                              profiler up once and counts kernel after kernel.
// A counter unit held by another process fails with CountersBusy, a lasting refusal (no
// permission, an unsupported device, another CUPTI client in the process) with
// CountersRefused, anything else with rooftop::Error.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rooftop/counters/auto_ranges.hpp"
#include "rooftop/counters/cupti_host.hpp"
#include "rooftop/counters/metrics.hpp"

namespace rooftop::counters::cupti {

struct RangeProfilerOptions {
  std::vector<std::string> metrics = roofline_metric_names();
  std::size_t max_ranges = 64;  // ranges one collection can hold (auto: launches)
};

// What one collection gave: values summed over its ranges, and how it went.
struct Collection {
  MetricValues values;
  std::size_t ranges = 0;          // ranges decoded
  std::size_t passes = 0;          // replay passes run (user replay)
  std::size_t dropped_ranges = 0;  // ranges that did not fit the counter-data image
};

class RangeProfiler {
 public:
  // Checks the CUPTI version, the current CUDA context, the device's profiling support and
  // counter availability, and builds the config image. Throws rooftop::Error with the fix
  // where there is one (no context, CUPTI older than 12.6, counters not permitted).
  explicit RangeProfiler(RangeProfilerOptions options = {});
  ~RangeProfiler();
  RangeProfiler(RangeProfiler&&) noexcept;
  RangeProfiler& operator=(RangeProfiler&&) noexcept;
  RangeProfiler(const RangeProfiler&) = delete;
  RangeProfiler& operator=(const RangeProfiler&) = delete;

  const std::string& chip() const;
  const std::vector<std::string>& metrics() const;    // scheduled
  const std::vector<SkippedMetric>& skipped() const;  // not collected, with reasons
  std::size_t passes() const;                         // replay passes the config needs

  // User range `name` around `run`, which is called once per replay pass and must be
  // blocking (fenced) and do the same work every time.
  Collection collect_user_range(const std::string& name, const std::function<void()>& run);

  // Auto ranges with kernel replay, step by step (what AutoRangeTarget names):
  // enable_auto() once, then per kernel reset_image(), start(), the launches, stop(),
  // decode() (the ranges in the image), evaluate(r) for each; disable() at the end.
  void enable_auto();
  void reset_image();
  void start();
  void stop();
  std::size_t decode();
  std::size_t dropped() const;
  MetricValues evaluate(std::size_t range) const;
  void disable() noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The CUDA context's profiler as an AutoRangeTarget (checks as RangeProfiler's
// constructor, which it runs now).
std::unique_ptr<AutoRangeTarget> make_auto_range_target(RangeProfilerOptions options = {});

}  // namespace rooftop::counters::cupti
