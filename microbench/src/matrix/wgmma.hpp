#pragma once
// The wgmma points of the tensor-core sweeps (wgmma.cpp), run after each
// figure's mma.sync points by run_tensor_sweeps under the CUDA space.

#include <cstdint>
#include <string>

#include "rooftop/core/model.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/microbench/device.hpp"

namespace rooftop::microbench::device {

// The current CUDA device's compute capability ("9.0"); "" in a build without CUDA.
std::string cuda_compute_capability();

// One point of `figure`'s wgmma sweep (wgmma_sweep(figure)) at m64nNk, N = `n`: one
// wave of one-warpgroup blocks, each running `inner` x 16 wgmma on one accumulator tile,
// then one more; the count scaled with `scaling`, the samples taken through the device
// sampling loop, every accumulator checked after timing. Throws rooftop::Error when the
// sm_90a code did not run (a build without it, or the runtime loaded the generic sm_90
// code), when the answer is wrong, and in a build without CUDA.
core::SweepPoint measure_wgmma(const std::string& figure, int n, std::int64_t inner,
                               const core::Sampling& sampling, LaunchScaling* scaling);

}  // namespace rooftop::microbench::device
