#include "rooftop/analyze/host_backend.hpp"

#include <cstdint>

#include "rooftop/core/statistics.hpp"

namespace rooftop::analyze {

core::SampleSet time_runs(kernels::Kernel& kernel, const core::Sampling& sampling) {
  return core::sample(sampling, 1, [&kernel](std::int64_t runs) {
    for (std::int64_t r = 0; r < runs; ++r) kernel.run();
  });
}

void set_times(core::KernelRecord& record, const core::SampleSet& runs, const std::string& how) {
  const core::Summary s = core::summarize(runs.per_rep());
  record.time_s = s.median;
  record.time_min = s.min;
  record.time_max = s.max;
  record.samples = s.count;
  record.invocations = 1;
  record.time_source = how + ", median of " + std::to_string(s.count) +
                       (s.count == 1 ? " run" : " samples") +
                       (runs.reps > 1 ? " of " + std::to_string(runs.reps) + " runs" : "");
}

HostBackend::HostBackend(kernels::KernelList kernels, core::Sampling sampling,
                         core::Progress progress)
    : kernels_(std::move(kernels)), sampling_(sampling), progress_(std::move(progress)) {}

std::vector<core::KernelRecord> HostBackend::collect(std::vector<std::string>& notes) {
  std::vector<core::KernelRecord> out;
  for (std::size_t i = 0; i < kernels_.size(); ++i) {
    kernels::Kernel& kernel = *kernels_[i];
    core::KernelRecord record = kernel.declared();
    record.source = "declared";  // no counters here: the kernel's own cost model
    if (progress_) progress_(i, kernels_.size(), record.name);
    core::throw_if_cancelled(sampling_);
    kernel.prepare();

    const core::SampleSet runs = time_runs(kernel, sampling_);
    const std::string wrong = kernel.check();
    kernel.release();

    set_times(record, runs, "wall clock, fenced");
    record.check = wrong.empty() ? "passed" : "failed";
    if (!wrong.empty()) {
      record.note = "WRONG ANSWER: " + wrong;
      notes.push_back(record.name + ": wrong answer: " + wrong);
    }
    out.push_back(std::move(record));
  }
  if (progress_) progress_(kernels_.size(), kernels_.size(), "");
  return out;
}

}  // namespace rooftop::analyze
