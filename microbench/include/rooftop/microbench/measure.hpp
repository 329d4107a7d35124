#pragma once
// Measuring single points: one compute configuration or one bandwidth configuration.
// Each returns the raw samples and throws rooftop::Error if the result check fails.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/microbench/pattern.hpp"

namespace rooftop::microbench {

// FLOPs per element the compute sweep can run (compile-time instantiations).
inline constexpr int kFlopsPerElement[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};

// The chain counts worth measuring on the host, in vector registers: at least latency x
// pipes of the cores we know (8: a 4-cycle FMA on two pipes; Zen's unfused 1:1 mix,
// 3-cycle multiplies and adds on two pipes each, needs 12) and at most what fits beside
// the kernel's two constants (alpha and beta), so that nothing spills. With 16
// registers (AVX2) every even count in that range, 8 being a bare minimum there; with
// 32 (AVX-512) a wider spread. 0 marks an unused slot.
constexpr std::array<int, 4> host_ilp_choices(int registers) {
  const int fit = registers - 2;
  constexpr std::array<int, 4> scarce = {8, 10, 12, 14}, ample = {8, 12, 16, 24};
  const std::array<int, 4>& wanted = registers <= 16 ? scarce : ample;
  std::array<int, 4> out{};
  std::size_t n = 0;
  for (int chains : wanted)
    if (chains <= fit) out[n++] = chains;
  return out;
}

// Independent accumulator chains per SIMD lane (host) the compute ceilings are measured
// at: host_ilp_choices for the vector ISA the kernels were built for (compute_kernel.hpp).
// The best makes the ceiling. The roofline trace uses the default: at its memory-bound
// end 8 chains per lane streamed as fast as the read-modify-write pattern on Zen 4, and
// 16 only about two thirds as fast.
std::vector<int> compute_ilp_choices();
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
