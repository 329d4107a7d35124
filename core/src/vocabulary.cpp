#include "rooftop/core/vocabulary.hpp"

#include <iterator>

namespace rooftop::core {
namespace {

// The row of a vocabulary table named `name`; nullptr where there is none.
template <class Row, std::size_t N>
const Row* find_row(const Row (&table)[N], std::string_view name) {
  for (const Row& row : table)
    if (row.name == name) return &row;
  return nullptr;
}

// Where the row named `name` stands in its table; the table's size where it is absent.
template <class Row, std::size_t N>
int row_index(const Row (&table)[N], std::string_view name) {
  const Row* row = find_row(table, name);
  return static_cast<int>(row ? row - table : N);
}

}  // namespace

const Precision* find_precision(std::string_view name) { return find_row(kPrecisions, name); }

const ComputeMode* find_compute_mode(std::string_view name) {
  return find_row(kComputeModes, name);
}

std::string compute_ceiling_name(std::string_view precision, std::string_view mode) {
  return std::string(precision) + "_" + std::string(mode);
}

int level_rank(std::string_view level) { return row_index(kLevels, level); }

const Pattern* find_pattern(std::string_view name) { return find_row(kPatterns, name); }

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

const Unit* find_unit(std::string_view name) { return find_row(kUnits, name); }

const Sweep* find_sweep(std::string_view name) { return find_row(kSweeps, name); }

bool tensor_figure(std::string_view figure) {
  for (const TensorPath& t : kTensorPaths)
    if (t.figure == figure) return true;
  return false;
}

const Figure* find_figure(std::string_view name) { return find_row(kFigures, name); }

Ceiling figure_row(std::string_view name) {
  Ceiling c;
  c.name = std::string(name);
  if (const Figure* row = find_figure(name)) {
    c.kind = std::string(row->kind);
    c.units = std::string(row->units);
  }
  return c;
}

int figure_rank(std::string_view name) { return row_index(kFigures, name); }

bool known_ceiling_pattern(std::string_view pattern) {
  for (const ComputeMode& m : kComputeModes)
    if (m.pattern == pattern) return true;
  return find_pattern(pattern) != nullptr;
}

}  // namespace rooftop::core
