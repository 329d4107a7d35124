// Unfused kernels: this file is compiled with -ffp-contract=off (host) and
// -fmad=false (CUDA), so x * a + b is a multiply and an add, never an FMA.
#define ROOFTOP_FUSED false
#define ROOFTOP_MEASURE_COMPUTE measure_compute_nofma
#include "host/compute_variant.ipp"
