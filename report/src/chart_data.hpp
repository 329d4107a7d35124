#pragma once
// What the roofline and sweep charts show of a ceilings file, computed once for every
// view that draws them: the SVG charts and the HTML report. Private to rooftop_report.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "rooftop/ceilings/extract.hpp"
#include "rooftop/core/model.hpp"

namespace rooftop::report {

// The bandwidth sweep as lines: pattern -> working set (bytes) -> median GB/s. A point
// measured again (the re-measurement passes) shows its best median, the one extraction
// ranks; points without samples or working set (no place on a log axis) are left out.
struct SweepLines {
  std::map<std::string, std::map<double, double>> patterns;
  double lo = 1e300, hi = 0.0;             // working sets
  double rate_min = 1e300, rate_max = 1.0;  // GB/s
};
SweepLines sweep_lines(const core::CeilingsFile& f);

// The cache levels a sweep chart marks, from the hardware; none on a GPU, whose levels
// are set by its kernels (each point names its level: "l2:read").
std::vector<ceilings::LevelWindow> sweep_levels(const core::CeilingsFile& f);

// The FLOPs-per-element trace: per precision and mode, (arithmetic intensity, median
// GFLOP/s) of the points measured with the largest working set; none on a GPU.
struct Traces {
  std::uint64_t working_set = 0;
  std::map<std::string, std::vector<std::pair<double, double>>> series;  // "fp64 fma" -> points
};
Traces flops_traces(const core::CeilingsFile& f);

}  // namespace rooftop::report
