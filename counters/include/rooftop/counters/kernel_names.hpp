#pragma once
// Kernel names as the profilers print them.

#include <string>

namespace rooftop::counters {

// A mangled name ("_Z5daxpyidPKdPd") demangled, as the profilers print names by default;
// any other name as it is, trimmed.
std::string demangled(const std::string& name);

// What is left of a kernel's name when the ways tools spell it are set aside: its words
// up to the argument list, without namespace qualifiers, numbers without their suffixes
// ("2ul" is 2), true and false as 1 and 0. Nsight Compute and CUPTI's demangler spell one
// PyTorch kernel as
//   at::vectorized_elementwise_kernel<4, at::GeluCUDAKernelImpl(...)::[lambda() (instance 2)]...
//   at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(...)::{lambda()#2}...
// ("<unnamed>" for "(anonymous namespace)", "char *" for "char*"), and both give
// "vectorized_elementwise_kernel 4 GeluCUDAKernelImpl TensorIteratorBase GeluType lambda 2 ...".
std::string spelling_key(const std::string& name);

}  // namespace rooftop::counters
