#include "rooftop/core/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace rooftop::core {

std::string trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return std::string(text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1));
}

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

namespace {

// "-1234567.5" -> "-1,234,567.5": separators in the integer part only.
std::string thousands(const std::string& number) {
  const std::size_t start = number.find_first_of("0123456789");
  const std::size_t end = std::min(number.find('.'), number.size());
  std::string out = number.substr(0, start);
  for (std::size_t i = start; i < end; ++i) {
    out += number[i];
    if (i + 1 < end && (end - 1 - i) % 3 == 0) out += ',';
  }
  return out + number.substr(end);
}

}  // namespace

std::string significant(double value, int digits) {
  digits = std::max(1, digits);
  if (!std::isfinite(value)) return format_number("%g", value);
  if (value == 0.0) return "0";
  const double magnitude = std::fabs(value);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*e", digits - 1, value);
  if (magnitude >= 1e15 || magnitude < 1e-4) return buffer;
  // The decimal exponent after rounding to `digits`, so that 9.996 is "10.0", not "9.996".
  const int exponent = std::atoi(std::strchr(buffer, 'e') + 1);
  const int decimals = std::max(0, digits - 1 - exponent);
  return thousands(fixed(value, decimals));
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string s;
  for (const std::string& item : items) s += (s.empty() ? "" : separator) + item;
  return s;
}

std::string join_first(const std::vector<std::string>& items, const std::string& separator,
                       std::size_t shown) {
  if (items.size() <= shown) return join(items, separator);
  std::vector<std::string> first(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(shown));
  first.push_back(std::to_string(items.size() - shown) + " more");
  return join(first, separator);
}

}  // namespace rooftop::core
