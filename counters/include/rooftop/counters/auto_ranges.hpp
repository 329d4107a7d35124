#pragma once
// Counting many kernels of one program, one at a time, with auto ranges (one range per
// CUDA launch, kernel replay): the life cycle of the profiler across a whole run, apart
// from CUPTI itself so that it is tested without a GPU.
//
//   set up once per context   enable the profiler, size the counter-data image, set the
//                             config (the costly part: done again only after a failure)
//   per kernel                empty the image, start, (the kernel's launches), stop,
//                             decode, evaluate the ranges it holds
//
// A kernel with no CUDA launch (a View initialised by cudaMemset) decodes to no range:
// a valid, empty collection. A counter unit another process holds (ncu, nsys, DCGM,
// another rank on the GPU) is tried again a few times, then that kernel goes uncounted
// with the reason, and the next kernel tries again; only a lasting failure (no
// permission to the counters, an unsupported GPU, repeated errors) ends counting.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rooftop/core/error.hpp"
#include "rooftop/counters/metrics.hpp"

namespace rooftop::counters {

// Thrown by a target when the GPU's counters are in use by someone else: worth a retry.
class CountersBusy : public Error {
 public:
  using Error::Error;
};

// Thrown by a target for a failure no retry mends (no permission, unsupported device).
class CountersRefused : public Error {
 public:
  using Error::Error;
};

// What a configured profiler collects.
struct AutoRangeSetup {
  std::string chip;                           // "GH100"
  std::vector<std::string> metrics;           // scheduled
  std::vector<cupti::SkippedMetric> skipped;  // not collected, with reasons
  std::size_t passes = 0;                     // replay passes per launch
};

// The profiler on one context, one call per step; CUPTI's Range Profiler in the CUDA
// build (cupti::make_auto_range_target), a fake in tests. Any step may throw
// CountersBusy, CountersRefused or rooftop::Error.
class AutoRangeTarget {
 public:
  virtual ~AutoRangeTarget() = default;
  virtual AutoRangeSetup setup() const = 0;
  virtual void enable() = 0;        // profiler, counter-data image and config, on the context
  virtual void reset_image() = 0;   // the counter-data image emptied for the next kernel
  virtual void start() = 0;
  virtual void stop() = 0;          // every pass of every launch is in (kernel replay)
  virtual std::size_t decode() = 0; // ranges now in the image; dropped ones via dropped()
  virtual std::size_t dropped() const = 0;  // launches the last decode could not hold
  virtual cupti::MetricValues evaluate(std::size_t range) = 0;
  virtual void disable() noexcept = 0;
};

struct AutoRangeOptions {
  int busy_tries = 4;                                // attempts when the counters are busy
  std::chrono::milliseconds busy_wait{50};           // between two attempts, doubling
  int failures_before_giving_up = 3;                 // kernels failing in a row
  std::function<void(std::chrono::milliseconds)> sleep;  // default: this thread sleeps
};

// What one kernel's collection gave.
struct KernelCounts {
  bool counted = false;       // values cover every launch between begin and end
  cupti::MetricValues values; // summed over its ranges (empty: no launch)
  std::size_t ranges = 0;     // CUDA launches counted
  std::size_t dropped = 0;    // launches the image could not hold (then not counted)
  std::string reason;         // why not counted
};

class AutoRangeSession {
 public:
  explicit AutoRangeSession(std::unique_ptr<AutoRangeTarget> target, AutoRangeOptions options = {});
  ~AutoRangeSession();
  AutoRangeSession(const AutoRangeSession&) = delete;
  AutoRangeSession& operator=(const AutoRangeSession&) = delete;

  const AutoRangeSetup& setup() const { return setup_; }

  // Around one kernel. begin() returns false when this kernel cannot be counted (the
  // reason is in end()'s result); end() must follow every begin(), counted or not.
  bool begin();
  KernelCounts end();

  // Counting has ended for the run (gave_up_reason() says why): begin() returns false.
  bool gave_up() const { return !gave_up_reason_.empty(); }
  const std::string& gave_up_reason() const { return gave_up_reason_; }

  std::size_t setups() const { return setups_; }        // times the profiler was enabled
  std::size_t busy_retries() const { return busy_retries_; }

  // Disables the profiler (idempotent). Call while CUDA and CUPTI are still alive.
  void close() noexcept;

 private:
  void fail(const std::string& why, bool lasting);

  std::unique_ptr<AutoRangeTarget> target_;
  AutoRangeOptions options_;
  AutoRangeSetup setup_;
  bool enabled_ = false, started_ = false;
  std::string pending_reason_;  // this kernel's, when begin() returned false
  std::string gave_up_reason_;
  int failures_in_a_row_ = 0;
  std::size_t setups_ = 0, busy_retries_ = 0;
};

}  // namespace rooftop::counters
