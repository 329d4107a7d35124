// Fused kernels: built with contraction allowed; the FMA is explicit anyway.
#define ROOFTOP_FUSED true
#define ROOFTOP_MEASURE_COMPUTE measure_compute_fma
#include "host/compute_variant.ipp"

namespace rooftop::microbench {

std::vector<int> compute_ilp_choices() {
  std::vector<int> out;
  for (int chains : host_ilp_choices(kHostVectorRegisters))
    if (chains > 0) out.push_back(chains);
  return out;
}

}  // namespace rooftop::microbench
