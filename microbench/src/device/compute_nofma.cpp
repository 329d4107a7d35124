// Unfused device kernels and the unfused side of the fusion probe: compiled with
// --fmad=false (device) and -ffp-contract=off (host), and the kernels use
// round-to-nearest intrinsics besides, so no multiply and add become an FMA.
#include "device/compute_impl.hpp"

namespace rooftop::microbench {

template <class Space>
core::ComputePoint measure_device_compute_nofma(const std::string& precision, std::int64_t threads,
                                                std::int64_t inner, const core::Sampling& sampling,
                                                LaunchScaling* scaling) {
  return device::measure_compute<Space, false>(precision, threads, inner, sampling, scaling);
}

template <class Space>
double fusion_probe_unfused_unit(const std::string& precision) {
  return device::fusion_probe<Space, false>(precision);
}

template core::ComputePoint measure_device_compute_nofma<Kokkos::DefaultHostExecutionSpace>(
    const std::string&, std::int64_t, std::int64_t, const core::Sampling&, LaunchScaling*);
template double fusion_probe_unfused_unit<Kokkos::DefaultHostExecutionSpace>(const std::string&);
#if defined(KOKKOS_ENABLE_CUDA)
template core::ComputePoint measure_device_compute_nofma<Kokkos::Cuda>(const std::string&,
                                                                       std::int64_t, std::int64_t,
                                                                       const core::Sampling&,
                                                                       LaunchScaling*);
template double fusion_probe_unfused_unit<Kokkos::Cuda>(const std::string&);
#endif

}  // namespace rooftop::microbench
