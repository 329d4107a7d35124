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

#include "rooftop/ceilings/transfer_figures.hpp"
#include "rooftop/core/model.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/microbench/pattern.hpp"
#include "rooftop/microbench/sweep.hpp"

namespace rooftop::microbench {

// Throws rooftop::Error with one line when this build has no GPU backend, the driver
// is too old for the CUDA runtime the program was built with (driver_check), or
// `device` is not a usable GPU; writes one warning line to stderr when the driver is
// older only in its minor version. Needs no Kokkos (call it before Kokkos starts).
void check_device(int device);

// The driver's CUDA version against the runtime's (as CUDA encodes them: 1000 x major +
// 10 x minor; cudaDriverGetVersion, CUDART_VERSION). fatal: the runtime cannot work
// (no driver, or an older major version); otherwise a non-empty message is a warning
// (an older minor version works through CUDA's minor-version compatibility, but a
// kernel the driver must compile from PTX fails).
struct DriverCheck {
  bool fatal = false;
  std::string message;  // empty: the driver is new enough
};
DriverCheck driver_check(int driver_version, int runtime_version);

// A GPU's name as the file records it: under MIG the CUDA device is a slice of the GPU;
// its name gets " MIG" when the driver's does not say so already (NVML's MIG mode), so
// the ceilings can tell (ceilings::is_mig_slice).
std::string device_name(const std::string& cuda_name, bool mig_mode);

// The GPU Kokkos runs on: name, compute capability, SMs, threads per SM, L2, memory
// size, memory clock and bus width (cudaDeviceGetAttribute), driver and runtime
// versions; NVML, when it loads, adds the driver's version string and the nominal
// clocks. clock_ghz is left at 0 (measured later).
core::Machine describe_device();

// Bytes of device memory free now (0 in a build without a GPU backend).
std::uint64_t device_free_bytes();

// The link between the host and the GPU Kokkos runs on, from NVML (the Max and Curr
// PCIe link generation and width); interconnect "NVLink-C2C" on Grace Hopper and Grace
// Blackwell. Read it right after the transfer sweeps: an idle GPU drops its link's
// current generation. why_unknown says why nothing is known (no NVML, no GPU backend).
ceilings::PcieLink pcie_link();

// The per-SM and per-block limits the launch shapes are sized from (cudaDeviceProp:
// maxThreadsPerMultiProcessor, maxThreadsPerBlock, sharedMemPerMultiprocessor,
// sharedMemPerBlock, reservedSharedMemPerBlock). 2048 threads per SM on 8.0, 9.0,
// 10.0; 1536 on 8.6, 8.9, 12.0; 1024 on 7.5.
struct DeviceLimits {
  int threads_per_sm = 0;
  int threads_per_block = 0;
  std::uint64_t shared_per_sm = 0;
  std::uint64_t shared_per_block = 0;
  std::uint64_t reserved_shared_per_block = 0;  // the driver's own, per resident block
};
DeviceLimits device_limits();  // of the GPU Kokkos runs on

// The shared kernel's teams on one SM: kSharedTeamsPerSm where their scratch fits, fewer
// where it does not (never fewer than the kernel's launch bounds require), each of
// threads_per_sm / teams threads rounded down to whole warps. teams_per_sm = 0 when no
// shape fits (the step is then skipped, with why_not).
struct TeamShape {
  int teams_per_sm = 0;
  int team_size = 0;
  std::string why_not;
};
TeamShape shared_team_shape(const DeviceLimits& limits);

// Scaling a launch's repetitions (inner steps, or passes over a buffer) to a duration.
// The count the properties give is only a guess: an unknown compute capability, a
// nominal clock of 0 or a slow GPU would leave launches of microseconds, whose gaps the
// samples would time. scaled_repetitions: the count that makes a launch timed at
// `seconds` with `count` last `target` seconds; `count` itself when the launch lasted
// between half and four times the target (at most 1000 times more in one step).
std::int64_t scaled_repetitions(std::int64_t count, double seconds, double target);
// For a measurement: time launches (after an untimed one) and scale, up to four times,
// before sampling. `used` receives the count the samples ran with.
struct LaunchScaling {
  double launch_seconds = 0.0;
  std::int64_t used = 0;
};

// Launch shape and working sets of every device kernel.
struct DevicePlan {
  std::int64_t threads = 0;     // one full wave (compute): Space().concurrency()
  std::int64_t l1_threads = 0;  // one wave of the l1 kernel: kL1ThreadsPerSm per SM
  int teams = 0;                // shared: teams of team_size threads, one wave (0: skipped)
  int team_size = 0;
  std::string shared_skip;        // why the shared step cannot run on this GPU (teams == 0)
  double launch_seconds = 0.002;  // every count below is scaled to it (LaunchScaling)
  // The l2 and dram launches: longer, so that the last work items of a launch (a share of
  // the SMs idle while they finish) and the gap to the next launch cost little.
  double stream_launch_seconds = 0.01;
  // By precision (those of core::kPrecisions with ceilings): repetitions of the unrolled body.
  std::map<std::string, std::int64_t> compute_inner;
  std::int64_t l1_inner = 1;
  std::int64_t shared_inner = 1;
  // The l2 sweep, smallest first: L2 / 64 to L2 / 2 (copies of a set that small fit in
  // each partition); the ceiling is its best point. l2_passes: passes over the largest.
  std::vector<std::uint64_t> l2_sizes;
  std::uint64_t l2_far_bytes = 0;  // across both partitions (0.8 x L2); never a ceiling
  std::int64_t l2_passes = 1;
  std::uint64_t dram_bytes = 0;  // per array
  std::int64_t dram_passes = 1;
  std::vector<Pattern> dram_patterns;
  bool dram_prefetch_256 = true;  // dram-256b: the read with the L2 prefetch hint, beside it
  int samples = 5;
  core::Sampling sampling;
};

// The plan for `machine` (describe_device) with `threads` = the device space's
// concurrency and the GPU's `limits`; first guesses of the repetitions so that a launch
// lasts about 2 ms at the theoretical peak (each measurement then scales them to 2 ms
// from a timed launch). `free_bytes` bounds the HBM arrays. `quick`: shorter samples,
// fewer patterns.
DevicePlan make_device_plan(const core::Machine& machine, const DeviceLimits& limits,
                            std::int64_t threads, std::uint64_t free_bytes, bool quick);

// One line per kernel: its policy, threads, per-thread work and working set.
std::string launch_geometry(const DevicePlan& plan);

// Single measurements. Each checks its answer after timing (throws rooftop::Error when
// wrong) and records the SM clock of every sample (ComputePoint/BandwidthPoint::clock_ghz).
// `inner` (`passes`) is used as given, or, with `scaling`, is the first guess of a count
// scaled to scaling->launch_seconds.
template <class Space>
core::ComputePoint measure_device_compute_fma(const std::string& precision, std::int64_t threads,
                                              std::int64_t inner, const core::Sampling& sampling,
                                              LaunchScaling* scaling = nullptr);
template <class Space>
core::ComputePoint measure_device_compute_nofma(const std::string& precision, std::int64_t threads,
                                                std::int64_t inner, const core::Sampling& sampling,
                                                LaunchScaling* scaling = nullptr);
template <class Space>
core::BandwidthPoint measure_device_l1(std::int64_t threads, std::int64_t inner,
                                       const core::Sampling& sampling,
                                       LaunchScaling* scaling = nullptr);
template <class Space>
core::BandwidthPoint measure_device_shared(int teams, int team_size, std::int64_t inner,
                                           const core::Sampling& sampling,
                                           LaunchScaling* scaling = nullptr);
// level: "l2" (L1-bypassing loads), "l2-far" (the same across both partitions), "dram",
// or "dram-256b" (dram's read with L1::no_allocate and the L2's 256-byte prefetch hint);
// pattern: read (any level), write, copy, triad (dram).
template <class Space>
core::BandwidthPoint measure_device_stream(const std::string& level, Pattern pattern,
                                           std::uint64_t bytes_per_array, std::int64_t passes,
                                           const core::Sampling& sampling,
                                           LaunchScaling* scaling = nullptr);

// a * a + c with plain operators, in the fused (kernels of the FMA ceilings) or the
// unfused translation unit; see FusionProbe in device/kernels.hpp for the values.
template <class Space>
double fusion_probe_fused_unit(const std::string& precision);
template <class Space>
double fusion_probe_unfused_unit(const std::string& precision);

// The SM clock in GHz over `seconds` of the fp32 FMA kernel (also the warm-up that
// brings an idle GPU to its working clock); 1 on the host (see ClockProbe).
template <class Space>
double measure_device_clock_ghz(std::int64_t threads, std::int64_t inner, double seconds,
                                LaunchScaling* scaling = nullptr);

// Every kernel of the plan, in order; a clock warm-up first. The plan's repetition counts
// become those the samples ran with. With `skipped`, a step that fails (a launch the GPU
// refuses, a wrong result) is recorded there with its reason ("shared: ...") and the
// others still run; without it, the failure is thrown. An interruption is always thrown.
template <class Space>
core::Sweeps run_device_sweeps(DevicePlan& plan, const Progress& progress,
                               std::vector<std::string>* skipped = nullptr);

}  // namespace rooftop::microbench
