#pragma once
// The access patterns of the bandwidth sweep and what each moves per element
// (counted as the program sees them, as STREAM does; write-allocate is not added).

#include <optional>
#include <string>

namespace rooftop::microbench {

enum class Pattern { read, write, copy, triad, rmw };

constexpr const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::read: return "read";
    case Pattern::write: return "write";
    case Pattern::copy: return "copy";
    case Pattern::triad: return "triad";
    case Pattern::rmw: return "rmw";
  }
  return "?";
}
inline std::optional<Pattern> parse_pattern(const std::string& name) {
  for (Pattern p : {Pattern::read, Pattern::write, Pattern::copy, Pattern::triad, Pattern::rmw})
    if (name == pattern_name(p)) return p;
  return std::nullopt;
}
constexpr int arrays_of(Pattern p) {
  return p == Pattern::copy ? 2 : p == Pattern::triad ? 3 : 1;
}
constexpr int bytes_per_element(Pattern p) {
  return p == Pattern::read || p == Pattern::write ? 8 : p == Pattern::triad ? 24 : 16;
}

}  // namespace rooftop::microbench
