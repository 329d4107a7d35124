// The body of device/compute_fma.cpp and device/compute_nofma.cpp: the same kernels and
// fusion probe, compiled once with contraction allowed and once without
// (microbench/CMakeLists.txt gives each file its flags; scripts/check-ptx.sh checks their
// PTX). Each file defines, before including this one, ROOFTOP_FUSED (true or false) and
// the names device.hpp declares for its variant: ROOFTOP_MEASURE_COMPUTE and
// ROOFTOP_FUSION_PROBE.
#include "device/compute_impl.hpp"

namespace rooftop::microbench {

template <class Space>
core::ComputePoint ROOFTOP_MEASURE_COMPUTE(const std::string& precision, std::int64_t threads,
                                           std::int64_t inner, const core::Sampling& sampling,
                                           LaunchScaling* scaling) {
  return device::measure_compute<Space, ROOFTOP_FUSED>(precision, threads, inner, sampling,
                                                       scaling);
}

template <class Space>
double ROOFTOP_FUSION_PROBE(const std::string& precision) {
  return device::fusion_probe<Space, ROOFTOP_FUSED>(precision);
}

template core::ComputePoint ROOFTOP_MEASURE_COMPUTE<Kokkos::DefaultHostExecutionSpace>(
    const std::string&, std::int64_t, std::int64_t, const core::Sampling&, LaunchScaling*);
template double ROOFTOP_FUSION_PROBE<Kokkos::DefaultHostExecutionSpace>(const std::string&);
#if defined(KOKKOS_ENABLE_CUDA)
template core::ComputePoint ROOFTOP_MEASURE_COMPUTE<Kokkos::Cuda>(const std::string&,
                                                                  std::int64_t, std::int64_t,
                                                                  const core::Sampling&,
                                                                  LaunchScaling*);
template double ROOFTOP_FUSION_PROBE<Kokkos::Cuda>(const std::string&);
#endif

}  // namespace rooftop::microbench
