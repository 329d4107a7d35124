#pragma once
// What analyzing a list of kernels costs, said before it starts. Per kernel:
//
//   seconds = timed runs x run time + (replay passes x run time + set-up, where counted)
//
// The timed runs are what core::sample takes: samples of at least min_sample_seconds,
// one more for calibration, within the sampling budget, and always one run. Counting
// replays one run of the kernel once per pass (CUPTI's user replay). The run time is
// not known before a kernel runs: it is estimated from the kernel's declared counts on
// the ceilings, at its roof (the low end) and at a tenth of it (GPP's versions reached
// 0.08 to 0.30 of their roofs by declared counts on an H200).

#include <string>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/core/sampling.hpp"

namespace rooftop::analyze {

struct Counting {
  std::size_t passes = 0;      // replay passes a kernel run; 0: not counted
  double setup_seconds = 0.0;  // a counted kernel's own set-up (profiler enable, decode)
};

// The set-up CUPTI's Range Profiler cost a kernel on an H200 (2026-11-27: 9 GPP versions
// at size small took 20 s counted, 3 s not, with 8 passes of runs of 6 to 23 ms).
inline constexpr double kCuptiSetupSeconds = 1.8;

// Seconds of the timed runs of a kernel whose one run takes `run_seconds`.
double timed_seconds(double run_seconds, const core::Sampling& sampling);

// Seconds of one kernel: timing, then counting.
double kernel_seconds(double run_seconds, const core::Sampling& sampling, const Counting& counting);

// A kernel's run time at its roof, from its declared counts on `ceilings`; 0 where no
// roof applies (no compute ceiling for its precision and no bandwidth for its bytes).
double roof_seconds(const core::KernelRecord& declared, const core::CeilingsFile& ceilings);

struct Estimate {
  double low_seconds = 0.0;   // every kernel at its roof
  double high_seconds = 0.0;  // every kernel at a tenth of its roof
  std::string text;           // one line: the range and the model
};
Estimate estimate(const std::vector<core::KernelRecord>& declared,
                  const core::CeilingsFile& ceilings, const core::Sampling& sampling,
                  const Counting& counting);

}  // namespace rooftop::analyze
