#pragma once
// SVG charts of measured ceilings: the roofline (log-log, every ceiling drawn and
// labelled with its measured value, the FLOPs-per-element trace on top) and the
// bandwidth sweep (GB/s against working set, cache levels marked); several machines'
// rooflines overlaid, one colour per machine; and the hierarchical roofline of kernels.

#include <string>
#include <vector>

#include "rooftop/ceilings/fleet.hpp"
#include "rooftop/core/model.hpp"

namespace rooftop::report {

std::string roofline_svg(const core::CeilingsFile& file);

// The rooflines of `files` on one chart with a legend naming each file by its label
// and machine; theoretical ceilings that were never measured are dotted.
std::string comparison_svg(const std::vector<core::CeilingsFile>& files,
                           const std::vector<std::string>& labels);

// The hierarchical roofline of file.kernels on file's measured ceilings: each kernel one
// marker per memory level it has byte counts for (x: arithmetic intensity at that level,
// y: achieved GFLOP/s; one shape per level, one colour per kernel), labelled with its short
// id; the versions of a group joined in `order` by arrows, level by level; below the plot,
// a table of id, full name, GFLOP/s, limiter and fraction of roof. A kernel with no time
// (or no FLOPs, or no byte counts) is listed but not drawn; one above a ceiling is flagged.
std::string kernels_svg(const core::CeilingsFile& file, const std::string& title);

// The spread of each ceiling across a fleet: one row per ceiling, one dot per rank at its
// value / the fleet median (linear axis), the median and the review's threshold drawn,
// slow ranks in red and named; the fleet median and spread beside each row, the failed
// ranks with their reasons below.
std::string fleet_spread_svg(const ceilings::FleetFile& fleet, const ceilings::FleetReview& review);

}  // namespace rooftop::report
