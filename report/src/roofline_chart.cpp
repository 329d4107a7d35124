// The chart of one machine's ceilings: its roofline with the FLOPs-per-element trace on
// top, and the bandwidth sweep below with the cache levels marked.

#include <cmath>
#include <optional>
#include <utility>
#include <vector>

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
  // The legend of the trace and the note of disturbed ceilings first, at their places,
  // so that the roofs' labels keep clear of them.
  Layout layout;
  const Traces traces = flops_traces(f);
  int t = 0;
  for (const auto& [name, points] : traces.series) {
    const std::string text = "trace " + name + " (" +
                             ceilings::format_bytes(static_cast<double>(traces.working_set)) +
                             " working set)";
    s << "<circle cx='" << a.x0 + 14 << "' cy='" << a.y0 + 16 + 16 * t << "' r='4' fill='"
      << kPalette[(4 + t) % 8] << "'/><text x='" << a.x0 + 24 << "' y='" << a.y0 + 20 + 16 * t
      << "' font-size='11'>" << escape(text) << "</text>\n";
    layout.labels.push_back(
        text_box(a.x0 + 24, a.y0 + 20 + 16 * t, text_width(text, 11), 11, "start"));
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
  if (!disturbed.empty()) {
    const std::string why =
        gpu ? "median sample saw others on the GPU" : "median sample's time lost to others";
    const std::string text = "disturbed (" + why + "): " + disturbed;
    s << "<text class='disturbed' x='" << a.x0 + 14 << "' y='" << a.y0 + a.h - 10
      << "' font-size='11' fill='#b00'" << kHalo << ">disturbed (" << why
      << "): " << escape(disturbed) << "</text>\n";
    layout.labels.push_back(
        text_box(a.x0 + 14, a.y0 + a.h - 10, text_width(text, 11), 11, "start"));
  }
  draw_roofs(s, a, f, layout);

  // The FLOPs-per-element trace (points measured with the largest working set); a GPU
  // characterization has none.
  t = 0;
  for (const auto& [name, points] : traces.series) {
    for (const auto& [x, y] : points) {
      if (x < a.xmin || x > a.xmax) continue;
      s << "<circle class='trace' cx='" << a.px(x) << "' cy='" << a.py(y) << "' r='4' fill='"
        << kPalette[(4 + t) % 8] << "'><title>" << name << ": AI " << num(x, 3) << ", " << num(y)
        << " GFLOP/s</title></circle>\n";
    }
    ++t;
  }
}

// The sweep's patterns, bottom right inside the plot, however many there are; their
// labels go into `layout`.
void sweep_legend(std::ostringstream& s, const Axes& a, const SweepLines& sweep, Layout& layout) {
  const double first = a.y0 + a.h - 12 - 14 * static_cast<double>(sweep.patterns.size() - 1);
  int i = 0;
  for (const auto& [pattern, pts] : sweep.patterns) {
    const double y = std::max(a.y0 + 12, first) + 14 * i;
    s << "<line x1='" << a.x0 + a.w - 110 << "' y1='" << y << "' x2='" << a.x0 + a.w - 90
      << "' y2='" << y << "' stroke='" << kPalette[i % 8] << "' stroke-width='2'/><text x='"
      << a.x0 + a.w - 85 << "' y='" << y + 4 << "' font-size='11'>" << escape(pattern)
      << "</text>\n";
    layout.labels.push_back(text_box(a.x0 + a.w - 85, y + 4, text_width(pattern, 11), 11, "start"));
    ++i;
  }
}

// Text at the best of `spots` (Layout::place) inside the plot; none where every spot is
// taken.
bool place_text(std::ostringstream& s, const Axes& a, Layout& layout, const std::string& text,
                const std::string& style, const std::vector<Spot>& spots) {
  const std::optional<Spot> p = layout.place(text, 11, spots, {a.x0, a.y0, a.x0 + a.w, a.y0 + a.h});
  if (!p) return false;
  s << "<text x='" << num(p->x, 1) << "' y='" << num(p->y, 1) << "' text-anchor='" << p->anchor
    << "' font-size='11'" << style << ">" << escape(text) << "</text>\n";
  return true;
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
  Layout layout;
  sweep_legend(s, a, sweep, layout);
  // Levels from the hardware: capacity lines and each level's window. A GPU's levels are
  // its kernels': each point is marked and named ("l2:read") instead.
  const bool device = ceilings::is_device(f.machine);
  for (const auto& w : sweep_levels(f)) {
    if (w.name != "dram") {
      const double X = a.px(static_cast<double>(w.capacity));
      s << "<line class='level' x1='" << X << "' y1='" << a.y0 << "' x2='" << X << "' y2='"
        << a.y0 + a.h << "' stroke='#999' stroke-dasharray='4,4'/>\n";
      place_text(s, a, layout,
                 w.name + " " + ceilings::format_bytes(static_cast<double>(w.capacity)),
                 " fill='#666'",
                 {{X - 4, a.y0 + 14, "end"}, {X - 4, a.y0 + 27, "end"}, {X - 4, a.y0 + 40, "end"}});
    }
    if (const Ceiling* c = f.find(w.name)) {
      const double x1 = std::max(a.xmin, static_cast<double>(std::max<std::uint64_t>(w.lo, 1)));
      const double x2 = std::min(a.xmax, static_cast<double>(w.hi));
      const double X = (a.px(x1) + a.px(x2)) / 2, Y = a.py(c->value);
      s << "<line class='headline' x1='" << a.px(x1) << "' y1='" << Y << "' x2='" << a.px(x2)
        << "' y2='" << Y << "' stroke='#000' stroke-width='3'/>\n";
      place_text(s, a, layout, c->name + " " + num(c->value), " font-weight='bold'",
                 {{X, Y - 6, "middle"},
                  {X, Y + 15, "middle"},
                  {X - 40, Y - 6, "middle"},
                  {X + 40, Y - 6, "middle"}});
    }
  }
  int i = 0;
  for (const auto& [pattern, pts] : lines) {
    s << "<polyline class='pattern' fill='none' stroke='" << kPalette[i % 8]
      << "' stroke-width='1.5' points='";
    for (const auto& [x, y] : pts) s << num(a.px(x), 1) << "," << num(a.py(y), 1) << " ";
    s << "'/>\n";
    // A GPU's points each name their level and rate, where there is room; the tooltip
    // always does.
    for (const auto& [x, y] : pts)
      if (device) {
        const double X = a.px(x), Y = a.py(y);
        const std::string text = pattern + " " + num(y);
        s << "<circle class='point' cx='" << num(X, 1) << "' cy='" << num(Y, 1) << "' r='4' fill='"
          << kPalette[i % 8] << "'><title>" << escape(text) << "</title></circle>\n";
        layout.marks.push_back({X - 4, Y - 4, X + 4, Y + 4});
        place_text(s, a, layout, text, "",
                   {{X + 6, Y - 6, "start"},
                    {X + 6, Y + 14, "start"},
                    {X - 6, Y - 6, "end"},
                    {X - 6, Y + 14, "end"}});
      }
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
