#pragma once
#include <memory>
#include <string>

#include "rooftop/kernels/kernel.hpp"

namespace rooftop::analyze {

// "triad", "polynomial", "stencil"; nullptr for any other name.
std::unique_ptr<Kernel> make_reference_kernel(const std::string& name, const std::string& size,
                                              int order);

}  // namespace rooftop::analyze
