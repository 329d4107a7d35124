// The dot-product figures (dot_figures.hpp).
#include "rooftop/ceilings/dot_figures.hpp"

#include <algorithm>
#include <cstdio>

#include "rooftop/core/format.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "sweep_points.hpp"

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

std::vector<core::Ceiling> dot_figures(const std::vector<core::SweepPoint>& sweeps,
                                       const core::Machine& machine,
                                       const std::vector<DotUnit>& units) {
  std::vector<core::Ceiling> out;
  for (const DotUnit& unit : units) {
    if (!core::find_figure(unit.figure)) continue;
    const std::vector<const core::SweepPoint*> points = detail::points_of(sweeps, unit.figure);
    const core::SweepPoint* best = detail::best_point(points);
    if (!best) continue;
    std::string tried;
    for (const core::SweepPoint* p : points)
      tried += (tried.empty() ? "" : ", ") + core::format_number("%g", p->x);
    core::Ceiling c = detail::figure_from(unit.figure, *best);
    c.pattern = unit.instruction;
    const core::Sweep* sweep = core::find_sweep(unit.figure);  // accumulators, or AMX tiles
    c.note = core::format_number("%g", best->x) + " " +
             (sweep ? std::string(sweep->x) : std::string("accumulators per thread")) +
             " (best of " + tried + ")";
    attach_dot_theoretical(machine, unit, *best, c);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace rooftop::ceilings
