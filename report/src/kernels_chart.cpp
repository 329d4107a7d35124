// The hierarchical roofline of kernels: each kernel one marker per memory level on the
// measured ceilings, the versions of a group joined by arrows, a table below.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>

#include "chart_data.hpp"
#include "kernels_chart.hpp"
#include "roofs.hpp"
#include "rooftop/core/format.hpp"
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

}  // namespace

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

namespace {

// A level name as a class name: letters, digits and '-' only.
std::string class_name(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out;
}

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
  lines.push_back(cut_middle(rest, width));
  return lines;
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

// The versions of each group in `order`, each joined by an arrow to the next drawn one at
// every level both have. Returns whether any arrow was drawn.
bool draw_steps(std::ostringstream& s, const std::vector<KernelRow>& rows) {
  std::map<std::string, std::vector<const KernelRow*>> groups;
  for (const KernelRow& r : rows)
    if (!ladder_of(r.kernel).empty() && !r.points.empty())
      groups[ladder_of(r.kernel)].push_back(&r);
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
        << escape(r.id + " " + r.kernel.name + " at " + p.level + ": " + core::significant(p.ai) +
                  " FLOP/byte, " + core::significant(p.rate) + " GFLOP/s" +
                  (r.above ? ", above " + r.kernel.above : ""))
        << "</title>" << level_shape(p.level, style) << "</g>\n";
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
    const core::KernelRecord& k = r.kernel;
    const bool placed = !r.points.empty();
    const bool above = r.above;
    const std::vector<std::string> name =
        wrap(display_name(k.name), chars(x_rate - 60 - x_name), 2);
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
        << core::significant(k.gflop_per_s(), core::kFigureDigits) << "</text>";
    s << "<text x='" << x_limiter << "' y='" << y << "'>"
      << escape(k.limiter.empty() ? "-" : k.limiter) << "</text>";
    if (k.time_s > 0.0 && k.attainable_gflop_per_s > 0.0)
      s << "<text x='" << x_fraction << "' y='" << y << "' text-anchor='end'>"
        << core::significant(100.0 * k.fraction_of_roof, core::kRatioDigits) << "%</text>";
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
  Layout layout;
  std::ostringstream plot;
  frame(plot, a, title, "arithmetic intensity at each memory level (FLOP/byte)", "achieved GFLOP/s",
        false);
  draw_roofs(plot, a, file, layout);

  std::set<std::pair<int, std::string>> levels;
  bool any_above = false;
  for (KernelRow& r : rows) {
    for (auto& p : r.points) {
      p.X = a.px(p.ai);
      p.Y = a.py(p.rate);
      layout.marks.push_back({p.X - 7, p.Y - 7, p.X + 7, p.Y + 7});
      levels.insert({level_rank(p.level), p.level});
    }
    any_above = any_above || (!r.points.empty() && r.above);
  }
  draw_mix_roofs(plot, a, file, rows, layout);
  draw_tensor_roofs(plot, a, file, rows, layout);
  const bool any_step = draw_steps(plot, rows);  // under the markers
  draw_markers(plot, rows);
  draw_rate_only(plot, a, rows, layout);

  // The legend takes a corner before the ids are placed, so that they keep clear of it.
  std::vector<std::string> level_names;
  for (const auto& [rank, level] : levels) level_names.push_back(level);
  if (!level_names.empty()) kernel_legend(plot, a, level_names, any_step, any_above, layout);
  draw_kernel_ids(plot, a, rows, layout);

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
