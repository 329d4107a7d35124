#include "svg.hpp"

#include <cmath>

#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/format.hpp"

namespace rooftop::report {
namespace {

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

}  // namespace

std::string num(double v, int digits) { return core::fixed(v, digits); }

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

double text_width(const std::string& text, double font_size) {
  return 0.58 * font_size * static_cast<double>(text.size());
}

Box text_box(double x, double y, double width, double font_size, const char* anchor) {
  const double left = anchor[0] == 'e' ? x - width : anchor[0] == 'm' ? x - width / 2 : x;
  return {left, y - 0.8 * font_size, left + width, y + 0.22 * font_size};
}

bool Layout::clear(const Box& b) const {
  return std::none_of(labels.begin(), labels.end(),
                      [&](const Box& l) { return b.overlap(l) > 0.0; });
}

std::optional<std::size_t> Layout::pick(const std::vector<Box>& candidates,
                                        const Box& bounds) const {
  std::optional<std::size_t> best;
  double best_cost = 1e300;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Box& b = candidates[i];
    if (b.x0 < bounds.x0 - 0.5 || b.x1 > bounds.x1 + 0.5 || b.y0 < bounds.y0 - 0.5 ||
        b.y1 > bounds.y1 + 0.5 || !clear(b))
      continue;
    double cost = 0.0;
    for (const Box& m : marks) cost += b.overlap(m);
    if (cost < best_cost - 0.01) {  // areas in square pixels, with rounding noise
      best_cost = cost;
      best = i;
    }
  }
  return best;
}

std::optional<Spot> Layout::place(const std::string& text, double font_size,
                                  const std::vector<Spot>& spots, const Box& bounds) {
  std::vector<Box> boxes;
  for (const Spot& p : spots)
    boxes.push_back(text_box(p.x, p.y, text_width(text, font_size), font_size, p.anchor));
  const std::optional<std::size_t> i = pick(boxes, bounds);
  if (!i) return std::nullopt;
  labels.push_back(boxes[*i]);
  return spots[*i];
}

void svg_begin(std::ostringstream& s, double width, double height) {
  s << "<?xml version='1.0' encoding='UTF-8'?>\n"
    << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
    << "' viewBox='0 0 " << width << " " << height << "' font-family='sans-serif'>\n"
    << "<rect width='100%' height='100%' fill='white'/>\n";
}

void provenance_footer(std::ostringstream& s, const core::CeilingsFile& f, double y) {
  s << "<text x='10' y='" << y << "' font-size='10' fill='#777'>rooftop "
    << escape(f.provenance.tool_version) << " " << escape(f.provenance.git_revision) << ", "
    << escape(f.provenance.created_utc) << ", " << escape(f.machine.hostname) << ", "
    << f.machine.threads << " threads, clock " << num(f.machine.clock_ghz, 2) << " GHz</text>\n";
}

}  // namespace rooftop::report
