#pragma once
// The access-pattern costs a GPU course teaches, measured: coalescing (strided reads from
// L2 and DRAM, a matrix read along its rows or down its columns), latency hiding (DRAM
// reads against resident warps per SM, or host threads) and warp divergence (FP32 FMAs
// with 1 ... 32 active lanes). Each point is a core::SweepPoint of a row of
// core::kSweeps; ceilings::access_figures draws the figures from them.

#include <cstdint>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/core/progress.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/microbench/device.hpp"

namespace rooftop::microbench {

// One residency of the occupancy sweep: teams of team_size threads, teams_per_sm of them
// on every SM (a league of SMs x teams_per_sm: one wave).
struct Residency {
  int warps_per_sm = 0;  // the sweep's x
  int teams_per_sm = 0;
  int team_size = 0;
};

struct DeviceAccessPlan {
  int sms = 1;
  std::vector<int> strides;          // stride:l2, stride:dram (words of 4 bytes)
  std::uint64_t l2_bytes = 0;        // stride:l2 footprint (inside one L2 partition)
  std::uint64_t dram_bytes = 0;      // stride:dram and occupancy:dram footprint
  std::vector<std::int64_t> sides;   // rows:dram, columns:dram (multiples of 128)
  std::vector<Residency> residencies;
  std::int64_t threads = 0;          // divergence: one full wave (Space().concurrency())
  std::vector<int> lanes;            // divergence:fp32 active lanes
  std::int64_t l2_passes = 1;        // first guesses, scaled to launch_seconds
  std::int64_t divergence_inner = 1;
  double launch_seconds = 0.002;
  core::Sampling sampling;
};

// For the GPU `machine` (describe_device) with `limits`, `threads` = the device space's
// concurrency and `free_bytes` of device memory. `quick`: fewer points, shorter samples.
DeviceAccessPlan make_device_access_plan(const core::Machine& machine, const DeviceLimits& limits,
                                         std::int64_t threads, std::uint64_t free_bytes,
                                         bool quick);

// One line per kernel of the plan (policy, threads, loads, footprints), for
// core::Machine::launch_geometry beside launch_geometry(DevicePlan).
std::string access_launch_geometry(const DeviceAccessPlan& plan);

// Every sweep of the plan (stride:l2, stride:dram, rows:dram, columns:dram, occupancy:dram,
// divergence:fp32), each point's answer checked after timing and its SM clock recorded
// per sample. With `skipped`, a sweep that fails is recorded there ("stride:dram: ...")
// and the others still run; without it, the failure is thrown. An interruption is always
// thrown.
template <class Space>
std::vector<core::SweepPoint> run_device_access_costs(const DeviceAccessPlan& plan,
                                                      const Progress& progress,
                                                      std::vector<std::string>* skipped = nullptr);

struct HostAccessPlan {
  std::vector<int> strides;          // stride:l2, stride:dram (words of 8 bytes)
  std::uint64_t l2_bytes = 0;        // stride:l2 footprint, all threads
  std::uint64_t dram_bytes = 0;      // stride:dram and threads:dram footprint
  std::vector<std::int64_t> sides;   // rows:dram, columns:dram (multiples of 8)
  std::vector<int> thread_counts;    // threads:dram
  core::Sampling sampling;           // set watch to record disturbance
};

// For the host `machine` (describe_host: caches, threads) and `quick`.
HostAccessPlan make_host_access_plan(const core::Machine& machine, bool quick);

// stride:l2, stride:dram, rows:dram, columns:dram and threads:dram on the host space; a
// wrong answer throws rooftop::Error.
template <class Space>
std::vector<core::SweepPoint> run_host_access_costs(const HostAccessPlan& plan,
                                                    const Progress& progress);

}  // namespace rooftop::microbench
