#pragma once
// A kernel's name as people read it, for every reader of kernel names: the profiles'
// imports and the CUDA injection library name one kernel alike.

#include <string>

namespace rooftop::core {

// A mangled C++ name ("_Z5daxpyidPKdPd") demangled ("daxpy(int, double, double const*,
// double*)"), as the profilers print names by default; any other name as it is, trimmed.
// Only "_Z" names are demangled: the demangler also reads a plain name as a type
// ("f" as "float"), and an extern "C" kernel may well be named so.
std::string demangled(const std::string& name);

}  // namespace rooftop::core
