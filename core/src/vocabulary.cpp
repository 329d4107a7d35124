#include "rooftop/core/vocabulary.hpp"

#include <iterator>

namespace rooftop::core {

const Precision* find_precision(std::string_view name) {
  for (const Precision& p : kPrecisions)
    if (p.name == name) return &p;
  return nullptr;
}

std::string compute_ceiling_name(std::string_view precision, std::string_view mode) {
  return std::string(precision) + "_" + std::string(mode);
}

int level_rank(std::string_view level) {
  for (std::size_t i = 0; i < std::size(kLevels); ++i)
    if (kLevels[i].name == level) return static_cast<int>(i);
  return static_cast<int>(std::size(kLevels));
}

const Pattern* find_pattern(std::string_view name) {
  for (const Pattern& p : kPatterns)
    if (p.name == name) return &p;
  return nullptr;
}

int ceiling_rank(std::string_view name) {
  int rank = 0;
  for (const Precision& p : kPrecisions) {
    if (!p.ceilings) continue;
    for (std::string_view mode : kComputeModes) {
      if (compute_ceiling_name(p.name, mode) == name) return rank;
      ++rank;
    }
  }
  return rank + level_rank(name);
}

}  // namespace rooftop::core
