// The hierarchical roofline of kernels: each kernel one marker per memory level on the
// measured ceilings, the versions of a group joined by arrows, a table below.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>

#include "roofs.hpp"
#include "rooftop/core/roofline.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/report/chart.hpp"
#include "svg.hpp"

namespace rooftop::report {
namespace {

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
  core::KernelRecord kernel;
  std::string id;      // the short id, or the row number where the record has none
  std::string color;   // empty where nothing is drawn
  std::string status;  // why nothing is drawn, or the ceilings the kernel lies above
  bool above = false;  // timed, and above a ceiling
  std::optional<core::ComputeRoof> compute;  // the kernel's compute roof for its FMA mix
  bool tensor = false;  // `compute` is a matrix unit's figure (core::Placement::tensor)
  struct Point {
    std::string level;
    double ai, rate, X, Y;
  };
  std::vector<Point> points;  // one per level with a byte count
  // FLOPs and a time but no bytes: no arithmetic intensity, only the achieved rate, drawn
  // at the right edge against the compute roofs (Y set when drawn).
  double rate_only = 0.0, rate_Y = 0.0;
};

std::vector<KernelRow> kernel_rows(const core::CeilingsFile& file) {
  std::vector<KernelRow> rows;
  std::size_t drawn = 0;
  for (const core::KernelRecord& k : file.kernels) {
    KernelRow row{k, k.id.empty() ? "#" + std::to_string(rows.size() + 1) : k.id, "", "", false, {},
                  false, {}};
    // Records the analyzer wrote carry their placement; others are placed here.
    const core::Placement placement = core::place(k, file);
    if (row.kernel.limiter.empty()) core::apply(placement, row.kernel);
    row.compute = placement.compute;
    row.tensor = placement.tensor;
    if (k.time_s <= 0.0) {
      row.status = "no time";
    } else if (k.flops() <= 0.0) {
      row.status = "no FLOPs";
    } else {
      for (const core::LevelBytes& b : k.bytes) {
        const std::optional<double> ai = core::arithmetic_intensity(k, b.level);
        if (ai && *ai > 0.0) row.points.push_back({b.level, *ai, k.gflop_per_s(), 0, 0});
      }
      std::stable_sort(row.points.begin(), row.points.end(), [](const auto& p, const auto& q) {
        return level_rank(p.level) < level_rank(q.level);
      });
      if (row.points.empty()) {
        row.rate_only = k.gflop_per_s();
        row.status = "no byte counts: no arithmetic intensity; its GFLOP/s, at the right edge, "
                     "against the compute roofs only";
      }
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
void draw_mix_roofs(std::ostringstream& s, const Axes& a, const core::CeilingsFile& file,
                    const std::vector<KernelRow>& rows, std::vector<Box>& taken) {
  struct Span {
    double value, lo = 1e300, hi = 0.0;
    std::string ids;
  };
  std::map<std::string, Span> spans;  // by the label, which shows the roof's value
  for (const KernelRow& r : rows) {
    if (r.points.empty() || !r.compute || r.tensor || file.find(r.compute->ceiling)) continue;
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

// A matrix unit's figure is a roof only for the kernels placed against it: each one a
// drawn kernel is placed against is a dashed line across the plot, labelled with the
// figure's name and value, and none is drawn otherwise.
void draw_tensor_roofs(std::ostringstream& s, const Axes& a, const core::CeilingsFile& file,
                       const std::vector<KernelRow>& rows, std::vector<Box>& taken) {
  std::map<std::string, std::string> ids;  // by figure
  for (const KernelRow& r : rows)
    if (r.tensor && r.compute && (!r.points.empty() || r.rate_only > 0.0)) {
      std::string& list = ids[r.compute->ceiling];
      list += (list.empty() ? "" : ", ") + r.id;
    }
  for (const auto& [name, list] : ids) {
    const core::Ceiling* figure = file.matrix.find(name);
    if (!figure) continue;
    const double Y = a.py(figure->value);
    const std::string label = name + " " + num(figure->value) + " " + figure->units;
    const double w = text_width(label, 10);
    const double lx = a.x0 + a.w - 4 - w, ly = Y - 3;
    s << "<line class='tensor-roof' x1='" << num(a.x0) << "' y1='" << num(Y) << "' x2='"
      << num(a.x0 + a.w) << "' y2='" << num(Y)
      << "' stroke='#555' stroke-width='1.2' stroke-dasharray='6,4'/>"
      << "<text x='" << num(lx) << "' y='" << num(ly) << "' font-size='10' fill='#555'" << kHalo
      << "><title>" << escape("matrix-unit roof (/matrix " + name + ") of " + list) << "</title>"
      << escape(label) << "</text>\n";
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

// Kernels with a rate and no intensity: a dashed tick at the right edge of the plot at
// their achieved GFLOP/s, with a hollow marker and their id, so that they are read against
// the compute roofs and never as a point of the roofline.
void draw_rate_only(std::ostringstream& s, const Axes& a, std::vector<KernelRow>& rows,
                    std::vector<Box>& taken) {
  for (KernelRow& r : rows) {
    if (r.rate_only <= 0.0) continue;
    const double rate = std::clamp(r.rate_only, a.ymin, a.ymax);
    r.rate_Y = a.py(rate);
    const double x2 = a.x0 + a.w, x1 = x2 - 36, Y = r.rate_Y;
    s << "<g class='kernel rate-only'><title>"
      << escape(r.id + " " + r.kernel.name + ": " + three_digits(r.rate_only) +
                " GFLOP/s achieved; no byte counts, so no arithmetic intensity: read against "
                "the compute roofs only")
      << "</title><line x1='" << num(x1) << "' y1='" << num(Y) << "' x2='" << num(x2)
      << "' y2='" << num(Y) << "' stroke='" << r.color
      << "' stroke-width='2' stroke-dasharray='4,2'/><circle cx='" << num(x1) << "' cy='"
      << num(Y) << "' r='4.5' fill='white' stroke='" << r.color << "' stroke-width='2'/>"
      << "<text x='" << num(x1 - 7) << "' y='" << num(Y + 4) << "' text-anchor='end' "
      << "font-size='11' fill='" << r.color << "'" << kHalo << ">" << escape(r.id + " (no AI)")
      << "</text></g>\n";
    taken.push_back({x1 - 7 - text_width(r.id + " (no AI)", 11), Y - 8, x2, Y + 8});
  }
}

// Markers that crowd one place (versions of a ladder with one intensity, as GPP's share
// their compulsory bytes): chains of markers each within a marker's size of the next.
// Returns the groups of indices into `marks`, each of three markers or more.
template <class Mark>
std::vector<std::vector<std::size_t>> crowds(const std::vector<Mark>& marks) {
  std::vector<std::size_t> root(marks.size());
  for (std::size_t i = 0; i < root.size(); ++i) root[i] = i;
  const auto find = [&](std::size_t i) {
    while (root[i] != i) i = root[i] = root[root[i]];
    return i;
  };
  for (std::size_t i = 0; i < marks.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (std::abs(marks[i].X - marks[j].X) < 10 && std::abs(marks[i].Y - marks[j].Y) < 14)
        root[find(i)] = find(j);
  std::map<std::size_t, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < marks.size(); ++i) groups[find(i)].push_back(i);
  std::vector<std::vector<std::size_t>> out;
  for (auto& [r, members] : groups)
    if (members.size() >= 3) out.push_back(std::move(members));
  return out;
}

// Each marker's short id beside it, placed clear of what `taken` holds; the ids of a crowd
// of markers go in a column beside it, in the markers' vertical order, each joined to its
// marker by a thin leader line.
void draw_kernel_ids(std::ostringstream& s, const Axes& a, const std::vector<KernelRow>& rows,
                     std::vector<Box>& taken) {
  struct Mark {
    const KernelRow* row;
    double X, Y;
  };
  std::vector<Mark> marks;
  for (const KernelRow& r : rows)
    for (std::size_t i = 0; i < r.points.size(); ++i) {
      // Levels with the same intensity share a marker's place and so one label.
      const auto& p = r.points[i];
      const auto same_place = [&](const auto& q) { return std::hypot(q.X - p.X, q.Y - p.Y) < 6; };
      if (std::none_of(r.points.begin(), r.points.begin() + static_cast<std::ptrdiff_t>(i),
                       same_place))
        marks.push_back({&r, p.X, p.Y});
    }
  const auto id_text = [&](const Mark& m, double x, double y, const char* anchor) {
    s << "<text class='kernel-id' x='" << num(x) << "' y='" << num(y) << "' text-anchor='"
      << anchor << "' font-size='11' fill='" << m.row->color << "'" << kHalo << ">"
      << escape(m.row->id) << "</text>\n";
  };
  std::vector<bool> in_crowd(marks.size(), false);
  for (std::vector<std::size_t>& crowd : crowds(marks)) {
    std::sort(crowd.begin(), crowd.end(),
              [&](std::size_t i, std::size_t j) { return marks[i].Y < marks[j].Y; });
    // Baselines 13 px apart, as near their markers as that allows, inside the plot.
    const double line = 13;
    std::vector<double> y;
    double widest = 0, shift = 0;
    for (std::size_t i : crowd) {
      y.push_back(y.empty() ? marks[i].Y + 4 : std::max(marks[i].Y + 4, y.back() + line));
      shift += y.back() - (marks[i].Y + 4);
      widest = std::max(widest, text_width(marks[i].row->id, 11));
      in_crowd[i] = true;
    }
    shift /= static_cast<double>(y.size());
    shift = std::min(shift, y.front() - 9 - (a.y0 + 2));
    shift = std::max(shift, y.back() - (a.y0 + a.h - 4));
    for (double& v : y) v -= shift;
    // Right of the crowd, or left where that covers less.
    double left = 1e300, right = -1e300;
    for (std::size_t i : crowd) left = std::min(left, marks[i].X), right = std::max(right, marks[i].X);
    const auto boxes = [&](bool to_right) {
      std::vector<Box> out;
      const double x0 = to_right ? right + 22 : left - 22 - widest;
      for (double v : y) out.push_back({x0, v - 9, x0 + widest, v + 2});
      return out;
    };
    const auto cost = [&](const std::vector<Box>& bs) {
      const Box plot{a.x0, a.y0, a.x0 + a.w, a.y0 + a.h};
      double c = 0;
      for (const Box& b : bs) {
        c += ((b.x1 - b.x0) * (b.y1 - b.y0) - b.overlap(plot)) * 100;
        for (const Box& t : taken) c += b.overlap(t);
      }
      return c;
    };
    const bool to_right = cost(boxes(true)) <= cost(boxes(false));
    const double column = to_right ? right + 22 : left - 22;
    for (std::size_t k = 0; k < crowd.size(); ++k) {
      const Mark& m = marks[crowd[k]];
      const double end = column + (to_right ? -3 : 3);
      s << "<line class='leader' x1='" << num(m.X + (to_right ? 7 : -7)) << "' y1='" << num(m.Y)
        << "' x2='" << num(end) << "' y2='" << num(y[k] - 4)
        << "' stroke='#aaa' stroke-width='0.8'/>\n";
      id_text(m, column, y[k], to_right ? "start" : "end");
    }
    for (const Box& b : boxes(to_right)) taken.push_back(b);
  }
  for (std::size_t i = 0; i < marks.size(); ++i) {
    if (in_crowd[i]) continue;
    const Label l = place_label(marks[i].X, marks[i].Y, text_width(marks[i].row->id, 11), a, taken);
    taken.push_back(l.box);
    id_text(marks[i], l.x, l.y, l.anchor);
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
    const core::KernelRecord& k = r.kernel;
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

std::string kernels_svg(const core::CeilingsFile& file, const std::string& title) {
  std::vector<KernelRow> rows = kernel_rows(file);
  RoofRange range(file);
  for (const KernelRow& r : rows) {
    for (const auto& p : r.points) range.add_point(p.ai, p.rate);
    // A rate without intensity widens the rate axis only.
    if (r.rate_only > 0.0) {
      range.rate_lo = range.rate_lo > 0.0 ? std::min(range.rate_lo, r.rate_only) : r.rate_only;
      range.rate_hi = std::max(range.rate_hi, r.rate_only);
    }
  }
  // A matrix unit's roof a kernel is placed against is in the plot.
  for (const KernelRow& r : rows)
    if (r.tensor && r.compute && (!r.points.empty() || r.rate_only > 0.0))
      range.rate_hi = std::max(range.rate_hi, r.compute->gflop_per_s);
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
  draw_tensor_roofs(plot, a, file, rows, taken);
  const bool any_step = draw_steps(plot, rows);  // under the markers
  draw_markers(plot, rows);
  draw_rate_only(plot, a, rows, taken);

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

}  // namespace rooftop::report
