#pragma once
// Device (GPU) ceilings: what the GPU is, the plan of kernels that characterize it, and
// measuring each one. Every measurement is a template on the execution space: the CUDA
// build runs it on Kokkos::Cuda, the tests run the same code under the host space at
// tiny sizes. Device levels are named by the kernel that targets them (l1, shared, l2,
// dram); their points carry the level in the pattern ("dram:triad").

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/microbench/pattern.hpp"
#include "rooftop/microbench/sweep.hpp"

namespace rooftop::microbench {

// Throws rooftop::Error with one line when this build has no GPU backend or `device`
// is not a usable GPU. Needs no Kokkos (call it before Kokkos starts).
void check_device(int device);

// The GPU Kokkos runs on: name, compute capability, SMs, threads per SM, L2, memory
// size, memory clock and bus width (cudaDeviceGetAttribute), driver and runtime
// versions; NVML, when it loads, adds the driver's version string and the nominal
// clocks. clock_ghz is left at 0 (measured later).
core::Machine describe_device();

// Bytes of device memory free now (0 in a build without a GPU backend).
std::uint64_t device_free_bytes();

// Launch shape and working sets of every device kernel.
struct DevicePlan {
  std::int64_t threads = 0;  // one full wave (compute, l1): Space().concurrency()
  int teams = 0;             // shared: teams of team_size threads, one wave
  int team_size = 0;
  // By precision (those of core::kPrecisions with ceilings): repetitions of the unrolled body.
  std::map<std::string, std::int64_t> compute_inner;
  std::int64_t l1_inner = 1;
  std::int64_t shared_inner = 1;
  std::uint64_t l2_bytes = 0;      // inside one L2 partition (L2 / 4)
  std::uint64_t l2_far_bytes = 0;  // across both partitions (0.8 x L2); never a ceiling
  std::int64_t l2_passes = 1;      // passes over the buffer in one launch
  std::uint64_t dram_bytes = 0;    // per array
  std::int64_t dram_passes = 1;
  std::vector<Pattern> dram_patterns;
  int samples = 5;
  core::Sampling sampling;
};

// The plan for `machine` (describe_device) with `threads` = the device space's
// concurrency; launches sized to last about 2 ms at the theoretical peak.
// `free_bytes` bounds the HBM arrays. `quick`: shorter samples, fewer patterns.
DevicePlan make_device_plan(const core::Machine& machine, std::int64_t threads,
                            std::uint64_t free_bytes, bool quick);

// One line per kernel: its policy, threads, per-thread work and working set.
std::string launch_geometry(const DevicePlan& plan);

// Single measurements. Each checks its answer after timing (throws rooftop::Error when
// wrong) and records the SM clock of every sample (ComputePoint/BandwidthPoint::clock_ghz).
template <class Space>
core::ComputePoint measure_device_compute_fma(const std::string& precision, std::int64_t threads,
                                              std::int64_t inner, const core::Sampling& sampling);
template <class Space>
core::ComputePoint measure_device_compute_nofma(const std::string& precision, std::int64_t threads,
                                                std::int64_t inner, const core::Sampling& sampling);
template <class Space>
core::BandwidthPoint measure_device_l1(std::int64_t threads, std::int64_t inner,
                                       const core::Sampling& sampling);
template <class Space>
core::BandwidthPoint measure_device_shared(int teams, int team_size, std::int64_t inner,
                                           const core::Sampling& sampling);
// level: "l2" (L1-bypassing loads), "l2-far" (the same across both partitions), or
// "dram"; pattern: read (any level), write, copy, triad (dram).
template <class Space>
core::BandwidthPoint measure_device_stream(const std::string& level, Pattern pattern,
                                           std::uint64_t bytes_per_array, std::int64_t passes,
                                           const core::Sampling& sampling);

// a * a + c with plain operators, in the fused (kernels of the FMA ceilings) or the
// unfused translation unit; see FusionProbe in device_kernels.hpp for the values.
template <class Space>
double fusion_probe_fused_unit(const std::string& precision);
template <class Space>
double fusion_probe_unfused_unit(const std::string& precision);

// The SM clock in GHz over `seconds` of the fp32 FMA kernel (also the warm-up that
// brings an idle GPU to its working clock); 1 on the host (see ClockProbe).
template <class Space>
double measure_device_clock_ghz(std::int64_t threads, std::int64_t inner, double seconds);

// Every kernel of the plan, in order; a clock warm-up first.
template <class Space>
core::Sweeps run_device_sweeps(const DevicePlan& plan, const Progress& progress);

}  // namespace rooftop::microbench
