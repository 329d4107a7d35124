#include "rooftop/report/chart.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "rooftop/ceilings/device_peaks.hpp"
#include "rooftop/ceilings/extract.hpp"
#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/roofline.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::analyze {
namespace {

using ceilings::Ceiling;

const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                          "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

std::string num(double v, int digits = 1) { return core::fixed(v, digits); }

// Text and attribute values (attributes are single-quoted); control characters are not
// allowed in XML 1.0 at all.
std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' ? '?' : c;
    }
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

// The whole exponents e with step^e in [lo, hi]: none where the range is not finite or
// spans more than a chart can show (a damaged value must not become billions of grid lines).
bool tick_exponents(double lo, double hi, double step, int& first, int& last) {
  const double from = std::ceil(std::log(lo) / std::log(step));
  const double to = std::floor(std::log(hi * 1.0001) / std::log(step));
  if (!std::isfinite(from) || !std::isfinite(to) || to - from > 400) return false;
  first = static_cast<int>(from);
  last = static_cast<int>(to);
  return true;
}

void frame(std::ostringstream& s, const Axes& a, const std::string& title,
           const std::string& xlabel, const std::string& ylabel, bool x_bytes) {
  s << "<rect class='plot' x='" << a.x0 << "' y='" << a.y0 << "' width='" << a.w << "' height='"
    << a.h << "' fill='none' stroke='#333'/>\n";
  s << "<text x='" << a.x0 + a.w / 2 << "' y='" << a.y0 - 12
    << "' text-anchor='middle' font-size='15' font-weight='bold'>" << escape(title) << "</text>\n";
  s << "<text x='" << a.x0 + a.w / 2 << "' y='" << a.y0 + a.h + 38
    << "' text-anchor='middle' font-size='13'>" << escape(xlabel) << "</text>\n";
  s << "<text transform='translate(" << a.x0 - 52 << "," << a.y0 + a.h / 2
    << ") rotate(-90)' text-anchor='middle' font-size='13'>" << escape(ylabel) << "</text>\n";
  // Decade (or power-of-4 bytes) ticks with light grid lines.
  const double xstep = x_bytes ? 4.0 : 2.0;
  int x_first = 0, x_last = -1;
  if (!tick_exponents(a.xmin, a.xmax, xstep, x_first, x_last)) x_last = x_first - 1;
  // A wide range (kernels far off the usual one) labels every other tick so labels stay apart.
  const int label_every = x_last - x_first >= 18 ? 2 : 1;
  for (int e = x_first; e <= x_last; ++e) {
    const double x = std::pow(xstep, e);
    const double X = a.px(x);
    s << "<line x1='" << X << "' y1='" << a.y0 << "' x2='" << X << "' y2='" << a.y0 + a.h
      << "' stroke='#eee'/>\n";
    if (e % label_every != 0) continue;
    const std::string label =
        x_bytes ? ceilings::format_bytes(x) : (x >= 1 ? num(x, 0) : "1/" + num(1.0 / x, 0));
    s << "<text x='" << X << "' y='" << a.y0 + a.h + 16 << "' text-anchor='middle' font-size='10'>"
      << label << "</text>\n";
  }
  int y_first = 0, y_last = -1;
  if (!tick_exponents(a.ymin, a.ymax, 10.0, y_first, y_last)) y_last = y_first - 1;
  for (int e = y_first; e <= y_last; ++e) {
    const double y = std::pow(10.0, e);
    const double Y = a.py(y);
    s << "<line x1='" << a.x0 << "' y1='" << Y << "' x2='" << a.x0 + a.w << "' y2='" << Y
      << "' stroke='#eee'/>\n";
    s << "<text x='" << a.x0 - 6 << "' y='" << Y + 4 << "' text-anchor='end' font-size='10'>"
      << num(y, y < 1 ? 2 : 0) << "</text>\n";
  }
}

// Rough width of sans-serif text (there are no font metrics here).
double text_width(const std::string& text, double font_size) {
  return 0.58 * font_size * static_cast<double>(text.size());
}

// An axis-aligned box in pixels: markers and labels, to keep labels apart.
struct Box {
  double x0, y0, x1, y1;
  double overlap(const Box& o) const {
    const double w = std::min(x1, o.x1) - std::max(x0, o.x0);
    const double h = std::min(y1, o.y1) - std::max(y0, o.y0);
    return w > 0.0 && h > 0.0 ? w * h : 0.0;
  }
};

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

// The usual intensity range, widened by powers of two and decades to every point with
// a margin, so that no point sits on the frame.
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
// apart when two ceilings are close. `taken`, where given, receives the labels' boxes.
void draw_compute_roofs(std::ostringstream& s, const Axes& a, std::vector<Roof> roofs,
                        std::vector<Box>* taken = nullptr) {
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

// Bandwidth ceilings: diagonals up to the compute ceiling they meet, labelled along the
// line (parallel lines keep their labels apart). `taken`, where given, receives boxes
// that cover the slanted labels.
void draw_bandwidth_roofs(std::ostringstream& s, const Axes& a, const std::vector<Roof>& roofs,
                          std::vector<Box>* taken = nullptr) {
  const double radians =
      std::atan((a.h / std::log(a.ymax / a.ymin)) / (a.w / std::log(a.xmax / a.xmin)));
  const double angle = radians * 180.0 / 3.14159265358979323846;
  for (const Roof& r : roofs) {
    const Ceiling& c = *r.ceiling;
    const double x1 = std::max(a.xmin, a.ymin / c.value);
    const double x2 = std::min(a.xmax, r.meets / c.value);
    s << "<line class='ceiling bandwidth' x1='" << a.px(x1) << "' y1='" << a.py(x1 * c.value)
      << "' x2='" << a.px(x2) << "' y2='" << a.py(x2 * c.value) << "' stroke='" << r.color
      << "' stroke-width='1.5'" << dash(c) << "/>\n";
    const double xl = std::max(a.xmin * 1.2, x1 * 1.5);
    const std::string label = roof_label(r, "GB/s");
    const double X = a.px(xl), Y = a.py(xl * c.value) - 4;
    s << "<text transform='translate(" << num(X) << "," << num(Y) << ") rotate(" << num(-angle)
      << ")' font-size='11' fill='" << r.color << "'>" << label << "</text>\n";
    // Small boxes along the slant, each centred half a line above the baseline.
    for (double t = 4; taken && t < text_width(label, 11); t += 8) {
      const double cx = X + t * std::cos(radians) + 4 * std::sin(radians);
      const double cy = Y - t * std::sin(radians) - 4 * std::cos(radians);
      taken->push_back({cx - 5, cy - 5, cx + 5, cy + 5});
    }
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

// The ceilings of one machine, each compute ceiling in its own colour.
void draw_roofs(std::ostringstream& s, const Axes& a, const ceilings::CeilingsFile& f,
                std::vector<Box>* taken = nullptr) {
  std::vector<Roof> compute, bandwidth;
  add_roofs(f, "", "", compute, bandwidth);
  draw_compute_roofs(s, a, compute, taken);
  draw_bandwidth_roofs(s, a, bandwidth, taken);
}

void svg_begin(std::ostringstream& s, double width, double height) {
  s << "<?xml version='1.0' encoding='UTF-8'?>\n"
    << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
    << "' viewBox='0 0 " << width << " " << height << "' font-family='sans-serif'>\n"
    << "<rect width='100%' height='100%' fill='white'/>\n";
}

void roofline_panel(std::ostringstream& s, const ceilings::CeilingsFile& f, double top) {
  const Axes a = roofline_axes(RoofRange(f), top);
  frame(s, a, "Roofline: " + ceilings::machine_name(f.machine), "arithmetic intensity (FLOP/byte)",
        "GFLOP/s", false);
  draw_roofs(s, a, f);

  // The FLOPs-per-element trace (points measured with the largest working set); a GPU
  // characterization has none.
  std::uint64_t trace_ws = 0;
  for (const auto& p : f.sweeps.compute) trace_ws = std::max(trace_ws, p.working_set_bytes);
  std::map<std::string, std::vector<std::pair<double, double>>> traces;
  for (const auto& p : f.sweeps.compute) {
    if (ceilings::is_device(f.machine)) break;
    if (p.working_set_bytes != trace_ws || p.rates.empty()) continue;
    const core::Precision* precision = core::find_precision(p.precision);
    const double bytes = 2.0 * (precision ? precision->bytes : 4);  // read + write per element
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
      << "'/><text x='" << a.x0 + 24 << "' y='" << a.y0 + 20 + 16 * t << "' font-size='11'>trace "
      << name << " (" << ceilings::format_bytes(static_cast<double>(trace_ws))
      << " working set)</text>\n";
    ++t;
  }
}

void sweep_panel(std::ostringstream& s, const ceilings::CeilingsFile& f, double top) {
  // pattern -> working set -> median; a point measured again (the re-measurement
  // passes) shows its best median, the one extraction ranks.
  std::map<std::string, std::map<double, double>> lines;
  double lo = 1e300, hi = 0, rmax = 1.0, rmin = 1e300;
  for (const auto& p : f.sweeps.bandwidth) {
    if (p.rates.empty() || p.working_set_bytes == 0) continue;  // no place on a log axis
    const double m = ceilings::summarize(p.rates).median;
    const double ws = static_cast<double>(p.working_set_bytes);
    auto [it, fresh] = lines[p.pattern].emplace(ws, m);
    if (!fresh) it->second = std::max(it->second, m);
    lo = std::min(lo, ws);
    hi = std::max(hi, ws);
    rmax = std::max(rmax, m);
    rmin = std::min(rmin, m);
  }
  if (lines.empty()) return;
  Axes a{90, top + 40, 760, 360, lo / 1.5, hi * 1.5, 0, 0};
  a.ymax = std::pow(10.0, std::ceil(std::log10(rmax * 1.3)));
  a.ymin = std::pow(10.0, std::floor(std::log10(rmin / 1.3)));
  frame(s, a, "Bandwidth sweep (" + std::to_string(f.machine.threads) + " threads)",
        "working set (all threads)", "GB/s", true);
  // Levels from the hardware: capacity lines and each level's window. A GPU's levels are
  // its kernels': each point is marked and named ("l2:read") instead.
  const bool device = ceilings::is_device(f.machine);
  for (const auto& w :
       device ? std::vector<ceilings::LevelWindow>{} : ceilings::level_windows(f.machine)) {
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

// Where the ceilings come from, along the bottom edge.
void provenance_footer(std::ostringstream& s, const ceilings::CeilingsFile& f, double y) {
  s << "<text x='10' y='" << y << "' font-size='10' fill='#777'>rooftop "
    << escape(f.provenance.tool_version) << " " << escape(f.provenance.git_revision) << ", "
    << escape(f.provenance.created_utc) << ", " << escape(f.machine.hostname) << ", "
    << f.machine.threads << " threads, clock " << num(f.machine.clock_ghz, 2) << " GHz</text>\n";
}

// The hierarchical roofline of kernels.

// Kernel colours: the palette without its red, which flags points above a ceiling.
const char* kernel_color(std::size_t i) {
  static const int kNotRed[] = {0, 2, 3, 4, 5, 6, 7};
  return kPalette[kNotRed[i % 7]];
}

// Memory levels innermost first; a level rooftop does not name comes last.
int level_rank(const std::string& level) { return core::level_rank(level); }

// One marker shape per level, centred on the origin (each marker is a translated group).
std::string level_shape(const std::string& level, const std::string& style) {
  switch (level_rank(level)) {
    case 0:
      return "<circle r='5.5'" + style + "/>";
    case 1:
      return "<polygon points='0,6.5 6.5,-4.5 -6.5,-4.5'" + style + "/>";
    case 2:
      return "<rect x='-5' y='-5' width='10' height='10'" + style + "/>";
    case 3:
      return "<polygon points='0,-6.5 6.5,4.5 -6.5,4.5'" + style + "/>";
    case 4:
      return "<polygon points='0,-7 7,0 0,7 -7,0'" + style + "/>";
    default:
      return "<polygon points='-2,-6 2,-6 2,-2 6,-2 6,2 2,2 2,6 -2,6 -2,2 -6,2 -6,-2 -2,-2'" +
             style + "/>";
  }
}

// A level name as a class name: letters, digits and '-' only.
std::string class_name(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out;
}

// Three significant digits without an exponent: rates and fractions in the table.
std::string three_digits(double v) {
  if (v <= 0.0) return "0";
  // Clamped as a double: the exponent of a denormal or of infinity overflows an int.
  const double digits = 2.0 - std::floor(std::log10(v));
  return num(v, static_cast<int>(std::clamp(digits, 0.0, 6.0)));
}

// A white outline under text keeps it readable where it crosses a line.
const char* const kHalo = " stroke='white' stroke-width='3' paint-order='stroke'";

bool utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// `text` in lines of at most `width` characters, broken after a separator where there is
// one; past `max_lines` the last line keeps the start and the end of the rest with an
// ellipsis between, since the end of a Kokkos label is what tells kernels apart.
std::vector<std::string> wrap(const std::string& text, std::size_t width, std::size_t max_lines) {
  std::vector<std::string> lines;
  std::string rest = text;
  while (rest.size() > width && lines.size() + 1 < max_lines) {
    // The last break in the second half of the line: after a space or comma if there is
    // one, else after a scope or other punctuation, else anywhere.
    std::size_t cut = width;
    for (const char* separators : {" ,", ":>)]", "_/.-"}) {
      std::size_t i = width;
      while (i > width / 2 && !std::strchr(separators, rest[i - 1])) --i;
      if (i > width / 2) {
        cut = i;
        break;
      }
    }
    while (cut > 1 && utf8_continuation(rest[cut])) --cut;
    lines.push_back(rest.substr(0, cut));
    rest = rest.substr(cut);
  }
  if (rest.size() > width) {
    const std::size_t tail = (width - 1) * 2 / 3;
    std::size_t head = width - 1 - tail, from = rest.size() - tail;
    while (head > 0 && utf8_continuation(rest[head])) --head;
    while (from < rest.size() && utf8_continuation(rest[from])) ++from;
    rest = rest.substr(0, head) + "\xE2\x80\xA6" + rest.substr(from);
  }
  lines.push_back(rest);
  return lines;
}

struct Label {
  double x, y;  // text anchor and baseline
  const char* anchor;
  Box box;
};

// A marker's label goes where it covers the least of the markers and labels already
// placed and stays inside the plot; ties go to the first candidate (right of the marker).
Label place_label(double X, double Y, double width, const Axes& a, const std::vector<Box>& taken) {
  struct Candidate {
    double dx, dy;  // anchor and baseline from the marker's centre
    const char* anchor;
  };
  static const Candidate kCandidates[] = {{9, 4, "start"},   {-9, 4, "end"},   {0, -10, "middle"},
                                          {0, 18, "middle"}, {7, -7, "start"}, {7, 15, "start"},
                                          {-7, -7, "end"},   {-7, 15, "end"}};
  const Box plot{a.x0, a.y0, a.x0 + a.w, a.y0 + a.h};
  Label best{};
  double best_cost = 1e300;
  for (const Candidate& c : kCandidates) {
    const double x = X + c.dx, y = Y + c.dy;
    const double left = c.anchor[0] == 's' ? x : c.anchor[0] == 'e' ? x - width : x - width / 2;
    const Box box{left, y - 9, left + width, y + 2};
    double cost = ((box.x1 - box.x0) * (box.y1 - box.y0) - box.overlap(plot)) * 100;
    for (const Box& t : taken) cost += box.overlap(t);
    if (cost < best_cost - 0.01) {  // areas in square pixels, with rounding noise
      best_cost = cost;
      best = {x, y, c.anchor, box};
    }
  }
  return best;
}

// An arrow between the centres of two markers, stopping short of both so that the head
// shows; markers that nearly coincide keep the whole (short) line.
void draw_step(std::ostringstream& s, double xa, double ya, double xb, double yb) {
  const double gap = 9.0, d = std::hypot(xb - xa, yb - ya);
  const double t = d > 3 * gap ? gap / d : 0.0;
  s << "<line class='step' x1='" << num(xa + (xb - xa) * t) << "' y1='" << num(ya + (yb - ya) * t)
    << "' x2='" << num(xb - (xb - xa) * t) << "' y2='" << num(yb - (yb - ya) * t)
    << "' stroke='#777' stroke-width='1.2' marker-end='url(#rooftop-step)'/>\n";
}

// One kernel as the chart draws it.
struct KernelRow {
  ceilings::KernelRecord kernel;
  std::string id;      // the short id, or the row number where the record has none
  std::string color;   // empty where nothing is drawn
  std::string status;  // why nothing is drawn, or the ceilings the kernel lies above
  bool above = false;  // timed, and above a ceiling
  std::optional<ComputeRoof> compute;  // the kernel's compute roof for its FMA mix
  struct Point {
    std::string level;
    double ai, rate, X, Y;
  };
  std::vector<Point> points;  // one per level with a byte count
};

std::vector<KernelRow> kernel_rows(const ceilings::CeilingsFile& file) {
  std::vector<KernelRow> rows;
  std::size_t drawn = 0;
  for (const ceilings::KernelRecord& k : file.kernels) {
    KernelRow row{k, k.id.empty() ? "#" + std::to_string(rows.size() + 1) : k.id, "", "", false, {},
                  {}};
    // Records the analyzer wrote carry their placement; others are placed here.
    const Placement placement = place(k, file);
    if (row.kernel.limiter.empty()) apply(placement, row.kernel);
    row.compute = placement.compute;
    if (k.time_s <= 0.0) {
      row.status = "no time";
    } else if (k.flops() <= 0.0) {
      row.status = "no FLOPs";
    } else {
      for (const ceilings::LevelBytes& b : k.bytes) {
        const std::optional<double> ai = arithmetic_intensity(k, b.level);
        if (ai && *ai > 0.0) row.points.push_back({b.level, *ai, k.gflop_per_s(), 0, 0});
      }
      std::stable_sort(row.points.begin(), row.points.end(), [](const auto& p, const auto& q) {
        return level_rank(p.level) < level_rank(q.level);
      });
      if (row.points.empty())
        row.status = "no byte counts";
      else
        row.color = kernel_color(drawn++);
    }
    row.above = k.time_s > 0.0 && !row.kernel.above.empty();
    if (row.above) row.status = "above ceiling: " + row.kernel.above;
    rows.push_back(std::move(row));
  }
  return rows;
}

// A compute roof for a mix of FMAs and separate operations is no measured ceiling: each
// one kernels are held to is drawn across their markers only, so that a point flagged
// above it shows why.
void draw_mix_roofs(std::ostringstream& s, const Axes& a, const ceilings::CeilingsFile& file,
                    const std::vector<KernelRow>& rows, std::vector<Box>& taken) {
  struct Span {
    double value, lo = 1e300, hi = 0.0;
    std::string ids;
  };
  std::map<std::string, Span> spans;  // by the label, which shows the roof's value
  for (const KernelRow& r : rows) {
    if (r.points.empty() || !r.compute || file.find(r.compute->ceiling)) continue;
    const std::string label = r.compute->ceiling + " " + num(r.compute->gflop_per_s) + " GFLOP/s";
    Span& span =
        spans.try_emplace(label, Span{r.compute->gflop_per_s, 1e300, 0.0, ""}).first->second;
    for (const auto& p : r.points) {
      span.lo = std::min(span.lo, p.X);
      span.hi = std::max(span.hi, p.X);
    }
    span.ids += (span.ids.empty() ? "" : ", ") + r.id;
  }
  for (const auto& [label, span] : spans) {
    const double Y = a.py(span.value);
    const double x1 = std::max(a.x0, span.lo - 30), x2 = std::min(a.x0 + a.w, span.hi + 30);
    const double w = text_width(label, 10);
    // Inline before the line's start or after its end, else above its start.
    double lx = x1 - 4 - w, ly = Y + 3;
    if (lx < a.x0) lx = x2 + 4;
    if (lx + w > a.x0 + a.w) lx = x1, ly = Y - 3;
    s << "<line class='kernel-roof' x1='" << num(x1) << "' y1='" << num(Y) << "' x2='" << num(x2)
      << "' y2='" << num(Y) << "' stroke='#888' stroke-width='1.2' stroke-dasharray='8,3,2,3'/>"
      << "<text x='" << num(lx) << "' y='" << num(ly) << "' font-size='10' fill='#888'" << kHalo
      << "><title>"
      << escape("compute roof of " + span.ids + " for their mix of FMAs and separate operations")
      << "</title>" << escape(label) << "</text>\n";
    taken.push_back({lx, ly - 8, lx + w, ly + 2});
  }
}

// The versions of each group in `order`, each joined by an arrow to the next drawn one at
// every level both have. Returns whether any arrow was drawn.
bool draw_steps(std::ostringstream& s, const std::vector<KernelRow>& rows) {
  std::map<std::string, std::vector<const KernelRow*>> groups;
  for (const KernelRow& r : rows)
    if (!r.kernel.group.empty() && !r.points.empty()) groups[r.kernel.group].push_back(&r);
  bool any_step = false;
  for (auto& [group, versions] : groups) {
    std::stable_sort(versions.begin(), versions.end(), [](const KernelRow* x, const KernelRow* y) {
      return x->kernel.order < y->kernel.order;
    });
    for (std::size_t v = 0; v + 1 < versions.size(); ++v)
      for (const auto& from : versions[v]->points)
        for (const auto& to : versions[v + 1]->points)
          if (from.level == to.level) {
            draw_step(s, from.X, from.Y, to.X, to.Y);
            any_step = true;
          }
  }
  return any_step;
}

// One marker per kernel and level: the level's shape in the kernel's colour, outlined red
// above a ceiling, with what it shows in a tooltip.
void draw_markers(std::ostringstream& s, const std::vector<KernelRow>& rows) {
  for (const KernelRow& r : rows) {
    const std::string style = " fill='" + r.color + "' stroke='" +
                              (r.above ? "#d62728' stroke-width='2.5'" : "white' stroke-width='1'");
    for (const auto& p : r.points) {
      s << "<g class='kernel level-" << class_name(p.level) << (r.above ? " above" : "")
        << "' transform='translate(" << num(p.X, 2) << "," << num(p.Y, 2) << ")'><title>"
        << escape(r.id + " " + r.kernel.name + " at " + p.level + ": " + three_digits(p.ai) +
                  " FLOP/byte, " + three_digits(p.rate) + " GFLOP/s" +
                  (r.above ? ", above " + r.kernel.above : ""))
        << "</title>" << level_shape(p.level, style) << "</g>\n";
    }
  }
}

// Each marker's short id beside it, placed clear of what `taken` holds.
void draw_kernel_ids(std::ostringstream& s, const Axes& a, const std::vector<KernelRow>& rows,
                     std::vector<Box>& taken) {
  for (const KernelRow& r : rows) {
    const double w = text_width(r.id, 11);
    for (std::size_t i = 0; i < r.points.size(); ++i) {
      // Levels with the same intensity share a marker's place and so one label.
      const auto& p = r.points[i];
      const auto same_place = [&](const auto& q) { return std::hypot(q.X - p.X, q.Y - p.Y) < 6; };
      if (std::any_of(r.points.begin(), r.points.begin() + static_cast<std::ptrdiff_t>(i),
                      same_place))
        continue;
      const Label l = place_label(p.X, p.Y, w, a, taken);
      taken.push_back(l.box);
      s << "<text class='kernel-id' x='" << num(l.x) << "' y='" << num(l.y) << "' text-anchor='"
        << l.anchor << "' font-size='11' fill='" << r.color << "'" << kHalo << ">" << escape(r.id)
        << "</text>\n";
    }
  }
}

// Below the plot: id, full name (wrapped, whole in the tooltip), rate, limiter, fraction
// of roof and status, one row per kernel. Returns the height used.
double kernel_table(std::ostringstream& s, const std::vector<KernelRow>& rows, double top) {
  const double font = 11, line = 14;
  const double x_id = 40, x_name = 96, x_rate = 560, x_limiter = 574, x_fraction = 712,
               x_status = 726, right = 890;
  const auto chars = [&](double px) {
    return static_cast<std::size_t>(px / text_width("x", font));
  };
  s << "<g class='kernel-table' font-size='" << font << "'>\n<text x='" << x_id << "' y='" << top
    << "' font-weight='bold'>id</text><text x='" << x_name << "' y='" << top
    << "' font-weight='bold'>kernel</text><text x='" << x_rate << "' y='" << top
    << "' text-anchor='end' font-weight='bold'>GFLOP/s</text><text x='" << x_limiter << "' y='"
    << top << "' font-weight='bold'>limiter</text><text x='" << x_fraction << "' y='" << top
    << "' text-anchor='end' font-weight='bold'>of roof</text>\n";
  s << "<line x1='20' y1='" << top + 5 << "' x2='" << right << "' y2='" << top + 5
    << "' stroke='#999'/>\n";
  double y = top + 5 + line;
  if (rows.empty()) {
    s << "<text x='" << x_name << "' y='" << y << "' fill='#777'>no kernels in this file</text>\n";
    y += line;
  }
  for (const KernelRow& r : rows) {
    const ceilings::KernelRecord& k = r.kernel;
    const bool placed = !r.points.empty();
    const bool above = r.above;
    const std::vector<std::string> name = wrap(k.name, chars(x_rate - 60 - x_name), 2);
    const std::vector<std::string> status = wrap(r.status, chars(right - x_status), 2);
    s << "<g class='kernel-row" << (above ? " above" : "") << "'><title>"
      << escape(k.name + (k.description.empty() ? "" : "\n" + k.description)) << "</title>";
    if (placed)
      s << "<rect x='22' y='" << y - 9 << "' width='10' height='10' fill='" << r.color << "'/>";
    s << "<text x='" << x_id << "' y='" << y << "'>" << escape(r.id) << "</text>";
    for (std::size_t i = 0; i < name.size(); ++i)
      s << "<text x='" << x_name << "' y='" << y + line * static_cast<double>(i) << "'>"
        << escape(name[i]) << "</text>";
    if (k.time_s > 0.0)
      s << "<text x='" << x_rate << "' y='" << y << "' text-anchor='end'>"
        << three_digits(k.gflop_per_s()) << "</text>";
    s << "<text x='" << x_limiter << "' y='" << y << "'>"
      << escape(k.limiter.empty() ? "-" : k.limiter) << "</text>";
    if (k.time_s > 0.0 && k.attainable_gflop_per_s > 0.0)
      s << "<text x='" << x_fraction << "' y='" << y << "' text-anchor='end'>"
        << three_digits(100.0 * k.fraction_of_roof) << "%</text>";
    for (std::size_t i = 0; i < status.size() && !r.status.empty(); ++i)
      s << "<text class='status' x='" << x_status << "' y='" << y + line * static_cast<double>(i)
        << "' fill='" << (above ? "#d62728' font-weight='bold" : "#777") << "'>"
        << escape(status[i]) << "</text>";
    s << "</g>\n";
    y += line * static_cast<double>(std::max(name.size(), status.size())) + 4;
  }
  s << "</g>\n";
  return y - top;
}

// Top left inside the plot: the shape of each level drawn, what an arrow means, the flag.
// It goes to the corner of the plot where it covers the least of what `taken` holds
// (markers, roof labels), and then holds its own box.
void kernel_legend(std::ostringstream& s, const Axes& a, const std::vector<std::string>& levels,
                   bool steps, bool above, std::vector<Box>& taken) {
  const double line = 16, width = 118;
  const double height = line * static_cast<double>(levels.size() + steps + above) + 6;
  const double left = a.x0 + 4, right = a.x0 + a.w - 4 - width;
  const double upper = a.y0 + 8, lower = a.y0 + a.h - 4 - height;
  Box box{};
  double least = 1e300;
  for (const auto& [bx, by] :
       {std::pair{left, upper}, {right, upper}, {right, lower}, {left, lower}}) {
    const Box b{bx, by, bx + width, by + height};
    double covered = 0.0;
    for (const Box& t : taken) covered += b.overlap(t);
    if (covered < least) least = covered, box = b;
  }
  taken.push_back(box);
  const double x = box.x0 + 6, top = box.y0;
  double y = top + 10;
  std::ostringstream items;
  for (const std::string& level : levels) {
    items << "<g transform='translate(" << x + 8 << "," << y << ")'>"
          << level_shape(level, " fill='#888'") << "</g><text x='" << x + 22 << "' y='" << y + 4
          << "'>" << escape(level) << "</text>\n";
    y += line;
  }
  if (steps) {
    items << "<line x1='" << x << "' y1='" << y << "' x2='" << x + 16 << "' y2='" << y
          << "' stroke='#777' stroke-width='1.2' marker-end='url(#rooftop-step)'/><text x='"
          << x + 22 << "' y='" << y + 4 << "'>next version</text>\n";
    y += line;
  }
  if (above) {
    items << "<circle cx='" << x + 8 << "' cy='" << y << "' r='5.5' fill='#888' stroke='#d62728'"
          << " stroke-width='2.5'/><text x='" << x + 22 << "' y='" << y + 4
          << "'>above a ceiling</text>\n";
    y += line;
  }
  s << "<g class='level-legend' font-size='11'><rect x='" << box.x0 << "' y='" << box.y0
    << "' width='" << width << "' height='" << height
    << "' fill='white' fill-opacity='0.85' stroke='#ccc'/>\n"
    << items.str() << "</g>\n";
}

}  // namespace

std::string roofline_svg(const ceilings::CeilingsFile& f) {
  std::ostringstream s;
  const double width = 900, height = 1040;
  svg_begin(s, width, height);
  roofline_panel(s, f, 0);
  sweep_panel(s, f, 540);
  provenance_footer(s, f, height - 8);
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
      << "' y2='" << y - 4 << "' stroke='" << color << "' stroke-width='3'/><text x='" << a.x0 + 34
      << "' y='" << y << "' font-size='11' fill='" << color << "'>"
      << escape(tag + labels[k] + ": " + ceilings::machine_name(files[k].machine)) << "</text>\n";
  }
  draw_compute_roofs(s, a, compute);
  draw_bandwidth_roofs(s, a, bandwidth);
  s << "<text x='" << a.x0 << "' y='" << a.y0 + a.h + 58
    << "' font-size='11' fill='#555'>solid: FMA or measured bandwidth; dashed: separate "
       "multiply and add; dotted: theoretical, not measured</text>\n";
  s << "</svg>\n";
  return s.str();
}

std::string kernels_svg(const ceilings::CeilingsFile& file, const std::string& title) {
  std::vector<KernelRow> rows = kernel_rows(file);
  RoofRange range(file);
  for (const KernelRow& r : rows)
    for (const auto& p : r.points) range.add_point(p.ai, p.rate);
  const Axes a = roofline_axes(range, 0);

  // Roof labels and markers first, so that no kernel label covers them.
  std::vector<Box> taken;
  std::ostringstream plot;
  frame(plot, a, title, "arithmetic intensity at each memory level (FLOP/byte)", "achieved GFLOP/s",
        false);
  draw_roofs(plot, a, file, &taken);

  std::set<std::pair<int, std::string>> levels;
  bool any_above = false;
  for (KernelRow& r : rows) {
    for (auto& p : r.points) {
      p.X = a.px(p.ai);
      p.Y = a.py(p.rate);
      taken.push_back({p.X - 7, p.Y - 7, p.X + 7, p.Y + 7});
      levels.insert({level_rank(p.level), p.level});
    }
    any_above = any_above || (!r.points.empty() && r.above);
  }
  draw_mix_roofs(plot, a, file, rows, taken);
  const bool any_step = draw_steps(plot, rows);  // under the markers
  draw_markers(plot, rows);

  // The legend takes a corner before the ids are placed, so that they keep clear of it.
  std::vector<std::string> level_names;
  for (const auto& [rank, level] : levels) level_names.push_back(level);
  if (!level_names.empty()) kernel_legend(plot, a, level_names, any_step, any_above, taken);
  draw_kernel_ids(plot, a, rows, taken);

  std::ostringstream table;
  const double table_height = kernel_table(table, rows, a.y0 + a.h + 72);

  std::ostringstream s;
  const double width = 900, height = a.y0 + a.h + 72 + table_height + 24;
  svg_begin(s, width, height);
  s << "<defs><marker id='rooftop-step' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='7' "
       "markerHeight='7' orient='auto'><path d='M0,0 L10,5 L0,10 z' fill='#777'/></marker></defs>\n"
    << plot.str() << table.str();
  provenance_footer(s, file, height - 8);
  s << "</svg>\n";
  return s.str();
}

std::string fleet_spread_svg(const ceilings::FleetFile& fleet,
                             const ceilings::FleetReview& review) {
  // Every rank's value of every ceiling, relative to the fleet median.
  struct Dot {
    const ceilings::RankRecord* rank;
    double value, ratio;
    bool slow;
  };
  std::vector<std::vector<Dot>> rows;
  double lo = 1.0 - review.threshold, hi = 1.0;
  for (const ceilings::FleetStatistic& st : fleet.statistics) {
    rows.emplace_back();
    for (const ceilings::RankRecord& k : fleet.ranks) {
      const Ceiling* c = k.file ? k.file->find(st.name) : nullptr;
      if (!c || !c->measured() || st.median <= 0.0) continue;
      const double ratio = c->value / st.median;
      rows.back().push_back({&k, c->value, ratio, ratio < 1.0 - review.threshold});
      lo = std::min(lo, ratio);
      hi = std::max(hi, ratio);
    }
  }
  const double margin = std::max(0.02, 0.05 * (hi - lo));
  lo = std::max(0.0, lo - margin);
  hi += margin;
  double step = 0.5;
  for (double candidate : {0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5})
    if ((hi - lo) / candidate <= 10.0) {
      step = candidate;
      break;
    }
  if ((hi - lo) / step > 20.0) step = (hi - lo) / 10.0;  // ranks far apart: ten ticks
  const double width = 900, x0 = 250, w = 560, y0 = 70, row_h = 40;
  const double plot_h = row_h * static_cast<double>(std::max<std::size_t>(rows.size(), 1));
  const std::size_t failed_lines = std::min<std::size_t>(review.failed.size(), 12);
  const double height = y0 + plot_h + 70 + 16 * static_cast<double>(failed_lines) + 30;
  const auto px = [&](double ratio) { return x0 + w * (ratio - lo) / (hi - lo); };

  std::ostringstream s;
  svg_begin(s, width, height);
  s << "<text x='" << width / 2
    << "' y='28' text-anchor='middle' font-size='15' "
       "font-weight='bold'>"
    << escape("Fleet: " + std::to_string(fleet.size) + " ranks on " +
              std::to_string(fleet.hosts()) + (fleet.hosts() == 1 ? " host" : " hosts") +
              ", every ceiling relative to its fleet median")
    << "</text>\n";
  s << "<text x='" << x0 << "' y='50' font-size='11' fill='#555'>"
    << escape("dots: ranks; red: more than " + num(100.0 * review.threshold, 1) +
              "% below the median (slow)")
    << "</text>\n";
  s << "<rect class='plot' x='" << x0 << "' y='" << y0 << "' width='" << w << "' height='" << plot_h
    << "' fill='none' stroke='#333'/>\n";
  for (double t = std::ceil(lo / step) * step; t <= hi + 1e-9; t += step) {
    const double X = px(t);
    s << "<line x1='" << X << "' y1='" << y0 << "' x2='" << X << "' y2='" << y0 + plot_h
      << "' stroke='#eee'/><text x='" << X << "' y='" << y0 + plot_h + 16
      << "' text-anchor='middle' font-size='10'>" << num(t, step < 0.01 ? 3 : 2) << "</text>\n";
  }
  s << "<text x='" << x0 + w / 2 << "' y='" << y0 + plot_h + 38
    << "' text-anchor='middle' font-size='13'>value / fleet median</text>\n";
  s << "<line class='median' x1='" << px(1.0) << "' y1='" << y0 << "' x2='" << px(1.0) << "' y2='"
    << y0 + plot_h << "' stroke='#333' stroke-width='1.5'/>\n";
  s << "<line class='threshold' x1='" << px(1.0 - review.threshold) << "' y1='" << y0 << "' x2='"
    << px(1.0 - review.threshold) << "' y2='" << y0 + plot_h
    << "' stroke='#d62728' stroke-dasharray='5,4'/>\n";

  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ceilings::FleetStatistic& st = fleet.statistics[i];
    const double Y = y0 + row_h * (static_cast<double>(i) + 0.5);
    if (i > 0)
      s << "<line x1='" << x0 << "' y1='" << Y - row_h / 2 << "' x2='" << x0 + w << "' y2='"
        << Y - row_h / 2 << "' stroke='#f3f3f3'/>\n";
    s << "<text x='10' y='" << Y + 4 << "' font-size='12'>" << escape(st.name) << "</text>"
      << "<text x='" << x0 - 8 << "' y='" << Y + 4 << "' text-anchor='end' font-size='11'>"
      << escape(num(st.median, 1) + " " + st.units) << "</text>"
      << "<text x='" << x0 + w + 8 << "' y='" << Y + 4 << "' font-size='11' fill='#555'>"
      << escape("spread " + num(100.0 * st.spread, 1) + "%") << "</text>\n";
    int labelled = 0;
    for (const Dot& d : rows[i]) {
      const double X = px(d.ratio);
      const double dy = 4.0 * static_cast<double>(d.rank->rank % 5 - 2);  // keep equal values apart
      s << "<circle class='" << (d.slow ? "slow" : "rank") << "' cx='" << X << "' cy='" << Y + dy
        << "' r='4' fill='" << (d.slow ? "#d62728" : kPalette[0]) << "' fill-opacity='0.75'><title>"
        << escape(d.rank->label() + ": " + num(d.value, 1) + " " + st.units + " (" +
                  num(d.ratio, 3) + " of the median)")
        << "</title></circle>\n";
      if (d.slow && labelled++ < 6)
        s << "<text x='" << X + 6 << "' y='" << Y + dy - 5 << "' font-size='10' fill='#d62728'>"
          << escape("r" + std::to_string(d.rank->rank) + " " + d.rank->hostname) << "</text>\n";
    }
  }
  if (rows.empty())
    s << "<text x='" << x0 + w / 2 << "' y='" << y0 + row_h / 2 + 4
      << "' text-anchor='middle' font-size='12'>no rank measured any ceiling</text>\n";

  double y = y0 + plot_h + 64;
  for (std::size_t i = 0; i < failed_lines; ++i, y += 16) {
    const ceilings::RankRecord& k = review.failed[i];
    std::string text = "failed: " + k.label() + ": " + k.reason;
    if (text.size() > 140) text = text.substr(0, 137) + "...";
    s << "<text class='failed' x='10' y='" << y << "' font-size='11' fill='#d62728'>"
      << escape(text) << "</text>\n";
  }
  if (review.failed.size() > failed_lines)
    s << "<text x='10' y='" << y << "' font-size='11' fill='#d62728'>"
      << review.failed.size() - failed_lines << " more failed</text>\n";
  s << "<text x='10' y='" << height - 8 << "' font-size='10' fill='#777'>rooftop "
    << escape(fleet.provenance.tool_version) << " " << escape(fleet.provenance.git_revision) << ", "
    << escape(fleet.provenance.created_utc) << "</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace rooftop::analyze
