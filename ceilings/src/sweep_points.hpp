// Figures drawn from sweep points: which points a sweep has, which of them is best, and
// a figure's row filled with one point's samples. Shared by the figures of /costs and
// /matrix, which differ in what "best" is searched over, not in how a figure is made.
#pragma once

#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings::detail {

// The points of `sweep` that have samples, in increasing x.
std::vector<const core::SweepPoint*> points_of(const std::vector<core::SweepPoint>& points,
                                               const std::string& sweep);

// The median of a point's samples.
double median_of(const core::SweepPoint& p);

// The point with the highest median among `points`; null when there is none.
const core::SweepPoint* best_point(const std::vector<const core::SweepPoint*>& points);

// The figure's row of core::kFigures (name, group, kind, units) with one point's samples:
// value and median, min, max, count, the point's sweep as its pattern and the median of
// its samples' disturbance.
core::Ceiling figure_from(const std::string& name, const core::SweepPoint& p);

}  // namespace rooftop::ceilings::detail
