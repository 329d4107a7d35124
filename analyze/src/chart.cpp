#include "rooftop/analyze/chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
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
  const int x_first = static_cast<int>(std::ceil(std::log(a.xmin) / std::log(xstep)));
  const int x_last = static_cast<int>(std::floor(std::log(a.xmax * 1.0001) / std::log(xstep)));
  for (int e = x_first; e <= x_last; ++e) {
    const double x = std::pow(xstep, e);
    const double X = a.px(x);
    s << "<line x1='" << X << "' y1='" << a.y0 << "' x2='" << X << "' y2='" << a.y0 + a.h
      << "' stroke='#eee'/>\n";
    const std::string label = x_bytes ? ceilings::format_bytes(x)
                                      : (x >= 1 ? num(x, 0) : "1/" + num(1.0 / x, 0));
    s << "<text x='" << X << "' y='" << a.y0 + a.h + 16
      << "' text-anchor='middle' font-size='10'>" << label << "</text>\n";
  }
  const int y_first = static_cast<int>(std::ceil(std::log10(a.ymin)));
  const int y_last = static_cast<int>(std::floor(std::log10(a.ymax * 1.0001)));
  for (int e = y_first; e <= y_last; ++e) {
    const double y = std::pow(10.0, e);
    const double Y = a.py(y);
    s << "<line x1='" << a.x0 << "' y1='" << Y << "' x2='" << a.x0 + a.w << "' y2='" << Y
      << "' stroke='#eee'/>\n";
    s << "<text x='" << a.x0 - 6 << "' y='" << Y + 4 << "' text-anchor='end' font-size='10'>"
      << num(y, y < 1 ? 2 : 0) << "</text>\n";
  }
}

// The extremes of the ceilings of one or more files: they set a roofline's axes and
// where its lines meet.
struct RoofRange {
  double peak = 1.0;     // highest compute ceiling
  double bw_max = 1.0;   // highest bandwidth
  double bw_min = 0.0;   // lowest bandwidth (0: none)

  explicit RoofRange(const ceilings::CeilingsFile& f) { add(f); }
  RoofRange() = default;
  void add(const ceilings::CeilingsFile& f) {
    for (const Ceiling& c : f.ceilings) {
      if (c.kind == "compute") {
        peak = std::max(peak, c.value);
      } else {
        bw_max = std::max(bw_max, c.value);
        bw_min = bw_min > 0.0 ? std::min(bw_min, c.value) : c.value;
      }
    }
  }
};

Axes roofline_axes(const RoofRange& r, double top) {
  Axes a{90, top + 40, 760, 420, 1.0 / 64, 1024, 0, 0};
  const double bw_min = r.bw_min > 0.0 ? r.bw_min : 1.0;
  a.ymax = std::pow(10.0, std::ceil(std::log10(r.peak * 1.6)));
  a.ymin = std::pow(10.0, std::floor(std::log10(std::min(bw_min * a.xmin, r.peak / 100))));
  return a;
}

// One ceiling line of a roofline. `meets` is the machine's ceiling of the other kind that
// bounds the line: a compute ceiling starts where the fastest bandwidth reaches it, a
// bandwidth ceiling ends where it reaches the highest compute ceiling.
struct Roof {
  const Ceiling* ceiling;
  std::string color;
  std::string prefix;  // before the name in the label ("[2] " on a comparison)
  double meets;
};

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

// Compute ceilings: horizontal lines, labelled at the right edge; labels are pushed
// apart when two ceilings are close.
void draw_compute_roofs(std::ostringstream& s, const Axes& a, std::vector<Roof> roofs) {
  std::sort(roofs.begin(), roofs.end(),
            [](const Roof& x, const Roof& y) { return x.ceiling->value > y.ceiling->value; });
  double last_label_y = -1e9;
  for (const Roof& r : roofs) {
    const Ceiling& c = *r.ceiling;
    const double Y = a.py(c.value);
    const double xs = std::max(a.xmin, c.value / r.meets);
    s << "<line class='ceiling compute' x1='" << a.px(xs) << "' y1='" << Y << "' x2='"
      << a.x0 + a.w << "' y2='" << Y << "' stroke='" << r.color << "' stroke-width='2'"
      << dash(c) << "/>\n";
    const double label_y = std::max(Y - 4, last_label_y + 13);
    last_label_y = label_y;
    s << "<text x='" << a.x0 + a.w - 4 << "' y='" << label_y
      << "' text-anchor='end' font-size='11' fill='" << r.color << "'>"
      << roof_label(r, "GFLOP/s") << "</text>\n";
  }
}

// Bandwidth ceilings: diagonals up to the compute ceiling they meet, labelled along the
// line (parallel lines keep their labels apart).
void draw_bandwidth_roofs(std::ostringstream& s, const Axes& a, const std::vector<Roof>& roofs) {
  const double angle = std::atan((a.h / std::log(a.ymax / a.ymin)) /
                                 (a.w / std::log(a.xmax / a.xmin))) * 180.0 / 3.14159265358979323846;
  for (const Roof& r : roofs) {
    const Ceiling& c = *r.ceiling;
    const double x1 = std::max(a.xmin, a.ymin / c.value);
    const double x2 = std::min(a.xmax, r.meets / c.value);
    s << "<line class='ceiling bandwidth' x1='" << a.px(x1) << "' y1='" << a.py(x1 * c.value)
      << "' x2='" << a.px(x2) << "' y2='" << a.py(x2 * c.value) << "' stroke='" << r.color
      << "' stroke-width='1.5'" << dash(c) << "/>\n";
    const double xl = std::max(a.xmin * 1.2, x1 * 1.5);
    s << "<text transform='translate(" << num(a.px(xl)) << "," << num(a.py(xl * c.value) - 4)
      << ") rotate(" << num(-angle) << ")' font-size='11' fill='" << r.color << "'>"
      << roof_label(r, "GB/s") << "</text>\n";
  }
}

// The roofs of one file; `color` empty gives each compute ceiling its own colour (the
// single-machine chart).
void add_roofs(const ceilings::CeilingsFile& f, const std::string& color, const std::string& prefix,
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

void svg_begin(std::ostringstream& s, double width, double height) {
  s << "<?xml version='1.0' encoding='UTF-8'?>\n"
    << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
    << "' viewBox='0 0 " << width << " " << height << "' font-family='sans-serif'>\n"
    << "<rect width='100%' height='100%' fill='white'/>\n";
}

void roofline_panel(std::ostringstream& s, const ceilings::CeilingsFile& f, double top) {
  const Axes a = roofline_axes(RoofRange(f), top);
  frame(s, a, "Roofline: " + ceilings::machine_name(f.machine),
        "arithmetic intensity (FLOP/byte)", "GFLOP/s", false);
  std::vector<Roof> compute, bandwidth;
  add_roofs(f, "", "", compute, bandwidth);
  draw_compute_roofs(s, a, compute);
  draw_bandwidth_roofs(s, a, bandwidth);

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
  svg_begin(s, width, height);
  roofline_panel(s, f, 0);
  sweep_panel(s, f, 540);
  s << "<text x='10' y='" << height - 8 << "' font-size='10' fill='#777'>rooftop "
    << escape(f.provenance.tool_version) << " " << escape(f.provenance.git_revision) << ", "
    << escape(f.provenance.created_utc) << ", " << escape(f.machine.hostname) << ", "
    << f.machine.threads << " threads, clock " << num(f.machine.clock_ghz, 2) << " GHz</text>\n";
  s << "</svg>\n";
  return s.str();
}

std::string comparison_svg(const std::vector<ceilings::CeilingsFile>& files,
                           const std::vector<std::string>& labels) {
  ROOFTOP_REQUIRE(labels.size() == files.size(), "one label per file");
  RoofRange range;
  for (const auto& f : files) range.add(f);
  std::ostringstream s;
  const double width = 900, height = 560;
  svg_begin(s, width, height);
  const Axes a = roofline_axes(range, 0);
  frame(s, a, "Rooflines compared", "arithmetic intensity (FLOP/byte)", "GFLOP/s", false);

  std::vector<Roof> compute, bandwidth;
  for (std::size_t k = 0; k < files.size(); ++k) {
    const std::string color = kPalette[k % 8];
    const std::string tag = "[" + std::to_string(k + 1) + "] ";
    add_roofs(files[k], color, tag, compute, bandwidth);
    // Legend: one colour per machine, top left inside the plot.
    const double y = a.y0 + 16 + 16 * static_cast<double>(k);
    s << "<line class='legend' x1='" << a.x0 + 8 << "' y1='" << y - 4 << "' x2='" << a.x0 + 28
      << "' y2='" << y - 4 << "' stroke='" << color << "' stroke-width='3'/><text x='"
      << a.x0 + 34 << "' y='" << y << "' font-size='11' fill='" << color << "'>"
      << escape(tag + labels[k] + ": " + ceilings::machine_name(files[k].machine))
      << "</text>\n";
  }
  draw_compute_roofs(s, a, compute);
  draw_bandwidth_roofs(s, a, bandwidth);
  s << "<text x='" << a.x0 << "' y='" << a.y0 + a.h + 58
    << "' font-size='11' fill='#555'>solid: FMA or measured bandwidth; dashed: separate "
       "multiply and add; dotted: theoretical, not measured</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace rooftop::analyze
