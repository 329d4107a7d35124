#pragma once
// Measuring single points: one compute configuration or one bandwidth configuration.
// Each returns the raw samples and throws rooftop::Error if the result check fails.

#include <array>
#include <cstdint>
#include <string>

#include "rooftop/core/model.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/microbench/pattern.hpp"

namespace rooftop::microbench {

// FLOPs per element the compute sweep can run (compile-time instantiations).
inline constexpr int kFlopsPerElement[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};

// Independent accumulator chains per SIMD lane (host) or per thread (GPU) the compute
// kernels can interleave; see compute_kernel.hpp for why there is a choice. The
// roofline trace uses the default: at its memory-bound end 8 chains per lane streamed
// as fast as the read-modify-write pattern on Zen 4, and 16 only about two thirds as fast.
inline constexpr std::array<int, 2> kIlpChoices = {8, 16};
inline constexpr int kDefaultIlp = 8;

// precision: "fp64" or "fp32". The fused and unfused kernels live in separate
// translation units because they need different floating-point contraction flags.
template <class Space>
core::ComputePoint measure_compute_fma(const std::string& precision, int flops_per_element, int ilp,
                                       std::uint64_t working_set_bytes,
                                       const core::Sampling& sampling);
template <class Space>
core::ComputePoint measure_compute_nofma(const std::string& precision, int flops_per_element,
                                         int ilp, std::uint64_t working_set_bytes,
                                         const core::Sampling& sampling);

template <class Space>
core::ComputePoint measure_compute(const std::string& precision, bool fma, int flops_per_element,
                                   int ilp, std::uint64_t working_set_bytes,
                                   const core::Sampling& sampling) {
  return fma ? measure_compute_fma<Space>(precision, flops_per_element, ilp, working_set_bytes,
                                          sampling)
             : measure_compute_nofma<Space>(precision, flops_per_element, ilp, working_set_bytes,
                                            sampling);
}

template <class Space>
core::BandwidthPoint measure_bandwidth(Pattern pattern, std::uint64_t working_set_bytes,
                                       const core::Sampling& sampling);

// Parallelism each space's kernels use (work items for bandwidth kernels).
template <class Space>
std::int64_t bandwidth_items();

}  // namespace rooftop::microbench
