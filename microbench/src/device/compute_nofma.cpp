// Unfused device kernels and the unfused side of the fusion probe: compiled with
// --fmad=false (device) and -ffp-contract=off (host), and the kernels use
// round-to-nearest intrinsics besides, so no multiply and add become an FMA.
#define ROOFTOP_FUSED false
#define ROOFTOP_MEASURE_COMPUTE measure_device_compute_nofma
#define ROOFTOP_FUSION_PROBE fusion_probe_unfused_unit
#include "device/compute_variant.ipp"
