#include "rooftop/core/vocabulary.hpp"

#include <iterator>

namespace rooftop::core {

const Precision* find_precision(std::string_view name) {
  for (const Precision& p : kPrecisions)
    if (p.name == name) return &p;
  return nullptr;
}

const ComputeMode* find_compute_mode(std::string_view name) {
  for (const ComputeMode& m : kComputeModes)
    if (m.name == name) return &m;
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
    for (const ComputeMode& mode : kComputeModes) {
      if (compute_ceiling_name(p.name, mode.name) == name) return rank;
      ++rank;
    }
  }
  return rank + level_rank(name);
}

int compute_ceiling_count() {
  int count = 0;
  for (const Precision& p : kPrecisions)
    if (p.ceilings) count += static_cast<int>(std::size(kComputeModes));
  return count;
}

std::string_view ceiling_kind(std::string_view name) {
  const int rank = ceiling_rank(name);  // compute ceilings first, then the levels
  const int compute = compute_ceiling_count();
  if (rank < compute) return "compute";
  if (rank < compute + static_cast<int>(std::size(kLevels))) return "bandwidth";
  return {};
}

const Unit* find_unit(std::string_view name) {
  for (const Unit& u : kUnits)
    if (u.name == name) return &u;
  return nullptr;
}

const Sweep* find_sweep(std::string_view name) {
  for (const Sweep& s : kSweeps)
    if (s.name == name) return &s;
  return nullptr;
}

bool tensor_figure(std::string_view figure) {
  for (const TensorPath& t : kTensorPaths)
    if (t.figure == figure) return true;
  return false;
}

const Figure* find_figure(std::string_view name) {
  for (const Figure& f : kFigures)
    if (f.name == name) return &f;
  return nullptr;
}

Ceiling figure_row(std::string_view name) {
  Ceiling c;
  c.name = std::string(name);
  if (const Figure* row = find_figure(name)) {
    c.kind = std::string(row->kind);
    c.units = std::string(row->units);
  }
  return c;
}

int figure_rank(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kFigures); ++i)
    if (kFigures[i].name == name) return static_cast<int>(i);
  return static_cast<int>(std::size(kFigures));
}

bool known_ceiling_pattern(std::string_view pattern) {
  for (const ComputeMode& m : kComputeModes)
    if (m.pattern == pattern) return true;
  return find_pattern(pattern) != nullptr;
}

}  // namespace rooftop::core
