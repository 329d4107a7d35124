#pragma once
// Kernel names as the profilers print them.

#include <string>

namespace rooftop::counters {

// A mangled name ("_Z5daxpyidPKdPd") demangled, as the profilers print names by default;
// any other name as it is, trimmed.
std::string demangled(const std::string& name);

}  // namespace rooftop::counters
