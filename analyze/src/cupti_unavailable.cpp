// The cupti backend's entry points in builds that do not have it (host build, or no
// CUPTI found): they say why, so callers need no #if.

#include "rooftop/analyze/cupti_backend.hpp"
#include "rooftop/config.hpp"
#include "rooftop/core/error.hpp"

namespace rooftop::analyze {

std::string cupti_backend_unavailable_reason() {
  if (!ROOFTOP_HAS_DEVICE)
    return "GPU counters need the CUDA build of rooftop (this one runs kernels on the host only)";
  return "GPU counters need CUPTI from CUDA 12.6 or newer, and this rooftop was built without "
         "it (configure with a CUDA Toolkit and ROOFTOP_WITH_CUPTI=ON)";
}

std::unique_ptr<Backend> make_cupti_backend(kernels::KernelList, core::Sampling, core::Progress,
                                            double) {
  throw Error(cupti_backend_unavailable_reason());
}

}  // namespace rooftop::analyze
