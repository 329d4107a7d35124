// The cupti backend (CUDA build with CUPTI only): see rooftop/analyze/cupti_backend.hpp.

#include "rooftop/analyze/cupti_backend.hpp"

#include <cuda_runtime.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

#include "rooftop/connector/kernel_tracker.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/counters/cupti_range.hpp"
#include "rooftop/counters/metrics.hpp"

namespace rooftop::analyze {
namespace {

using connector::KernelKind;
using connector::KernelTracker;

// In-process Kokkos Tools callbacks: the labels a run launches. Active only while no
// tool library is loaded (its callbacks are not ours to replace).
KernelTracker* label_tracker = nullptr;

void begin_for(const char* name, const std::uint32_t device, std::uint64_t* id) {
  *id = label_tracker ? label_tracker->begin(name, device, KernelKind::parallel_for) : 0;
}
void begin_reduce(const char* name, const std::uint32_t device, std::uint64_t* id) {
  *id = label_tracker ? label_tracker->begin(name, device, KernelKind::parallel_reduce) : 0;
}
void begin_scan(const char* name, const std::uint32_t device, std::uint64_t* id) {
  *id = label_tracker ? label_tracker->begin(name, device, KernelKind::parallel_scan) : 0;
}
void end_kernel(const std::uint64_t id) {
  if (label_tracker) label_tracker->end(id);
}

// Points the kernel callbacks at `tracker`, or removes them (nullptr).
void set_label_callbacks(KernelTracker* tracker) {
  namespace kt = Kokkos::Tools::Experimental;
  const bool on = tracker != nullptr;
  if (on) label_tracker = tracker;
  kt::set_begin_parallel_for_callback(on ? begin_for : nullptr);
  kt::set_end_parallel_for_callback(on ? end_kernel : nullptr);
  kt::set_begin_parallel_reduce_callback(on ? begin_reduce : nullptr);
  kt::set_end_parallel_reduce_callback(on ? end_kernel : nullptr);
  kt::set_begin_parallel_scan_callback(on ? begin_scan : nullptr);
  kt::set_end_parallel_scan_callback(on ? end_kernel : nullptr);
  if (!on) label_tracker = nullptr;
}

class LabelCapture {
 public:
  explicit LabelCapture(KernelTracker& tracker) : active_(!Kokkos::Tools::profileLibraryLoaded()) {
    if (active_) set_label_callbacks(&tracker);
  }
  ~LabelCapture() {
    if (active_) set_label_callbacks(nullptr);
  }
  LabelCapture(const LabelCapture&) = delete;
  LabelCapture& operator=(const LabelCapture&) = delete;
  bool active() const { return active_; }

 private:
  bool active_;
};

std::string labels_text(const KernelTracker& tracker) {
  std::string s;
  for (const connector::LabelStats& l : tracker.snapshot())
    s += (s.empty() ? "" : ", ") + l.label + " x" + std::to_string(l.invocations);
  return s;
}

std::string number(double v) { return core::format_number("%.4g", v); }

void require_gpu() {
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess)
    throw Error(std::string("no usable CUDA GPU (cudaGetDeviceCount: ") + cudaGetErrorName(e) +
                ": " + cudaGetErrorString(e) + ")");
  if (devices == 0) throw Error("no CUDA GPU visible (cudaGetDeviceCount found none)");
  int driver = 0;
  if (cudaDriverGetVersion(&driver) == cudaSuccess)
    if (std::string why = counters::cupti::driver_too_old(driver, CUDART_VERSION); !why.empty())
      throw Error(why);
}

// The seconds since `start`.
double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

class CuptiBackend final : public Backend {
 public:
  CuptiBackend(kernels::KernelList kernels, core::Sampling sampling, core::Progress progress,
               double kernel_budget_seconds)
      : kernels_(std::move(kernels)),
        sampling_(sampling),
        progress_(std::move(progress)),
        kernel_budget_(kernel_budget_seconds) {}

  std::string name() const override { return "cupti"; }

  Counting counting() override { return {profiler().passes(), kCuptiSetupSeconds}; }

  std::vector<core::KernelRecord> collect(std::vector<std::string>& notes) override {
    counters::cupti::RangeProfiler& profiler = this->profiler();
    std::string setup = "cupti: " + profiler.chip() + ", " +
                        std::to_string(profiler.metrics().size()) + " metrics in " +
                        std::to_string(profiler.passes()) +
                        " replay passes per kernel run (user ranges, user replay)";
    notes.push_back(setup);
    for (const counters::cupti::SkippedMetric& m : profiler.skipped())
      notes.push_back("cupti: " + m.name + " not collected: " + m.reason);

    std::vector<core::KernelRecord> out;
    const std::size_t n = kernels_.size();
    for (std::size_t i = 0; i < n; ++i) {
      kernels::Kernel& kernel = *kernels_[i];
      core::KernelRecord record = kernel.declared();
      const core::KernelRecord declared = record;
      const auto start = std::chrono::steady_clock::now();
      if (progress_) progress_(i, n, record.name + ": timed runs");
      core::throw_if_cancelled(sampling_);
      kernel.prepare();
      const core::SampleSet runs = time_runs(kernel, sampling_);  // un-instrumented
      set_times(record, runs, "wall clock, fenced, un-instrumented");

      // Counting replays one run a pass: none that would end past the kernel's budget.
      const double counting = static_cast<double>(profiler.passes()) * record.time_s;
      if (since(start) + counting > kernel_budget_) {
        const std::string why =
            "over its " + number(kernel_budget_) + " s budget: one run takes " +
            number(record.time_s) + " s, counting needs " + std::to_string(profiler.passes()) +
            " replay passes (" + number(counting) + " s) after " + number(since(start)) +
            " s of timed runs; not counted, the declared counts are kept";
        if (progress_) progress_(i, n, record.name + ": " + why);
        notes.push_back(record.name + ": " + why);
        const std::string wrong = kernel.check();
        kernel.release();
        record.source = "declared";
        record.note = why;
        mark_check(record, wrong, notes);
        out.push_back(std::move(record));
        continue;
      }
      if (progress_)
        progress_(i, n, record.name + ": counting, " + std::to_string(profiler.passes()) +
                            " replay passes of one run");

      // One range per run, repeated once per pass; the labels are taken in the first.
      KernelTracker labels;
      std::size_t pass = 0;
      bool captured = false;
      const counters::cupti::Collection c = profiler.collect_user_range(record.name, [&] {
        if (pass++ == 0) {
          LabelCapture capture(labels);
          captured = capture.active();
          kernel.run();
        } else {
          kernel.run();
        }
      });
      const std::string wrong = kernel.check();
      kernel.release();

      record.source = "cupti";
      record.note.clear();
      const counters::cupti::Evaluation e = counters::cupti::evaluate(c.values);
      counters::cupti::apply_counts(e, record);
      if (record.precision.empty()) record.precision = declared.precision;
      std::string extra = std::to_string(c.passes) + " replay passes";
      if (c.dropped_ranges > 0)
        extra += ", " + std::to_string(c.dropped_ranges) + " ranges dropped";
      extra += "; declared " + number(declared.flops()) + " FLOPs";
      if (captured) extra += "; " + std::string(kKernelsPerRunNote) + labels_text(labels);
      record.note = extra + (record.note.empty() ? "" : "; " + record.note);
      mark_check(record, wrong, notes);
      out.push_back(std::move(record));
    }
    if (progress_) progress_(n, n, "");
    return out;
  }

 private:
  counters::cupti::RangeProfiler& profiler() {
    if (!profiler_) {
      require_gpu();
      profiler_.emplace();
    }
    return *profiler_;
  }

  static void mark_check(core::KernelRecord& record, const std::string& wrong,
                         std::vector<std::string>& notes) {
    record.check = wrong.empty() ? "passed" : "failed";
    if (wrong.empty()) return;
    record.note = "WRONG ANSWER: " + wrong + "; " + record.note;
    notes.push_back(record.name + ": wrong answer: " + wrong);
  }

  kernels::KernelList kernels_;
  core::Sampling sampling_;
  core::Progress progress_;
  double kernel_budget_;
  std::optional<counters::cupti::RangeProfiler> profiler_;
};

}  // namespace

std::string cupti_backend_unavailable_reason() { return ""; }

std::unique_ptr<Backend> make_cupti_backend(kernels::KernelList kernels, core::Sampling sampling,
                                            core::Progress progress, double kernel_budget_seconds) {
  return std::make_unique<CuptiBackend>(std::move(kernels), sampling, std::move(progress),
                                        kernel_budget_seconds);
}

}  // namespace rooftop::analyze
