// The dot-product figures (dot_figures.hpp).
#include "rooftop/ceilings/dot_figures.hpp"

#include <algorithm>
#include <cstdio>

#include "rooftop/core/format.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings {
namespace {

void attach_dot_theoretical(const core::Machine& m, const DotUnit& unit,
                            const core::SweepPoint& p, core::Ceiling& c) {
  if (unit.per_cycle <= 0.0) {
    c.theoretical_basis = "no theoretical peak: " + unit.source;
    return;
  }
  const bool sampled = !p.clock_ghz.empty();
  const double ghz = sampled ? *std::max_element(p.clock_ghz.begin(), p.clock_ghz.end())
                             : m.clock_ghz;
  if (ghz <= 0.0 || m.cores <= 0) {
    c.theoretical_basis = "no theoretical peak: no measured clock or core count";
    return;
  }
  c.theoretical = m.cores * unit.per_cycle * unit.ops_per_instruction * ghz;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%d cores x %g %s per cycle (%s) x %d ops x %.3f GHz (%s)",
                m.cores, unit.per_cycle, unit.instruction.c_str(), unit.source.c_str(),
                unit.ops_per_instruction, ghz,
                sampled ? "the highest clock read around this figure's samples"
                        : "the measured clock");
  c.theoretical_basis = buf;
}

}  // namespace

std::vector<core::Ceiling> dot_figures(const std::vector<core::SweepPoint>& points,
                                       const core::Machine& machine,
                                       const std::vector<DotUnit>& units) {
  std::vector<core::Ceiling> out;
  for (const DotUnit& unit : units) {
    const core::Figure* row = core::find_figure(unit.figure);
    if (!row) continue;
    const core::SweepPoint* best = nullptr;
    core::Summary best_summary;
    std::string tried;
    for (const core::SweepPoint& p : points) {
      if (p.sweep != unit.figure || p.values.empty()) continue;
      const core::Summary s = core::summarize(p.values);
      tried += (tried.empty() ? "" : ", ") + core::format_number("%g", p.x);
      if (!best || s.median > best_summary.median) best = &p, best_summary = s;
    }
    if (!best) continue;
    core::Ceiling c;
    c.name = unit.figure;
    c.kind = std::string(row->kind);
    c.units = std::string(row->units);
    c.value = c.median = best_summary.median;
    c.min = best_summary.min;
    c.max = best_summary.max;
    c.samples = best_summary.count;
    c.pattern = unit.instruction;
    c.note = core::format_number("%g", best->x) + " accumulators per thread (best of " + tried + ")";
    if (!best->disturbance.empty()) c.disturbance = core::median_disturbance(best->disturbance);
    attach_dot_theoretical(machine, unit, *best, c);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace rooftop::ceilings
