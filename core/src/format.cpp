#include "rooftop/core/format.hpp"

#include <cstdio>
#include <vector>

namespace rooftop::core {

std::string format_number(const char* conversion, double value) {
  char buffer[64];
  const int n = std::snprintf(buffer, sizeof buffer, conversion, value);
  if (n < 0) return {};
  if (static_cast<std::size_t>(n) < sizeof buffer) return buffer;
  // A huge number in %f: as long as it takes.
  std::vector<char> big(static_cast<std::size_t>(n) + 1);
  std::snprintf(big.data(), big.size(), conversion, value);
  return big.data();
}

std::string fixed(double value, int digits) {
  char buffer[64];
  const int n = std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  if (n >= 0 && static_cast<std::size_t>(n) < sizeof buffer) return buffer;
  std::vector<char> big(static_cast<std::size_t>(n > 0 ? n : 0) + 1);
  std::snprintf(big.data(), big.size(), "%.*f", digits, value);
  return big.data();
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string s;
  for (const std::string& item : items) s += (s.empty() ? "" : separator) + item;
  return s;
}

}  // namespace rooftop::core
