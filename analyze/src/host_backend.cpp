#include "rooftop/analyze/host_backend.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "rooftop/core/error.hpp"
#include "rooftop/core/statistics.hpp"

namespace rooftop::analyze {
namespace {

double seconds_of(Kernel& kernel, std::int64_t runs) {
  const auto t0 = std::chrono::steady_clock::now();
  for (std::int64_t r = 0; r < runs; ++r) kernel.run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

void throw_if_cancelled(const HostTiming& t) {
  if (t.cancel && t.cancel->load()) throw Interrupted();
}

RunTimes time_runs(Kernel& kernel, const HostTiming& timing) {
  RunTimes out;
  const double first = seconds_of(kernel, 1);
  out.runs_per_sample = std::max<std::int64_t>(
      1, static_cast<std::int64_t>(std::ceil(timing.min_sample_seconds / std::max(first, 1e-9))));
  const double runs = static_cast<double>(out.runs_per_sample);
  double spent = first;
  if (first >= timing.budget_seconds / 4) out.per_run.push_back(first);
  while (static_cast<int>(out.per_run.size()) < timing.samples &&
         (out.per_run.empty() || spent + first * runs <= timing.budget_seconds)) {
    throw_if_cancelled(timing);
    const double t = seconds_of(kernel, out.runs_per_sample);
    spent += t;
    out.per_run.push_back(t / runs);
  }
  return out;
}

HostBackend::HostBackend(KernelList kernels, HostTiming timing, core::Progress progress)
    : kernels_(std::move(kernels)), timing_(timing), progress_(std::move(progress)) {}

std::vector<ceilings::KernelRecord> HostBackend::collect(std::vector<std::string>& notes) {
  std::vector<ceilings::KernelRecord> out;
  for (std::size_t i = 0; i < kernels_.size(); ++i) {
    Kernel& kernel = *kernels_[i];
    ceilings::KernelRecord record = kernel.declared();
    record.source = "declared";  // no counters here: the kernel's own cost model
    if (progress_) progress_(i, kernels_.size(), record.name);
    throw_if_cancelled(timing_);
    kernel.prepare();

    const RunTimes times = time_runs(kernel, timing_);
    const std::vector<double>& per_run = times.per_run;
    const std::int64_t runs = times.runs_per_sample;
    const std::string wrong = kernel.check();
    kernel.release();

    const ceilings::Summary s = ceilings::summarize(per_run);
    record.time_s = s.median;
    record.time_min = s.min;
    record.time_max = s.max;
    record.samples = static_cast<int>(per_run.size());
    record.invocations = 1;
    record.time_source = "wall clock, fenced, median of " + std::to_string(per_run.size()) +
                         (per_run.size() == 1 ? " run" : " samples") +
                         (runs > 1 ? " of " + std::to_string(runs) + " runs" : "");
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
