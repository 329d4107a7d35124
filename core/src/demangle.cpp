#include "rooftop/core/demangle.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

#include "rooftop/core/format.hpp"

namespace rooftop::core {

std::string demangled(const std::string& name) {
  const std::string s = trim(name);
  if (s.rfind("_Z", 0) != 0) return s;
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(s.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : s;
}

}  // namespace rooftop::core
