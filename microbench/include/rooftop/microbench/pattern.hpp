#pragma once
// The access patterns of the bandwidth sweep as a kernel's compile-time knob: one
// enumerator per row of core::kPatterns, in its order, which says what each one moves.

#include <iterator>
#include <optional>
#include <string>

#include "rooftop/core/vocabulary.hpp"

namespace rooftop::microbench {

enum class Pattern { read, write, copy, triad, rmw };
static_assert(std::size(core::kPatterns) == 5 && core::kPatterns[4].name == "rmw",
              "one enumerator per row of core::kPatterns, in its order");

constexpr const core::Pattern& pattern_row(Pattern p) {
  return core::kPatterns[static_cast<int>(p)];
}
constexpr const char* pattern_name(Pattern p) { return pattern_row(p).name.data(); }
inline std::optional<Pattern> parse_pattern(const std::string& name) {
  for (std::size_t i = 0; i < std::size(core::kPatterns); ++i)
    if (name == core::kPatterns[i].name) return static_cast<Pattern>(i);
  return std::nullopt;
}
constexpr int arrays_of(Pattern p) { return pattern_row(p).arrays; }
constexpr int bytes_per_element(Pattern p) { return pattern_row(p).bytes_per_element(); }

}  // namespace rooftop::microbench
