// Fused device kernels (the FMA ceilings) and the fused side of the fusion probe:
// compiled with contraction allowed (--fmad=true on the device).
#define ROOFTOP_FUSED true
#define ROOFTOP_MEASURE_COMPUTE measure_device_compute_fma
#define ROOFTOP_FUSION_PROBE fusion_probe_fused_unit
#include "device/compute_variant.ipp"
