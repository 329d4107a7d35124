// Fused kernels: built with contraction allowed; the FMA is explicit anyway.
#include "host/compute_impl.hpp"

namespace rooftop::microbench {

std::vector<int> compute_ilp_choices() {
  std::vector<int> out;
  for (int chains : host_ilp_choices(kHostVectorRegisters))
    if (chains > 0) out.push_back(chains);
  return out;
}

template <class Space>
core::ComputePoint measure_compute_fma(const std::string& precision, int flops, int ilp,
                                       std::uint64_t working_set_bytes,
                                       const core::Sampling& sampling) {
  return detail::measure<Space, true>(precision, flops, ilp, working_set_bytes, sampling);
}

template core::ComputePoint measure_compute_fma<Kokkos::DefaultHostExecutionSpace>(
    const std::string&, int, int, std::uint64_t, const core::Sampling&);
#if defined(KOKKOS_ENABLE_CUDA)
template core::ComputePoint measure_compute_fma<Kokkos::Cuda>(const std::string&, int, int,
                                                              std::uint64_t, const core::Sampling&);
#endif

}  // namespace rooftop::microbench
