#pragma once
// The sweep driver: which points to measure (the plan) and measuring them all.

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/core/progress.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/microbench/measure.hpp"
#include "rooftop/microbench/pattern.hpp"

namespace rooftop::microbench {

struct ComputeRun {
  std::string precision;  // "fp64", "fp32"
  bool fma = true;
  int flops_per_element = 1;
  int ilp = kDefaultIlp;
  std::uint64_t working_set_bytes = 0;
  int samples = 0;  // 0: the plan's
};

struct BandwidthRun {
  Pattern pattern = Pattern::read;
  std::uint64_t working_set_bytes = 0;
};

struct SweepPlan {
  std::vector<ComputeRun> compute;
  std::vector<BandwidthRun> bandwidth;
  core::Sampling sampling;
  // Re-measurement passes spread through the bandwidth sweep (the last at its end): each
  // measures again the point behind every ceiling known so far (ceilings::ceiling_sources
  // on `machine`'s level windows) and adds it as a point of its own. A ceiling then has
  // several chances seconds apart, and on a shared machine a neighbour busy during one
  // of them no longer sets it. 0: none.
  int confirm_passes = 0;
  core::Machine machine;
  // Called before each re-measurement pass; the host measure reads the clock there, so
  // the theoretical peak sees the clock of the moments the ceilings come from.
  std::function<void()> before_confirm_pass;
  // Read around every compute sample (core::Sampling::clock): each compute ceiling's peak is then
  // taken at the clock its own samples ran at. Unset: the points carry no clock.
  double (*compute_clock)() = nullptr;
};

// `measure --quick` measures DRAM at working sets of at most this size: a guest that
// reports its host's whole L3 (480 MiB seen) would otherwise sweep gigabytes. Where the
// bound falls short of the DRAM window, the ceiling's note says so (ceilings/extract).
inline constexpr std::uint64_t kQuickDramBytes = std::uint64_t{1} << 30;

// The default plan for a machine: compute ceilings at 1024 FLOPs per element on a
// cache-resident array; the FLOPs-per-element roofline trace (1 ... 1024) on a
// DRAM-resident array; a working-set sweep from 4 KiB to 16x the last-level cache with
// every pattern, plus one point in the middle of each level's window. `quick` trims
// patterns, points and sample length for a run of a few seconds, and bounds the DRAM
// working sets at 1 GiB (the DRAM ceiling's note says where that is short of a full run's).
SweepPlan make_plan(const core::Machine& machine, bool quick);

using core::Progress;

template <class Space>
core::Sweeps run_sweeps(const SweepPlan& plan, const Progress& progress);

}  // namespace rooftop::microbench
