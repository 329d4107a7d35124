#pragma once
// A GPU's launch shape of a GPP version, run on a host space: a GPU thread's work (one
// G, and for v9 two G' with the last group partial, G' fastest within a block of G) in
// teams of one thread, so that the GPU's arithmetic is checked (and counted) where no GPU is.

#include <string>

#include "gpp_kernels.hpp"

namespace rooftop::kernels::gpp {

template <class Step>
struct GpuShapeOnOneThread {
  using Gpu = LaunchShape<Kokkos::DefaultHostExecutionSpace, Step, false>;
  static constexpr int kLanes = Gpu::kLanes;
  static constexpr int kGPrimes = Gpu::kGPrimes;
  static constexpr int kThreads = 1;
  static constexpr int kGPerTeam = Gpu::kGPerTeam;
  using Bounds = Kokkos::LaunchBounds<>;
};

// Version `id` (v3 ... v9: the team versions) in a GPU's shape with the real type R.
template <class Space, class R = double>
Sums run_gpu_shape(const std::string& id, const Arrays<Space>& a) {
  const auto run = [&](auto step) {
    using Step = decltype(step);
    return launch_team<Space, Step, GpuShapeOnOneThread<Step>, R>(a, "test::gpp_gpu_shape");
  };
  if (id == "v3") return run(v3_thread_block{});
  if (id == "v4") return run(v4_frequency_outside{});
  if (id == "v5") return run(v5_index_swap{});
  if (id == "v6") return run(v6_simplified_body{});
  if (id == "v7") return run(v7_reciprocal{});
  if (id == "v8") return run(v8_squared_magnitudes{});
  if (id == "v9") return run(v9_cache_blocking{});
  throw Error("no GPU shape for GPP version '" + id + "'");
}

}  // namespace rooftop::kernels::gpp
