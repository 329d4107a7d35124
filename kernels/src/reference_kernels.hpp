#pragma once
#include <memory>
#include <string>
#include <vector>

#include "rooftop/kernels/kernel.hpp"

namespace rooftop::kernels {

// A reference kernel by name, and how to build it for a size name.
struct ReferenceKernel {
  std::string name;  // "triad", "polynomial", "stencil"
  std::unique_ptr<Kernel> (*make)(const std::string& size, int order);
};
const std::vector<ReferenceKernel>& reference_kernels();

}  // namespace rooftop::kernels
