#pragma once
// The host backend: runs kernels here, times each run with fences around it (run() is
// blocking), takes several samples, checks the answer after timing, and records the
// counts the kernel declares (an analytic model: CPUs here have no usable counters).

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "rooftop/analyze/backend.hpp"
#include "rooftop/core/progress.hpp"
#include "rooftop/kernels/kernel.hpp"

namespace rooftop::analyze {

struct HostTiming {
  int samples = 5;                 // at most
  double min_sample_seconds = 0.05;  // shorter runs are repeated inside one sample
  double budget_seconds = 6.0;     // per kernel: stop sampling past it (at least one sample)
  const std::atomic<bool>* cancel = nullptr;
};

// The time of one run of a prepared kernel, by the discipline every backend shares: the
// first run warms caches and pages and sizes the samples (a run shorter than
// min_sample_seconds is repeated inside one sample); a first run that alone lasts a
// quarter of the budget is a sample itself (its arrays were touched in prepare(), and
// cold caches cost nothing against seconds of work); sampling stops at `samples` or
// past the budget, after at least one sample.
struct RunTimes {
  std::vector<double> per_run;  // seconds of one run, one per sample
  std::int64_t runs_per_sample = 1;
};
RunTimes time_runs(Kernel& kernel, const HostTiming& timing);

// Throws rooftop::Interrupted once the timing's cancel flag is set.
void throw_if_cancelled(const HostTiming& timing);

class HostBackend final : public Backend {
 public:
  HostBackend(KernelList kernels, HostTiming timing, core::Progress progress = {});
  std::string name() const override { return "host"; }
  std::vector<ceilings::KernelRecord> collect(std::vector<std::string>& notes) override;

 private:
  KernelList kernels_;
  HostTiming timing_;
  core::Progress progress_;
};

}  // namespace rooftop::analyze
