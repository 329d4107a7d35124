#pragma once
// Kernel names as the profilers print them.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace rooftop::counters {

// What is left of a kernel's name when the ways tools spell it are set aside: its words
// up to the argument list, without namespace qualifiers, numbers without their suffixes
// ("2ul" is 2), true and false as 1 and 0. Nsight Compute and CUPTI's demangler spell one
// PyTorch kernel as
//   at::vectorized_elementwise_kernel<4, at::GeluCUDAKernelImpl(...)::[lambda() (instance 2)]...
//   at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(...)::{lambda()#2}...
// ("<unnamed>" for "(anonymous namespace)", "char *" for "char*"), and both give
// "vectorized_elementwise_kernel 4 GeluCUDAKernelImpl TensorIteratorBase GeluType lambda 2 ...".
std::string spelling_key(const std::string& name);

// The (index in `a`, index in `b`) of names with the same spelling_key that no other name of
// either list has. An empty name takes no part (the caller's already paired ones).
std::vector<std::pair<std::size_t, std::size_t>> pairs_by_spelling(
    const std::vector<std::string>& a, const std::vector<std::string>& b);

}  // namespace rooftop::counters
