#pragma once
// The figures of the transfer and launch sweeps (schema 1.7, group "costs"): pure
// functions of the sweep points and of the link the driver reports, so that they are
// tested on synthetic points and rerun on a file's stored sweeps.
//
//   h2d, d2h, d2d    the best median rate among the copies of kLargeCopyBytes or more
//   h2d_latency,     the intercept of t = latency + bytes / bandwidth fitted to the pinned
//   d2h_latency      sweep's medians (relative residuals: each size weighs the same)
//   launch_latency   launch:sync at its smallest kernel (launch to completion, fenced)
//   launch_interval  launch at its smallest kernel (back to back, one fence per sample)
//   fence            a fence with nothing outstanding
//   launch_breakeven launch:sync where it reaches twice the empty kernel's

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

// The link between host and GPU as the driver reports it. generation and width: what
// the link can run at (NVML's Max variants: the lower of the GPU's and the slot's);
// current_*: what it ran at when read (an idle GPU drops its link to a lower
// generation). interconnect "NVLink-C2C" (Grace Hopper, Grace Blackwell): no PCIe
// rate applies. why_unknown: why nothing is known (generation 0).
struct PcieLink {
  int generation = 0, width = 0;
  int current_generation = 0, current_width = 0;
  std::string interconnect = "PCIe";
  std::string why_unknown;
};

// "PCIe 5.0 x16"; "NVLink-C2C"; empty when unknown.
std::string link_name(const PcieLink& link);

// Bytes per second one direction of a PCIe link carries after line encoding, in GB/s
// (10^9 B/s); empty for a generation the table does not know or a width of 0. TLP and
// DLLP headers are not subtracted, so a copy stays below it.
std::optional<double> pcie_gbps(int generation, int width);

// Copies at least this large make the transfer figures: below it the latency of a
// PCIe copy (microseconds) is a visible share of its time.
inline constexpr double kLargeCopyBytes = 1024.0 * 1024.0;

// t = latency + bytes / bandwidth, fitted by least squares to (bytes, seconds) pairs.
// Relative residuals ((t_fit - t) / t) weigh a 4 KiB copy as much as a 1 GiB one:
// plain residuals would leave the intercept to the noise of the largest copies.
struct LatencyFit {
  double latency_s = 0.0;
  double bandwidth_gbps = 0.0;  // 10^9 B/s
  double min_bytes = 0.0, max_bytes = 0.0;
  int points = 0;
};
// Empty with fewer than two distinct sizes, a non-positive time, or a fit whose
// latency or bandwidth is not positive (the model does not describe the points).
std::optional<LatencyFit> fit_latency(const std::vector<double>& bytes,
                                      const std::vector<double>& seconds);

// Where a kernel's launch-to-completion time reaches `factor` times the smallest
// kernel's: its own run time then equals `factor - 1` launch latencies. Interpolated
// linearly in (log items, time) between the two measured sizes around it.
struct Breakeven {
  double items = 0.0;  // work items per kernel
  double time = 0.0;   // launch to completion there (factor x the smallest's), in `times`' units
  double below = 0.0, above = 0.0;  // the measured sizes around it
};
// launch_breakeven's factor: the kernel's own run time equals the empty kernel's launch
// to completion.
inline constexpr double kBreakevenFactor = 2.0;
// `items` ascending with their median times; empty when no size reaches the factor.
std::optional<Breakeven> launch_breakeven(const std::vector<double>& items,
                                          const std::vector<double>& times,
                                          double factor = kBreakevenFactor);

// h2d, d2h, d2d and the two latencies, from the sweeps h2d:pinned, d2h:pinned, d2d
// (others are ignored). A figure whose sweep is missing or cannot make it is left out,
// with the reason in `skipped`. h2d and d2h get `link`'s rate as their theoretical
// where it is a known PCIe link.
std::vector<core::Ceiling> transfer_figures(const std::vector<core::SweepPoint>& sweeps,
                                            const PcieLink& link,
                                            std::vector<std::string>* skipped = nullptr);

// launch_latency, launch_interval, fence and launch_breakeven from the sweeps
// launch:sync, launch and fence; `where` names what launched ("GPU", "host
// (OpenMP)") in the notes.
std::vector<core::Ceiling> launch_figures(const std::vector<core::SweepPoint>& sweeps,
                                          const std::string& where,
                                          std::vector<std::string>* skipped = nullptr);

}  // namespace rooftop::ceilings
