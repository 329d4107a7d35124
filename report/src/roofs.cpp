#include "roofs.hpp"

#include <algorithm>
#include <cmath>

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
                        std::vector<Box>* taken) {
  std::sort(roofs.begin(), roofs.end(),
            [](const Roof& x, const Roof& y) { return x.ceiling->value > y.ceiling->value; });
  double last_label_y = -1e9;
  for (const Roof& r : roofs) {
    const Ceiling& c = *r.ceiling;
    const double Y = a.py(c.value);
    const double xs = std::max(a.xmin, c.value / r.meets);
    s << "<line class='ceiling compute' x1='" << a.px(xs) << "' y1='" << Y << "' x2='" << a.x0 + a.w
      << "' y2='" << Y << "' stroke='" << r.color << "' stroke-width='2'" << dash(c) << "/>\n";
    const double label_y = std::max(Y - 4, last_label_y + 13);
    last_label_y = label_y;
    const std::string label = roof_label(r, "GFLOP/s");
    s << "<text x='" << a.x0 + a.w - 4 << "' y='" << label_y
      << "' text-anchor='end' font-size='11' fill='" << r.color << "'>" << label << "</text>\n";
    if (taken)
      taken->push_back(
          {a.x0 + a.w - 4 - text_width(label, 11), label_y - 9, a.x0 + a.w, label_y + 2});
  }
}

void draw_bandwidth_roofs(std::ostringstream& s, const Axes& a, const std::vector<Roof>& roofs,
                          std::vector<Box>* taken) {
  const double radians =
      std::atan((a.h / std::log(a.ymax / a.ymin)) / (a.w / std::log(a.xmax / a.xmin)));
  const double angle = radians * 180.0 / 3.14159265358979323846;
  // Small boxes along a slanted label whose baseline starts at (X, Y), each centred half a
  // line above the baseline.
  const auto slant_boxes = [&](double X, double Y, double width) {
    std::vector<Box> boxes;
    for (double t = 4; t < width; t += 8) {
      const double cx = X + t * std::cos(radians) + 4 * std::sin(radians);
      const double cy = Y - t * std::sin(radians) - 4 * std::cos(radians);
      boxes.push_back({cx - 5, cy - 5, cx + 5, cy + 5});
    }
    return boxes;
  };
  const auto data_x = [&](double X) {
    return a.xmin * std::pow(a.xmax / a.xmin, (X - a.x0) / a.w);
  };
  std::vector<Box> labels;  // of the roofs drawn so far: close lines (l2, l3) keep theirs apart
  for (const Roof& r : roofs) {
    const Ceiling& c = *r.ceiling;
    const double x1 = std::max(a.xmin, a.ymin / c.value);
    const double x2 = std::min(a.xmax, r.meets / c.value);
    s << "<line class='ceiling bandwidth' x1='" << a.px(x1) << "' y1='" << a.py(x1 * c.value)
      << "' x2='" << a.px(x2) << "' y2='" << a.py(x2 * c.value) << "' stroke='" << r.color
      << "' stroke-width='1.5'" << dash(c) << "/>\n";
    const std::string label = roof_label(r, "GB/s");
    const double width = text_width(label, 11);
    const double start = a.px(std::max(a.xmin * 1.2, x1 * 1.5));
    // Slid along its line until it covers no other roof's label, while it fits on the line.
    double X = start;
    const auto at = [&](double x) { return slant_boxes(x, a.py(data_x(x) * c.value) - 4, width); };
    const auto clear = [&](const std::vector<Box>& boxes) {
      for (const Box& b : boxes)
        for (const Box& l : labels)
          if (b.overlap(l) > 0.0) return false;
      return true;
    };
    while (!clear(at(X)) && X + 12 + width * std::cos(radians) < a.px(x2)) X += 12;
    if (!clear(at(X))) X = start;
    const double Y = a.py(data_x(X) * c.value) - 4;
    // On a white band, so that a neighbouring line a few pixels away does not cross it.
    s << "<g class='roof-label' transform='translate(" << num(X) << "," << num(Y) << ") rotate("
      << num(-angle) << ")'><rect x='-2' y='-10' width='" << num(width + 4)
      << "' height='13' fill='white' fill-opacity='0.85'/><text font-size='11' fill='" << r.color
      << "'>" << label << "</text></g>\n";
    const std::vector<Box> boxes = slant_boxes(X, Y, width);
    labels.insert(labels.end(), boxes.begin(), boxes.end());
    if (taken) taken->insert(taken->end(), boxes.begin(), boxes.end());
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

void draw_roofs(std::ostringstream& s, const Axes& a, const core::CeilingsFile& f,
                std::vector<Box>* taken) {
  std::vector<Roof> compute, bandwidth;
  add_roofs(f, "", "", compute, bandwidth);
  draw_compute_roofs(s, a, compute, taken);
  draw_bandwidth_roofs(s, a, bandwidth, taken);
}

}  // namespace rooftop::report
