// The body of host/compute_fma.cpp and host/compute_nofma.cpp: the same kernels, compiled
// once with contraction allowed and once without (microbench/CMakeLists.txt gives each file
// its flags). Each file defines, before including this one, ROOFTOP_FUSED (true or false)
// and ROOFTOP_MEASURE_COMPUTE, the name measure.hpp declares for its variant.
#include "host/compute_impl.hpp"

namespace rooftop::microbench {

template <class Space>
core::ComputePoint ROOFTOP_MEASURE_COMPUTE(const std::string& precision, int flops, int ilp,
                                           std::uint64_t working_set_bytes,
                                           const core::Sampling& sampling) {
  return detail::measure<Space, ROOFTOP_FUSED>(precision, flops, ilp, working_set_bytes,
                                               sampling);
}

template core::ComputePoint ROOFTOP_MEASURE_COMPUTE<Kokkos::DefaultHostExecutionSpace>(
    const std::string&, int, int, std::uint64_t, const core::Sampling&);
#if defined(KOKKOS_ENABLE_CUDA)
template core::ComputePoint ROOFTOP_MEASURE_COMPUTE<Kokkos::Cuda>(const std::string&, int, int,
                                                                  std::uint64_t,
                                                                  const core::Sampling&);
#endif

}  // namespace rooftop::microbench
