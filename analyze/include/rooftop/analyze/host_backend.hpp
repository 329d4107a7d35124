#pragma once
// The host backend: runs kernels here, times each run with fences around it (run() is
// blocking), takes several samples, checks the answer after timing, and records the
// counts the kernel declares (an analytic model: CPUs here have no usable counters).

#include <string>
#include <vector>

#include "rooftop/analyze/backend.hpp"
#include "rooftop/core/progress.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/kernels/kernel.hpp"

namespace rooftop::analyze {

// How a backend that runs kernels samples each one (the one sampling loop,
// core/sampling.hpp): runs repeated inside a sample until it lasts 50 ms, at most 5
// samples, and none started that would end past 6 s of one kernel. A first run that alone
// lasts a quarter of that is a sample itself: its arrays were touched in prepare(), and
// cold caches cost nothing against seconds of work.
constexpr core::Sampling kKernelSampling{
    .samples = 5, .min_sample_seconds = 0.05, .budget_seconds = 6.0};
// On a GPU the same within 1.5 s of a kernel: its runs take milliseconds, the
// samples agree within a percent, and counting replays it again (cost_model.hpp).
constexpr core::Sampling kDeviceKernelSampling{
    .samples = 5, .min_sample_seconds = 0.05, .budget_seconds = 1.5};
// `analyze --once`: each kernel runs once, and that run is its time, so that a profiler
// outside the process (Nsight Compute) sees exactly one run of every kernel.
constexpr core::Sampling kOnceSampling{
    .samples = 1, .min_sample_seconds = 0.0, .budget_seconds = 0.0};

// The samples of a prepared kernel, one sample being `reps` runs back to back.
core::SampleSet time_runs(kernels::Kernel& kernel, const core::Sampling& sampling);

// A record's times from the samples of its runs: the median, min and max of one run,
// the count, and time_source, `how` they were taken then "median of 5 samples of 12 runs".
void set_times(core::KernelRecord& record, const core::SampleSet& runs, const std::string& how);

class HostBackend final : public Backend {
 public:
  HostBackend(kernels::KernelList kernels, core::Sampling sampling, core::Progress progress = {});
  std::string name() const override { return "host"; }
  std::vector<core::KernelRecord> collect(std::vector<std::string>& notes) override;

 private:
  kernels::KernelList kernels_;
  core::Sampling sampling_;
  core::Progress progress_;
};

}  // namespace rooftop::analyze
