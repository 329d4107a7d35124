#include "rooftop/core/demangle.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string_view>

namespace rooftop::core {

std::string demangled(const std::string& name) {
  constexpr std::string_view kSpace = " \t\r\n";
  const std::size_t first = name.find_first_not_of(kSpace);
  if (first == std::string::npos) return "";
  const std::string s = name.substr(first, name.find_last_not_of(kSpace) - first + 1);
  if (s.rfind("_Z", 0) != 0) return s;
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(s.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : s;
}

}  // namespace rooftop::core
