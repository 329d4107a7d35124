#pragma once
// What every chart is drawn with: escaped SVG text, the colours, a log-log plotting area
// and its frame, boxes that keep labels apart, and the provenance footer. Private to
// rooftop_report.

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "rooftop/core/model.hpp"

namespace rooftop::report {

inline constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                           "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

// A white outline under text keeps it readable where it crosses a line.
inline constexpr const char* kHalo = " stroke='white' stroke-width='3' paint-order='stroke'";

// A number with `digits` decimals, as every label prints it.
std::string num(double v, int digits = 1);

// Text and attribute values (attributes are single-quoted); control characters are not
// allowed in XML 1.0 at all.
std::string escape(const std::string& s);

// A log-log plotting area inside the SVG.
struct Axes {
  double x0, y0, w, h;            // pixel box
  double xmin, xmax, ymin, ymax;  // data range (positive)
  double px(double x) const { return x0 + w * std::log(x / xmin) / std::log(xmax / xmin); }
  double py(double y) const { return y0 + h - h * std::log(y / ymin) / std::log(ymax / ymin); }
};

// The frame of a log-log plot: title, axis labels, ticks with light grid lines (decades;
// powers of 4 in bytes where `x_bytes`).
void frame(std::ostringstream& s, const Axes& a, const std::string& title,
           const std::string& xlabel, const std::string& ylabel, bool x_bytes);

// Rough width of sans-serif text (there are no font metrics here).
double text_width(const std::string& text, double font_size);

// An axis-aligned box in pixels: markers and labels, to keep labels apart.
struct Box {
  double x0, y0, x1, y1;
  double overlap(const Box& o) const {
    const double w = std::min(x1, o.x1) - std::max(x0, o.x0);
    const double h = std::min(y1, o.y1) - std::max(y0, o.y0);
    return w > 0.0 && h > 0.0 ? w * h : 0.0;
  }
};

// The XML declaration, the <svg> element and a white background.
void svg_begin(std::ostringstream& s, double width, double height);

// Where the ceilings come from, along the bottom edge.
void provenance_footer(std::ostringstream& s, const core::CeilingsFile& f, double y);

}  // namespace rooftop::report
