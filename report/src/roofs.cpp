#include "roofs.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace rooftop::report {
namespace {

using core::Ceiling;

// Dotted: a theoretical value that was never measured; dashed: separate mul and add.
const char* dash(const Ceiling& c) {
  if (!c.measured()) return " stroke-dasharray='2,3'";
  if (c.name.find("nofma") != std::string::npos) return " stroke-dasharray='6,3'";
  return "";
}

std::string roof_label(const Roof& r, const char* units) {
  const Ceiling& c = *r.ceiling;
  return escape(r.prefix + c.name + " " + num(c.value) + " " + units +
                (c.measured() ? "" : " (theoretical)"));
}

}  // namespace

Axes roofline_axes(const RoofRange& r, double top) {
  Axes a{90, top + 40, 760, 420, 1.0 / 64, 1024, 0, 0};
  if (r.ai_lo > 0.0) {
    a.xmin = std::min(a.xmin, std::pow(2.0, std::floor(std::log2(r.ai_lo / 1.4))));
    a.xmax = std::max(a.xmax, std::pow(2.0, std::ceil(std::log2(r.ai_hi * 1.4))));
  }
  const double bw_min = r.bw_min > 0.0 ? r.bw_min : 1.0;
  a.ymax = std::pow(10.0, std::ceil(std::log10(std::max(r.peak, r.rate_hi) * 1.6)));
  double low = std::min(bw_min * a.xmin, r.peak / 100);
  if (r.rate_lo > 0.0) low = std::min(low, r.rate_lo / 1.6);
  a.ymin = std::pow(10.0, std::floor(std::log10(low)));
  return a;
}

void draw_compute_roofs(std::ostringstream& s, const Axes& a, std::vector<Roof> roofs,
                        Layout& layout) {
  std::sort(roofs.begin(), roofs.end(),
            [](const Roof& x, const Roof& y) { return x.ceiling->value > y.ceiling->value; });
  double last_label_y = -1e9;
  for (const Roof& r : roofs) {
    const Ceiling& c = *r.ceiling;
    const double Y = a.py(c.value);
    const double xs = std::max(a.xmin, c.value / r.meets);
    const std::string label = roof_label(r, "GFLOP/s");
    s << "<line class='ceiling compute' x1='" << a.px(xs) << "' y1='" << Y << "' x2='" << a.x0 + a.w
      << "' y2='" << Y << "' stroke='" << r.color << "' stroke-width='2'" << dash(c) << "><title>"
      << label << "</title></line>\n";
    const double right = a.x0 + a.w - 4, width = text_width(label, 11);
    double label_y = std::max(Y - 4, last_label_y + 13);
    while (!layout.clear(text_box(right, label_y, width, 11, "end")) && label_y < a.y0 + a.h)
      label_y += 13;
    const Box box = text_box(right, label_y, width, 11, "end");
    if (!layout.clear(box)) continue;  // no room: the line's tooltip names it
    last_label_y = label_y;
    s << "<text x='" << right << "' y='" << label_y << "' text-anchor='end' font-size='11' fill='"
      << r.color << "'>" << label << "</text>\n";
    layout.labels.push_back(box);
  }
}

void draw_bandwidth_roofs(std::ostringstream& s, const Axes& a, const std::vector<Roof>& roofs,
                          Layout& layout) {
  const double radians =
      std::atan((a.h / std::log(a.ymax / a.ymin)) / (a.w / std::log(a.xmax / a.xmin)));
  const double angle = radians * 180.0 / 3.14159265358979323846;
  // Small boxes along a slanted label whose baseline starts at (X, Y).
  const auto slant_boxes = [&](double X, double Y, double width) {
    // Centres 8 px apart along the middle of the text (3.2 px above the baseline, as
    // text_box has it), each box 14 px square: together they cover the slanted text's
    // whole band at any angle.
    std::vector<Box> boxes;
    for (double t = 4; t - 4 < width; t += 8) {
      const double cx = X + t * std::cos(radians) - 3.2 * std::sin(radians);
      const double cy = Y - t * std::sin(radians) - 3.2 * std::cos(radians);
      boxes.push_back({cx - 7, cy - 7, cx + 7, cy + 7});
    }
    return boxes;
  };
  const auto data_x = [&](double X) {
    return a.xmin * std::pow(a.xmax / a.xmin, (X - a.x0) / a.w);
  };
  const Box plot{a.x0, a.y0, a.x0 + a.w, a.y0 + a.h};
  for (const Roof& r : roofs) {
    const Ceiling& c = *r.ceiling;
    const double x1 = std::max(a.xmin, a.ymin / c.value);
    const double x2 = std::min(a.xmax, r.meets / c.value);
    const std::string label = roof_label(r, "GB/s");
    s << "<line class='ceiling bandwidth' x1='" << a.px(x1) << "' y1='" << a.py(x1 * c.value)
      << "' x2='" << a.px(x2) << "' y2='" << a.py(x2 * c.value) << "' stroke='" << r.color
      << "' stroke-width='1.5'" << dash(c) << "><title>" << label << "</title></line>\n";
    const double width = text_width(label, 11);
    // Slid along its line, above it and then below it, to the first place where it covers
    // no label placed so far and lies inside the plot.
    const auto at = [&](double x, double below) {
      return slant_boxes(x, a.py(data_x(x) * c.value) - 4 + below, width);
    };
    const auto fits = [&](const std::vector<Box>& boxes) {
      return std::all_of(boxes.begin(), boxes.end(), [&](const Box& b) {
        return layout.clear(b) && b.overlap(plot) >= b.area() - 0.01;
      });
    };
    const double start = a.px(std::max(a.xmin * 1.2, x1 * 1.5));
    std::optional<std::pair<double, double>> place;  // X and the drop below the line
    for (const double below : {0.0, 15.0})
      for (double X = start; !place && X + width * std::cos(radians) < a.px(x2); X += 12)
        if (fits(at(X, below))) place = std::pair{X, below};
    if (!place) continue;  // no room: the line's tooltip names it
    const double X = place->first, Y = a.py(data_x(X) * c.value) - 4 + place->second;
    // On a white band, so that a neighbouring line a few pixels away does not cross it.
    s << "<g class='roof-label' transform='translate(" << num(X) << "," << num(Y) << ") rotate("
      << num(-angle) << ")'><rect x='-2' y='-10' width='" << num(width + 4)
      << "' height='13' fill='white' fill-opacity='0.85'/><text font-size='11' fill='" << r.color
      << "'>" << label << "</text></g>\n";
    const std::vector<Box> boxes = slant_boxes(X, Y, width);
    layout.labels.insert(layout.labels.end(), boxes.begin(), boxes.end());
  }
}

void add_roofs(const core::CeilingsFile& f, const std::string& color, const std::string& prefix,
               std::vector<Roof>& compute, std::vector<Roof>& bandwidth) {
  const RoofRange range(f);
  int i = 0;
  for (const Ceiling& c : f.ceilings) {
    if (c.kind == "compute")
      compute.push_back({&c, color.empty() ? kPalette[i++ % 8] : color, prefix, range.bw_max});
    else
      bandwidth.push_back({&c, color.empty() ? "#555" : color, prefix, range.peak});
  }
}

void draw_roofs(std::ostringstream& s, const Axes& a, const core::CeilingsFile& f, Layout& layout) {
  std::vector<Roof> compute, bandwidth;
  add_roofs(f, "", "", compute, bandwidth);
  draw_compute_roofs(s, a, compute, layout);
  draw_bandwidth_roofs(s, a, bandwidth, layout);
}

}  // namespace rooftop::report
