#pragma once
// The ceilings of a roofline as lines: the axes that fit them (and the points placed on
// them), compute ceilings as horizontal lines and bandwidth ceilings as diagonals, each
// labelled with its measured value. The roofline, comparison and kernel charts draw
// with these. Private to rooftop_report.

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"
#include "svg.hpp"

namespace rooftop::report {

// The extremes of the ceilings of one or more files, and of the points placed on them:
// they set a roofline's axes and where its lines meet.
struct RoofRange {
  double peak = 1.0;                    // highest compute ceiling
  double bw_max = 1.0;                  // highest bandwidth
  double bw_min = 0.0;                  // lowest bandwidth (0: none)
  double ai_lo = 0.0, ai_hi = 0.0;      // arithmetic intensities of the points (0: none)
  double rate_lo = 0.0, rate_hi = 0.0;  // their GFLOP/s

  void add_point(double ai, double rate) {
    ai_lo = ai_lo > 0.0 ? std::min(ai_lo, ai) : ai;
    ai_hi = std::max(ai_hi, ai);
    rate_lo = rate_lo > 0.0 ? std::min(rate_lo, rate) : rate;
    rate_hi = std::max(rate_hi, rate);
  }

  explicit RoofRange(const core::CeilingsFile& f) { add(f); }
  RoofRange() = default;
  void add(const core::CeilingsFile& f) {
    for (const core::Ceiling& c : f.ceilings) {
      if (c.kind == "compute") {
        peak = std::max(peak, c.value);
      } else {
        bw_max = std::max(bw_max, c.value);
        bw_min = bw_min > 0.0 ? std::min(bw_min, c.value) : c.value;
      }
    }
  }
};

// The usual intensity range, widened by powers of two and decades to every point with
// a margin, so that no point sits on the frame.
Axes roofline_axes(const RoofRange& r, double top);

// One ceiling line of a roofline. `meets` is the machine's ceiling of the other kind that
// bounds the line: a compute ceiling starts where the fastest bandwidth reaches it, a
// bandwidth ceiling ends where it reaches the highest compute ceiling.
struct Roof {
  const core::Ceiling* ceiling;
  std::string color;
  std::string prefix;  // before the name in the label ("[2] " on a comparison)
  double meets;
};

// Compute ceilings: horizontal lines, labelled at the right edge; labels are pushed
// down, clear of the labels `layout` holds, when two ceilings are close. Each label's box
// goes into `layout`.
void draw_compute_roofs(std::ostringstream& s, const Axes& a, std::vector<Roof> roofs,
                        Layout& layout);

// Bandwidth ceilings: diagonals up to the compute ceiling they meet, labelled along the
// line where the label is clear of those `layout` holds (parallel lines keep their labels
// apart), else below it; a label that finds no room is left out, its line keeping it as a
// tooltip. Boxes that cover the slanted labels go into `layout`.
void draw_bandwidth_roofs(std::ostringstream& s, const Axes& a, const std::vector<Roof>& roofs,
                          Layout& layout);

// The roofs of one file; `color` empty gives each compute ceiling its own colour (the
// single-machine chart).
void add_roofs(const core::CeilingsFile& f, const std::string& color, const std::string& prefix,
               std::vector<Roof>& compute, std::vector<Roof>& bandwidth);

// The ceilings of one machine, each compute ceiling in its own colour.
void draw_roofs(std::ostringstream& s, const Axes& a, const core::CeilingsFile& f, Layout& layout);

}  // namespace rooftop::report
