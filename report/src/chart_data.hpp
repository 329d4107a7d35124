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

// The ladder a kernel is a version of, whose versions charts join in `order` by arrows;
// empty where it is none. Files written by `import` and `profile` before their kernels
// were given no group named the whole list "import" or "kokkos": different kernels, not
// versions of one, so those are no ladder either.
std::string ladder_of(const core::KernelRecord& k);

// For each file, the first of `files` whose ceilings are the same as its own (names,
// values, measured or theoretical): its own index, or an earlier one. Charts draw the
// roofs of files of one machine's one measurement once (a ceilings file and the kernels
// files written on it).
std::vector<std::size_t> same_roofs(const std::vector<core::CeilingsFile>& files);

// Whether `c` continues a UTF-8 sequence (no place to cut text).
bool utf8_continuation(char c);

// `text` in about `width` characters: its start and its end with an ellipsis between.
std::string cut_middle(const std::string& text, std::size_t width);

// A kernel's name as tables show it, the full name going to a tooltip: a name longer than
// `width` characters loses a leading `void`, its parameter list and its template
// arguments ("void at::native::vectorized_elementwise_kernel<4, …>(int, …)" ->
// "at::native::vectorized_elementwise_kernel<…>"), then, where it is still too long, its
// middle (the end of a Kokkos label is what tells kernels apart).
std::string display_name(const std::string& name, std::size_t width = 48);

}  // namespace rooftop::report
