// Fused device kernels (the FMA ceilings) and the fused side of the fusion probe:
// compiled with contraction allowed (--fmad=true on the device).
#include "device/compute_impl.hpp"

namespace rooftop::microbench {

template <class Space>
core::ComputePoint measure_device_compute_fma(const std::string& precision, std::int64_t threads,
                                              std::int64_t inner, const core::Sampling& sampling,
                                              LaunchScaling* scaling) {
  return device::measure_compute<Space, true>(precision, threads, inner, sampling, scaling);
}

template <class Space>
double fusion_probe_fused_unit(const std::string& precision) {
  return device::fusion_probe<Space, true>(precision);
}

template core::ComputePoint measure_device_compute_fma<Kokkos::DefaultHostExecutionSpace>(
    const std::string&, std::int64_t, std::int64_t, const core::Sampling&, LaunchScaling*);
template double fusion_probe_fused_unit<Kokkos::DefaultHostExecutionSpace>(const std::string&);
#if defined(KOKKOS_ENABLE_CUDA)
template core::ComputePoint measure_device_compute_fma<Kokkos::Cuda>(const std::string&,
                                                                     std::int64_t, std::int64_t,
                                                                     const core::Sampling&,
                                                                     LaunchScaling*);
template double fusion_probe_fused_unit<Kokkos::Cuda>(const std::string&);
#endif

}  // namespace rooftop::microbench
