#pragma once
// What analyzing a list of kernels costs, said before it starts. Per kernel:
//
//   seconds = set-up + timed runs x run time + (replay passes x run time + counting set-up)
//
// The timed runs are what core::sample takes: samples of at least min_sample_seconds,
// the calibration launch one of them or one more, within the sampling budget, and always
// one run. Counting replays one run of the kernel once per pass (CUPTI's user replay).
// The set-up fills the kernel's arrays (and copies them to the GPU) and checks its
// answer: the memory it holds at a rate. The run time is not known before a kernel runs:
// it is estimated from the kernel's declared counts on the ceilings, between its roof and
// the lowest fraction of its roof that kernels were seen to reach (RunModel). The whole
// adds the program's own start and end (Kokkos, reading and writing the files).

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

// How far the time of analyzing a kernel strays from its roof, on one kind of machine.
struct RunModel {
  // The slowest run seen, as a fraction of its roof (declared counts on the ceilings).
  double lowest_fraction = 0.0;
  // The set-up, as bytes held (the declared DRAM bytes) per second: fastest and slowest.
  double setup_fast_bytes_per_second = 0.0;
  double setup_slow_bytes_per_second = 0.0;
  // The program's start and end: at most.
  double start_seconds = 0.0;
};

// CPUs. GPP's versions with a complex divide and a branch (v1 to v6) run far below the
// FP64 FMA roof: 0.047 to 0.063 of it on a 2-vCPU Zen 4 guest (2026-11-29, size small),
// and the whole ladder was reported 1.96x slower on a Zen 3 guest the same day (110 s
// against 56 s), so about 0.025 there. Set-up: 0.1 GB in about 0.05 s (2 GB/s) on the Zen 4 guest.
inline constexpr RunModel kHostRunModel{.lowest_fraction = 0.02,
                                        .setup_fast_bytes_per_second = 8e9,
                                        .setup_slow_bytes_per_second = 0.5e9,
                                        .start_seconds = 3.0};
// GPUs. GPP on an H200 (2026-11-27, declared counts): 0.076 to 0.50 of the roof at size
// small, 0.095 to 0.32 at classic; classic took 39 s for 9 kernels whose timed runs take
// about 13.5 s, so each kernel's 2.3 GB cost about 2.7 s to prepare and check (0.85 GB/s).
inline constexpr RunModel kDeviceRunModel{.lowest_fraction = 0.05,
                                          .setup_fast_bytes_per_second = 4e9,
                                          .setup_slow_bytes_per_second = 0.4e9,
                                          .start_seconds = 5.0};

// The sampling loop's calibration launch: a sample of its own (kept, the fewest launches)
// or one launch more (apart, the most).
enum class Calibration { kept, apart };

// Seconds of the timed runs of a kernel whose one run takes `run_seconds`.
double timed_seconds(double run_seconds, const core::Sampling& sampling,
                     Calibration calibration = Calibration::apart);

// Seconds of one kernel's runs: timing, then counting (no set-up).
double kernel_seconds(double run_seconds, const core::Sampling& sampling, const Counting& counting,
                      Calibration calibration = Calibration::apart);

// A kernel's run time at its roof, from its declared counts on `ceilings`; 0 where no
// roof applies (no compute ceiling for its precision and no bandwidth for its bytes).
double roof_seconds(const core::KernelRecord& declared, const core::CeilingsFile& ceilings);

// The memory a kernel holds while it runs: its declared DRAM bytes of one launch (a
// kernel launched once per frequency reads its arrays again each time; 0 where none).
double held_bytes(const core::KernelRecord& declared);

struct Estimate {
  double low_seconds = 0.0;   // every kernel at its roof, calibration kept, the fastest set-up
  double high_seconds = 0.0;  // every kernel at the model's lowest fraction, the slowest set-up
  std::string text;           // one line: the range and the model
};
Estimate estimate(const std::vector<core::KernelRecord>& declared,
                  const core::CeilingsFile& ceilings, const core::Sampling& sampling,
                  const Counting& counting, const RunModel& model);

}  // namespace rooftop::analyze
