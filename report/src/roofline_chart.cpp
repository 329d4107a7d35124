// The chart of one machine's ceilings: its roofline with the FLOPs-per-element trace on
// top, and the bandwidth sweep below with the cache levels marked.

#include <cmath>

#include "chart_data.hpp"
#include "roofs.hpp"
#include "rooftop/ceilings/device_peaks.hpp"
#include "rooftop/ceilings/fields.hpp"
#include "rooftop/report/chart.hpp"
#include "svg.hpp"

namespace rooftop::report {
namespace {

using core::Ceiling;

void roofline_panel(std::ostringstream& s, const core::CeilingsFile& f, double top) {
  const Axes a = roofline_axes(RoofRange(f), top);
  frame(s, a, "Roofline: " + ceilings::machine_name(f.machine), "arithmetic intensity (FLOP/byte)",
        "GFLOP/s", false);
  draw_roofs(s, a, f);

  // The FLOPs-per-element trace (points measured with the largest working set); a GPU
  // characterization has none.
  const Traces traces = flops_traces(f);
  int t = 0;
  for (const auto& [name, points] : traces.series) {
    const char* color = kPalette[(4 + t) % 8];
    for (const auto& [x, y] : points) {
      if (x < a.xmin || x > a.xmax) continue;
      s << "<circle class='trace' cx='" << a.px(x) << "' cy='" << a.py(y) << "' r='4' fill='"
        << color << "'><title>" << name << ": AI " << num(x, 3) << ", " << num(y)
        << " GFLOP/s</title></circle>\n";
    }
    s << "<circle cx='" << a.x0 + 14 << "' cy='" << a.y0 + 16 + 16 * t << "' r='4' fill='" << color
      << "'/><text x='" << a.x0 + 24 << "' y='" << a.y0 + 20 + 16 * t << "' font-size='11'>trace "
      << name << " (" << ceilings::format_bytes(static_cast<double>(traces.working_set))
      << " working set)</text>\n";
    ++t;
  }
  // Ceilings measured while the machine was not the measurement's own may be low.
  // A host's share of time lost; a GPU sample was disturbed or not, so only the name.
  const bool gpu = !f.machine.gpu_name.empty();
  std::string disturbed;
  for (const Ceiling& c : f.ceilings)
    if (c.disturbed())
      disturbed += (disturbed.empty() ? "" : ", ") + c.name +
                   (gpu ? "" : " (" + num(100.0 * *c.disturbance, 0) + "%)");
  if (!disturbed.empty())
    s << "<text class='disturbed' x='" << a.x0 + 14 << "' y='" << a.y0 + a.h - 10
      << "' font-size='11' fill='#b00'" << kHalo << ">disturbed ("
      << (gpu ? "median sample saw others on the GPU" : "median sample's time lost to others")
      << "): " << escape(disturbed) << "</text>\n";
}

void sweep_panel(std::ostringstream& s, const core::CeilingsFile& f, double top) {
  const SweepLines sweep = sweep_lines(f);
  const auto& lines = sweep.patterns;
  if (lines.empty()) return;
  Axes a{90, top + 40, 760, 360, sweep.lo / 1.5, sweep.hi * 1.5, 0, 0};
  a.ymax = std::pow(10.0, std::ceil(std::log10(sweep.rate_max * 1.3)));
  a.ymin = std::pow(10.0, std::floor(std::log10(sweep.rate_min / 1.3)));
  frame(s, a, "Bandwidth sweep (" + std::to_string(f.machine.threads) + " threads)",
        "working set (all threads)", "GB/s", true);
  // Levels from the hardware: capacity lines and each level's window. A GPU's levels are
  // its kernels': each point is marked and named ("l2:read") instead.
  const bool device = ceilings::is_device(f.machine);
  for (const auto& w : sweep_levels(f)) {
    if (w.name != "dram") {
      const double X = a.px(static_cast<double>(w.capacity));
      s << "<line class='level' x1='" << X << "' y1='" << a.y0 << "' x2='" << X << "' y2='"
        << a.y0 + a.h << "' stroke='#999' stroke-dasharray='4,4'/>\n";
      s << "<text x='" << X - 4 << "' y='" << a.y0 + 14
        << "' text-anchor='end' font-size='11' fill='#666'>" << w.name << " "
        << ceilings::format_bytes(static_cast<double>(w.capacity)) << "</text>\n";
    }
    if (const Ceiling* c = f.find(w.name)) {
      const double x1 = std::max(a.xmin, static_cast<double>(std::max<std::uint64_t>(w.lo, 1)));
      const double x2 = std::min(a.xmax, static_cast<double>(w.hi));
      s << "<line class='headline' x1='" << a.px(x1) << "' y1='" << a.py(c->value) << "' x2='"
        << a.px(x2) << "' y2='" << a.py(c->value) << "' stroke='#000' stroke-width='3'/>\n";
      s << "<text x='" << (a.px(x1) + a.px(x2)) / 2 << "' y='" << a.py(c->value) - 6
        << "' text-anchor='middle' font-size='11' font-weight='bold'>" << c->name << " "
        << num(c->value) << "</text>\n";
    }
  }
  int i = 0;
  for (const auto& [pattern, pts] : lines) {
    s << "<polyline class='pattern' fill='none' stroke='" << kPalette[i % 8]
      << "' stroke-width='1.5' points='";
    for (const auto& [x, y] : pts) s << num(a.px(x), 1) << "," << num(a.py(y), 1) << " ";
    s << "'/>\n";
    for (const auto& [x, y] : pts)
      if (device)
        s << "<circle class='point' cx='" << num(a.px(x), 1) << "' cy='" << num(a.py(y), 1)
          << "' r='4' fill='" << kPalette[i % 8] << "'/><text x='" << num(a.px(x) + 6, 1) << "' y='"
          << num(a.py(y) - 6, 1) << "' font-size='11'>" << pattern << " " << num(y) << "</text>\n";
    s << "<line x1='" << a.x0 + a.w - 110 << "' y1='" << a.y0 + a.h - 80 + 14 * i << "' x2='"
      << a.x0 + a.w - 90 << "' y2='" << a.y0 + a.h - 80 + 14 * i << "' stroke='" << kPalette[i % 8]
      << "' stroke-width='2'/><text x='" << a.x0 + a.w - 85 << "' y='" << a.y0 + a.h - 76 + 14 * i
      << "' font-size='11'>" << pattern << "</text>\n";
    ++i;
  }
}

}  // namespace

std::string roofline_svg(const core::CeilingsFile& f) {
  std::ostringstream s;
  const double width = 900, height = 1040;
  svg_begin(s, width, height);
  roofline_panel(s, f, 0);
  sweep_panel(s, f, 540);
  provenance_footer(s, f, height - 8);
  s << "</svg>\n";
  return s.str();
}

}  // namespace rooftop::report
