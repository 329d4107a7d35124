// Unfused kernels: this file is compiled with -ffp-contract=off (host) and
// -fmad=false (CUDA), so x * a + b is a multiply and an add, never an FMA.
#include "host/compute_impl.hpp"

namespace rooftop::microbench {

template <class Space>
core::ComputePoint measure_compute_nofma(const std::string& precision, int flops, int ilp,
                                         std::uint64_t working_set_bytes,
                                         const core::Sampling& sampling) {
  return detail::measure<Space, false>(precision, flops, ilp, working_set_bytes, sampling);
}

template core::ComputePoint measure_compute_nofma<Kokkos::DefaultHostExecutionSpace>(
    const std::string&, int, int, std::uint64_t, const core::Sampling&);
#if defined(KOKKOS_ENABLE_CUDA)
template core::ComputePoint measure_compute_nofma<Kokkos::Cuda>(const std::string&, int, int,
                                                                std::uint64_t,
                                                                const core::Sampling&);
#endif

}  // namespace rooftop::microbench
