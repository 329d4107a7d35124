#include "sweep_points.hpp"

#include <algorithm>

#include "rooftop/core/sampling.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings::detail {

std::vector<const core::SweepPoint*> points_of(const std::vector<core::SweepPoint>& points,
                                               const std::string& sweep) {
  std::vector<const core::SweepPoint*> out;
  for (const core::SweepPoint& p : points)
    if (p.sweep == sweep && !p.values.empty() && p.x >= 0.0) out.push_back(&p);
  std::stable_sort(out.begin(), out.end(),
                   [](const core::SweepPoint* a, const core::SweepPoint* b) { return a->x < b->x; });
  return out;
}

double median_of(const core::SweepPoint& p) { return core::summarize(p.values).median; }

const core::SweepPoint* best_point(const std::vector<const core::SweepPoint*>& points) {
  const core::SweepPoint* best = nullptr;
  double best_median = 0.0;
  for (const core::SweepPoint* p : points) {
    const double median = median_of(*p);
    if (!best || median > best_median) best = p, best_median = median;
  }
  return best;
}

core::Ceiling figure_from(const std::string& name, const core::SweepPoint& p) {
  core::Ceiling c = core::figure_row(name);
  const core::Summary s = core::summarize(p.values);
  c.value = c.median = s.median;
  c.min = s.min;
  c.max = s.max;
  c.samples = s.count;
  c.pattern = p.sweep;
  if (!p.disturbance.empty() && p.disturbance.size() == p.values.size())
    c.disturbance = core::median_disturbance(p.disturbance);
  return c;
}

}  // namespace rooftop::ceilings::detail
