#include "rooftop/analyze/chart.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "rooftop/ceilings/error.hpp"
#include "rooftop/ceilings/extract.hpp"
#include "rooftop/ceilings/report.hpp"
#include "rooftop/ceilings/statistics.hpp"

namespace rooftop::analyze {
namespace {

using ceilings::Ceiling;

const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                          "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

std::string num(double v, int digits = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

// A log-log plotting area inside the SVG.
struct Axes {
  double x0, y0, w, h;            // pixel box
  double xmin, xmax, ymin, ymax;  // data range (positive)
  double px(double x) const { return x0 + w * std::log(x / xmin) / std::log(xmax / xmin); }
  double py(double y) const { return y0 + h - h * std::log(y / ymin) / std::log(ymax / ymin); }
};

void frame(std::ostringstream& s, const Axes& a, const std::string& title,
           const std::string& xlabel, const std::string& ylabel, bool x_bytes) {
  s << "<rect x='" << a.x0 << "' y='" << a.y0 << "' width='" << a.w << "' height='" << a.h
    << "' fill='none' stroke='#333'/>\n";
  s << "<text x='" << a.x0 + a.w / 2 << "' y='" << a.y0 - 12
    << "' text-anchor='middle' font-size='15' font-weight='bold'>" << escape(title) << "</text>\n";
  s << "<text x='" << a.x0 + a.w / 2 << "' y='" << a.y0 + a.h + 38
    << "' text-anchor='middle' font-size='13'>" << escape(xlabel) << "</text>\n";
  s << "<text transform='translate(" << a.x0 - 52 << "," << a.y0 + a.h / 2
    << ") rotate(-90)' text-anchor='middle' font-size='13'>" << escape(ylabel) << "</text>\n";
  // Decade (or power-of-4 bytes) ticks with light grid lines.
  const double xstep = x_bytes ? 4.0 : 2.0;
  for (double x = std::pow(xstep, std::ceil(std::log(a.xmin) / std::log(xstep)) - 0);
       x <= a.xmax * 1.0001; x *= xstep) {
    const double X = a.px(x);
    s << "<line x1='" << X << "' y1='" << a.y0 << "' x2='" << X << "' y2='" << a.y0 + a.h
      << "' stroke='#eee'/>\n";
    const std::string label = x_bytes ? ceilings::format_bytes(x)
                                      : (x >= 1 ? num(x, 0) : "1/" + num(1.0 / x, 0));
    s << "<text x='" << X << "' y='" << a.y0 + a.h + 16
      << "' text-anchor='middle' font-size='10'>" << label << "</text>\n";
  }
  for (double y = std::pow(10.0, std::ceil(std::log10(a.ymin))); y <= a.ymax * 1.0001; y *= 10) {
    const double Y = a.py(y);
    s << "<line x1='" << a.x0 << "' y1='" << Y << "' x2='" << a.x0 + a.w << "' y2='" << Y
      << "' stroke='#eee'/>\n";
    s << "<text x='" << a.x0 - 6 << "' y='" << Y + 4 << "' text-anchor='end' font-size='10'>"
      << num(y, y < 1 ? 2 : 0) << "</text>\n";
  }
}

void roofline_panel(std::ostringstream& s, const ceilings::CeilingsFile& f, double top) {
  std::vector<const Ceiling*> compute, bandwidth;
  for (const Ceiling& c : f.ceilings) (c.kind == "compute" ? compute : bandwidth).push_back(&c);
  double peak = 1.0, bw_max = 1.0, bw_min = 1e30;
  for (auto* c : compute) peak = std::max(peak, c->value);
  for (auto* c : bandwidth) bw_max = std::max(bw_max, c->value), bw_min = std::min(bw_min, c->value);
  if (bandwidth.empty()) bw_min = 1.0;

  Axes a{90, top + 40, 760, 420, 1.0 / 64, 1024, 0, 0};
  a.ymax = std::pow(10.0, std::ceil(std::log10(peak * 1.6)));
  a.ymin = std::pow(10.0, std::floor(std::log10(std::min(bw_min * a.xmin, peak / 100))));
  frame(s, a, "Roofline: " + (f.machine.gpu_name.empty() ? f.machine.cpu_model : f.machine.gpu_name),
        "arithmetic intensity (FLOP/byte)", "GFLOP/s", false);

  // Compute ceilings: horizontal lines from where the fastest memory level meets them.
  // Labels are pushed apart when two ceilings are close.
  std::sort(compute.begin(), compute.end(),
            [](const Ceiling* x, const Ceiling* y) { return x->value > y->value; });
  double last_label_y = -1e9;
  int i = 0;
  for (auto* c : compute) {
    const double Y = a.py(c->value);
    const double xs = std::max(a.xmin, c->value / bw_max);
    const char* color = kPalette[i % 8];
    s << "<line class='ceiling compute' x1='" << a.px(xs) << "' y1='" << Y << "' x2='"
      << a.x0 + a.w << "' y2='" << Y << "' stroke='" << color << "' stroke-width='2'"
      << (c->name.find("nofma") != std::string::npos ? " stroke-dasharray='6,3'" : "") << "/>\n";
    const double label_y = std::max(Y - 4, last_label_y + 13);
    last_label_y = label_y;
    s << "<text x='" << a.x0 + a.w - 4 << "' y='" << label_y
      << "' text-anchor='end' font-size='11' fill='" << color << "'>" << c->name << " "
      << num(c->value) << " GFLOP/s</text>\n";
    ++i;
  }
  // Bandwidth ceilings: diagonals up to the highest compute ceiling, labelled along
  // the line (parallel lines keep their labels apart).
  const double angle = std::atan((a.h / std::log(a.ymax / a.ymin)) /
                                 (a.w / std::log(a.xmax / a.xmin))) * 180.0 / 3.14159265358979323846;
  for (auto* c : bandwidth) {
    const double x1 = std::max(a.xmin, a.ymin / c->value);
    const double x2 = std::min(a.xmax, peak / c->value);
    s << "<line class='ceiling bandwidth' x1='" << a.px(x1) << "' y1='" << a.py(x1 * c->value)
      << "' x2='" << a.px(x2) << "' y2='" << a.py(x2 * c->value) << "' stroke='#555'"
      << " stroke-width='1.5'/>\n";
    const double xl = std::max(a.xmin * 1.2, x1 * 1.5);
    s << "<text transform='translate(" << num(a.px(xl)) << "," << num(a.py(xl * c->value) - 4)
      << ") rotate(" << num(-angle) << ")' font-size='11' fill='#333'>" << c->name << " "
      << num(c->value) << " GB/s</text>\n";
  }
  // The FLOPs-per-element trace (points measured with the largest working set).
  std::uint64_t trace_ws = 0;
  for (const auto& p : f.sweeps.compute) trace_ws = std::max(trace_ws, p.working_set_bytes);
  std::map<std::string, std::vector<std::pair<double, double>>> traces;
  for (const auto& p : f.sweeps.compute) {
    if (p.working_set_bytes != trace_ws || p.rates.empty()) continue;
    const double bytes = 2.0 * (p.precision == "fp64" ? 8 : 4);  // read + write per element
    traces[p.precision + " " + p.mode].push_back(
        {p.flops_per_element / bytes, ceilings::summarize(p.rates).median});
  }
  int t = 0;
  for (const auto& [name, points] : traces) {
    const char* color = kPalette[(4 + t) % 8];
    for (const auto& [x, y] : points) {
      if (x < a.xmin || x > a.xmax) continue;
      s << "<circle class='trace' cx='" << a.px(x) << "' cy='" << a.py(y) << "' r='4' fill='"
        << color << "'><title>" << name << ": AI " << num(x, 3) << ", " << num(y)
        << " GFLOP/s</title></circle>\n";
    }
    s << "<circle cx='" << a.x0 + 14 << "' cy='" << a.y0 + 16 + 16 * t << "' r='4' fill='" << color
      << "'/><text x='" << a.x0 + 24 << "' y='" << a.y0 + 20 + 16 * t
      << "' font-size='11'>trace " << name << " ("
      << ceilings::format_bytes(static_cast<double>(trace_ws)) << " working set)</text>\n";
    ++t;
  }
}

void sweep_panel(std::ostringstream& s, const ceilings::CeilingsFile& f, double top) {
  std::map<std::string, std::vector<std::pair<double, double>>> lines;
  double lo = 1e300, hi = 0, rmax = 1.0, rmin = 1e300;
  for (const auto& p : f.sweeps.bandwidth) {
    if (p.rates.empty()) continue;
    const double m = ceilings::summarize(p.rates).median;
    lines[p.pattern].push_back({static_cast<double>(p.working_set_bytes), m});
    lo = std::min(lo, static_cast<double>(p.working_set_bytes));
    hi = std::max(hi, static_cast<double>(p.working_set_bytes));
    rmax = std::max(rmax, m);
    rmin = std::min(rmin, m);
  }
  if (lines.empty()) return;
  Axes a{90, top + 40, 760, 360, lo / 1.5, hi * 1.5, 0, 0};
  a.ymax = std::pow(10.0, std::ceil(std::log10(rmax * 1.3)));
  a.ymin = std::pow(10.0, std::floor(std::log10(rmin / 1.3)));
  frame(s, a, "Bandwidth sweep (" + std::to_string(f.machine.threads) + " threads)",
        "working set (all threads)", "GB/s", true);
  // Levels from the hardware: capacity lines and each level's window.
  for (const auto& w : ceilings::level_windows(f.machine)) {
    if (w.name != "dram") {
      const double X = a.px(static_cast<double>(w.capacity));
      s << "<line class='level' x1='" << X << "' y1='" << a.y0 << "' x2='" << X << "' y2='"
        << a.y0 + a.h << "' stroke='#999' stroke-dasharray='4,4'/>\n";
      s << "<text x='" << X - 4 << "' y='" << a.y0 + 14 << "' text-anchor='end' font-size='11' fill='#666'>"
        << w.name << " " << ceilings::format_bytes(static_cast<double>(w.capacity)) << "</text>\n";
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
  for (auto& [pattern, pts] : lines) {
    std::sort(pts.begin(), pts.end());
    s << "<polyline class='pattern' fill='none' stroke='" << kPalette[i % 8]
      << "' stroke-width='1.5' points='";
    for (const auto& [x, y] : pts) s << num(a.px(x), 1) << "," << num(a.py(y), 1) << " ";
    s << "'/>\n";
    s << "<line x1='" << a.x0 + a.w - 110 << "' y1='" << a.y0 + a.h - 80 + 14 * i << "' x2='"
      << a.x0 + a.w - 90 << "' y2='" << a.y0 + a.h - 80 + 14 * i << "' stroke='" << kPalette[i % 8]
      << "' stroke-width='2'/><text x='" << a.x0 + a.w - 85 << "' y='"
      << a.y0 + a.h - 76 + 14 * i << "' font-size='11'>" << pattern << "</text>\n";
    ++i;
  }
}

}  // namespace

std::string roofline_svg(const ceilings::CeilingsFile& f) {
  std::ostringstream s;
  const double width = 900, height = 1040;
  s << "<?xml version='1.0' encoding='UTF-8'?>\n"
    << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
    << "' viewBox='0 0 " << width << " " << height << "' font-family='sans-serif'>\n"
    << "<rect width='100%' height='100%' fill='white'/>\n";
  roofline_panel(s, f, 0);
  sweep_panel(s, f, 540);
  s << "<text x='10' y='" << height - 8 << "' font-size='10' fill='#777'>rooftop "
    << escape(f.provenance.tool_version) << " " << escape(f.provenance.git_revision) << ", "
    << escape(f.provenance.created_utc) << ", " << escape(f.machine.hostname) << ", "
    << f.machine.threads << " threads, clock " << num(f.machine.clock_ghz, 2) << " GHz</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace rooftop::analyze
