#pragma once
// What every chart is drawn with: escaped SVG text, the colours, a log-log plotting area
// and its frame, boxes that keep labels apart, and the provenance footer. Private to
// rooftop_report.

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

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
  double area() const { return (x1 - x0) * (y1 - y0); }
};

// The box of one line of text `width` pixels wide, its anchor ("start", "middle",
// "end") at x and its baseline at y: from the cap height above to the descenders below.
Box text_box(double x, double y, double width, double font_size, const char* anchor);

// Where one line of text can go: its anchor ("start", "middle", "end") and baseline.
struct Spot {
  double x, y;
  const char* anchor;
};

// What a chart has placed so far: labels, which no other label may overlap, and marks
// (markers, lines' ends, legends) that labels keep off where they can. Every label of a
// chart is placed through one Layout, so that no two overlap, or it is not drawn.
struct Layout {
  std::vector<Box> labels, marks;

  // `b` overlaps no label placed so far.
  bool clear(const Box& b) const;
  // The index of the best of `candidates`: inside `bounds` (the plot, whose frame's
  // labels lie outside it) and clear of every label, covering the least of the marks,
  // ties to the first; none where no candidate is.
  std::optional<std::size_t> pick(const std::vector<Box>& candidates, const Box& bounds) const;
  // The best of `spots` for `text` (as pick chooses), its box then added to the labels;
  // none where every spot is taken.
  std::optional<Spot> place(const std::string& text, double font_size,
                            const std::vector<Spot>& spots, const Box& bounds);
};

// The XML declaration, the <svg> element and a white background.
void svg_begin(std::ostringstream& s, double width, double height);

// Where the ceilings come from, along the bottom edge.
void provenance_footer(std::ostringstream& s, const core::CeilingsFile& f, double y);

}  // namespace rooftop::report
