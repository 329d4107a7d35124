#pragma once
// The hierarchical roofline of kernels, as its two files share it: the kernels as the
// chart draws them (kernels_chart.cpp) and the labels placed around them
// (kernels_labels.cpp). Private to rooftop_report.

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/core/roofline.hpp"
#include "svg.hpp"

namespace rooftop::report {

// One kernel as the chart draws it.
struct KernelRow {
  core::KernelRecord kernel;
  std::string id;      // the short id, or the row number where the record has none
  std::string color;   // empty where nothing is drawn
  std::string status;  // why nothing is drawn, or the ceilings the kernel lies above
  bool above = false;  // timed, and above a ceiling
  std::optional<core::ComputeRoof> compute;  // the kernel's compute roof for its FMA mix
  bool tensor = false;  // `compute` is a matrix unit's figure (core::Placement::tensor)
  struct Point {
    std::string level;
    double ai, rate, X, Y;
  };
  std::vector<Point> points;  // one per level with a byte count
  // FLOPs and a time but no bytes: no arithmetic intensity, only the achieved rate, drawn
  // at the right edge against the compute roofs (Y set when drawn).
  double rate_only = 0.0, rate_Y = 0.0;
};

// One marker shape per level, centred on the origin (each marker is a translated group).
std::string level_shape(const std::string& level, const std::string& style);

// The compute roofs for a mix of FMAs and separate operations that kernels are held to,
// each across their markers, labelled where there is room.
void draw_mix_roofs(std::ostringstream& s, const Axes& a, const core::CeilingsFile& file,
                    const std::vector<KernelRow>& rows, Layout& layout);

// The matrix units' figures drawn kernels are placed against: dashed lines across the
// plot, labelled where there is room.
void draw_tensor_roofs(std::ostringstream& s, const Axes& a, const core::CeilingsFile& file,
                       const std::vector<KernelRow>& rows, Layout& layout);

// Kernels with a rate and no intensity: a tick at the right edge at their GFLOP/s, with
// their id beside it, or above or below it with a leader line where that is taken.
void draw_rate_only(std::ostringstream& s, const Axes& a, std::vector<KernelRow>& rows,
                    Layout& layout);

// Top left inside the plot, or wherever it covers no label: the shape of each level
// drawn, what an arrow means, the flag.
void kernel_legend(std::ostringstream& s, const Axes& a, const std::vector<std::string>& levels,
                   bool steps, bool above, Layout& layout);

// Each marker's short id beside it, clear of every label placed; a crowd's ids in a
// column; an id with no room near its marker further off with a leader line, or, with
// none at all, left to the marker's tooltip.
void draw_kernel_ids(std::ostringstream& s, const Axes& a, const std::vector<KernelRow>& rows,
                     Layout& layout);

}  // namespace rooftop::report
