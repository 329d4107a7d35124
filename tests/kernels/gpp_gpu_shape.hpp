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

// Version `id` in a GPU's shape with the real type R (v1 and v2: their range policies).
template <class Space, class R = double>
Sums run_gpu_shape(const std::string& id, const Arrays<Space>& a) {
  return with_step(id, [&](auto step) {
    using Step = decltype(step);
    return launch_step<Space, Step, GpuShapeOnOneThread<Step>, R>(a, "test::gpp_gpu_shape");
  });
}

}  // namespace rooftop::kernels::gpp
