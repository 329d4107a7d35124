#pragma once
// What moving data to and from a GPU and starting a kernel cost (schema 1.7, group
// "costs"): copies between host and device memory swept by size, and launches swept by
// kernel size. Templates on the execution space, like the device ceilings: the CUDA
// build runs them on Kokkos::Cuda; under the host space the "device" memory is host
// memory (a copy is a memcpy) and a launch is Kokkos's parallel dispatch on the host
// threads, which is what the host characterization measures and the tests run.
//
// Sweeps (core::kSweeps; x and units there):
//   h2d:pinned, h2d:pageable, d2h:pinned, d2h:pageable, d2d   bytes per copy, GB/s
//   launch:sync   kernels of x work items, each launched and fenced, us per launch
//   launch        kernels of x work items launched back to back, one fence, us per launch
//   fence         x = 0 kernels outstanding, us per fence
// Every point's seconds are its samples' (all repetitions of one sample), its values
// the per-copy rate or per-launch time.

#include <cstdint>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/core/progress.hpp"
#include "rooftop/core/sampling.hpp"

namespace rooftop::microbench {

// Copy sizes and sampling of the transfer sweeps.
struct TransferPlan {
  std::vector<std::uint64_t> sizes;  // bytes per copy, ascending
  core::Sampling sampling;           // per point; a copy longer than a sample is one repetition
  // Per sweep: once a sweep has spent it, its larger copies are left out (with a note),
  // so that slow pageable copies cannot stretch the whole measure.
  double sweep_seconds = 2.0;
  std::string top_note;  // why the largest copy is below kTransferTopBytes (empty: it is not)
};

inline constexpr std::uint64_t kTransferTopBytes = std::uint64_t{1} << 30;

// 4 KiB to 1 GiB by factors of 4 (quick: by 16, to 256 MiB). The largest copy is
// bounded by a quarter of the free device memory (two device buffers of it for d2d)
// and of the host memory available (a pinned and a pageable buffer); 0 means unknown
// and bounds nothing.
TransferPlan make_transfer_plan(std::uint64_t device_free_bytes, std::uint64_t host_available_bytes,
                                bool quick);

// The h2d/d2h sweeps (pinned, then pageable) and d2d, each size with its own point. Each
// copy is Kokkos::deep_copy on one instance of Space, fenced; after each point's samples
// the destination is compared, on a spread of elements, with the pattern written into
// the source before them (a wrong element throws rooftop::Error). Pinned host memory that
// cannot be allocated skips the two pinned sweeps with the reason in `skipped` ("h2d:pinned:
// ..."); device memory that cannot be allocated lowers the largest size until it fits,
// with a line in `skipped` naming the sizes left out. Without `skipped` these throw.
template <class Space>
std::vector<core::SweepPoint> run_transfer_costs(const TransferPlan& plan,
                                                 const core::Progress& progress,
                                                 std::vector<std::string>* skipped = nullptr);

// Kernel sizes and sampling of the launch sweeps.
struct LaunchPlan {
  std::vector<std::int64_t> items;  // work items per kernel, ascending; the first is the "empty" one
  core::Sampling sampling;
};

// 1 to 2^24 work items by factors of 4 (quick: by 16); the first kernel, of one item,
// stands for an empty one.
LaunchPlan make_launch_plan(bool quick);

// launch:sync and launch at every size of the plan, then fence. The kernel writes one
// 8-byte value per work item; after each point its output is checked on a spread of
// items.
template <class Space>
std::vector<core::SweepPoint> run_launch_costs(const LaunchPlan& plan,
                                               const core::Progress& progress,
                                               std::vector<std::string>* skipped = nullptr);

// Bytes of host memory available for new allocations (MemAvailable of /proc/meminfo);
// 0 when unknown.
std::uint64_t host_available_bytes();

}  // namespace rooftop::microbench
