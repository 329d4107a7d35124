// The cupti backend (CUDA build with CUPTI only): see rooftop/analyze/cupti_backend.hpp.

#include "rooftop/analyze/cupti_backend.hpp"

#include <cuda_runtime.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

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

class LabelCapture {
 public:
  explicit LabelCapture(KernelTracker& tracker) : active_(!Kokkos::Tools::profileLibraryLoaded()) {
    if (!active_) return;
    namespace kt = Kokkos::Tools::Experimental;
    label_tracker = &tracker;
    kt::set_begin_parallel_for_callback(begin_for);
    kt::set_end_parallel_for_callback(end_kernel);
    kt::set_begin_parallel_reduce_callback(begin_reduce);
    kt::set_end_parallel_reduce_callback(end_kernel);
    kt::set_begin_parallel_scan_callback(begin_scan);
    kt::set_end_parallel_scan_callback(end_kernel);
  }
  ~LabelCapture() {
    if (!active_) return;
    namespace kt = Kokkos::Tools::Experimental;
    kt::set_begin_parallel_for_callback(nullptr);
    kt::set_end_parallel_for_callback(nullptr);
    kt::set_begin_parallel_reduce_callback(nullptr);
    kt::set_end_parallel_reduce_callback(nullptr);
    kt::set_begin_parallel_scan_callback(nullptr);
    kt::set_end_parallel_scan_callback(nullptr);
    label_tracker = nullptr;
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

class CuptiBackend final : public Backend {
 public:
  CuptiBackend(kernels::KernelList kernels, core::Sampling sampling, core::Progress progress)
      : kernels_(std::move(kernels)), sampling_(sampling), progress_(std::move(progress)) {}

  std::string name() const override { return "cupti"; }

  std::vector<core::KernelRecord> collect(std::vector<std::string>& notes) override {
    require_gpu();
    counters::cupti::RangeProfiler profiler;
    std::string setup = "cupti: " + profiler.chip() + ", " +
                        std::to_string(profiler.metrics().size()) + " metrics in " +
                        std::to_string(profiler.passes()) +
                        " replay passes per kernel run (user ranges, user replay)";
    notes.push_back(setup);
    for (const counters::cupti::SkippedMetric& m : profiler.skipped())
      notes.push_back("cupti: " + m.name + " not collected: " + m.reason);

    std::vector<core::KernelRecord> out;
    for (std::size_t i = 0; i < kernels_.size(); ++i) {
      kernels::Kernel& kernel = *kernels_[i];
      core::KernelRecord record = kernel.declared();
      const core::KernelRecord declared = record;
      if (progress_) progress_(i, kernels_.size(), record.name);
      core::throw_if_cancelled(sampling_);
      kernel.prepare();

      const core::SampleSet runs = time_runs(kernel, sampling_);  // un-instrumented

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
      set_times(record, runs, "wall clock, fenced, un-instrumented");
      std::string extra = std::to_string(c.passes) + " replay passes";
      if (c.dropped_ranges > 0)
        extra += ", " + std::to_string(c.dropped_ranges) + " ranges dropped";
      extra += "; declared " + number(declared.flops()) + " FLOPs";
      if (captured) extra += "; " + std::string(kKernelsPerRunNote) + labels_text(labels);
      record.note = extra + (record.note.empty() ? "" : "; " + record.note);
      record.check = wrong.empty() ? "passed" : "failed";
      if (!wrong.empty()) {
        record.note = "WRONG ANSWER: " + wrong + "; " + record.note;
        notes.push_back(record.name + ": wrong answer: " + wrong);
      }
      out.push_back(std::move(record));
    }
    if (progress_) progress_(kernels_.size(), kernels_.size(), "");
    return out;
  }

 private:
  kernels::KernelList kernels_;
  core::Sampling sampling_;
  core::Progress progress_;
};

}  // namespace

std::string cupti_backend_unavailable_reason() { return ""; }

std::unique_ptr<Backend> make_cupti_backend(kernels::KernelList kernels, core::Sampling sampling,
                                            core::Progress progress) {
  return std::make_unique<CuptiBackend>(std::move(kernels), sampling, std::move(progress));
}

}  // namespace rooftop::analyze
