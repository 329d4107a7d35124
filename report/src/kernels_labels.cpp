// The labels of the hierarchical roofline of kernels: the roofs kernels alone are held
// to, the ticks of kernels without intensity, the level legend and the kernels' ids,
// each placed through the chart's Layout so that no two labels overlap.

#include <algorithm>
#include <cmath>
#include <map>

#include "kernels_chart.hpp"
#include "rooftop/core/format.hpp"

namespace rooftop::report {
namespace {

Box plot_box(const Axes& a) { return {a.x0, a.y0, a.x0 + a.w, a.y0 + a.h}; }

// A thin line from a marker to a label placed away from it.
void leader(std::ostringstream& s, double x1, double y1, double x2, double y2) {
  s << "<line class='leader' x1='" << num(x1) << "' y1='" << num(y1) << "' x2='" << num(x2)
    << "' y2='" << num(y2) << "' stroke='#aaa' stroke-width='0.8'/>\n";
}

// Where a marker's id can go: beside it first, then in two rings further off (reached by
// a leader line), each spot given by its offset from the marker's centre.
std::vector<Spot> id_spots(double X, double Y) {
  std::vector<Spot> spots;
  for (const double r : {1.0, 2.5, 4.5}) {
    const Spot ring[] = {{9 * r, 4, "start"},      {-9 * r, 4, "end"},
                         {0, -10 * r, "middle"},   {0, 4 + 14 * r, "middle"},
                         {7 * r, -7 * r, "start"}, {7 * r, 4 + 11 * r, "start"},
                         {-7 * r, -7 * r, "end"},  {-7 * r, 4 + 11 * r, "end"}};
    for (const Spot& p : ring) spots.push_back({X + p.x, Y + p.y, p.anchor});
  }
  return spots;
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

// A roof's label at the best of `spots` (Layout::place), with `title` as its tooltip;
// none where every spot is taken (the line's own tooltip names it).
void roof_label(std::ostringstream& s, const Axes& a, Layout& layout, const std::string& label,
                const std::string& title, const char* color, const std::vector<Spot>& spots) {
  if (const std::optional<Spot> p = layout.place(label, 10, spots, plot_box(a)))
    s << "<text x='" << num(p->x) << "' y='" << num(p->y) << "' text-anchor='" << p->anchor
      << "' font-size='10' fill='" << color << "'" << kHalo << "><title>" << escape(title)
      << "</title>" << escape(label) << "</text>";
  s << "\n";
}

struct Mark {
  const KernelRow* row;
  double X, Y;
};

void id_text(std::ostringstream& s, const Mark& m, const Spot& p) {
  s << "<text class='kernel-id' x='" << num(p.x) << "' y='" << num(p.y) << "' text-anchor='"
    << p.anchor << "' font-size='11' fill='" << m.row->color << "'" << kHalo << ">"
    << escape(m.row->id) << "</text>\n";
}

// The ids of a crowd in a column beside it, in the markers' vertical order, each joined
// to its marker by a leader line: right of the crowd, or left where that covers less.
// Returns false, drawing nothing, where neither column is clear of the labels placed.
bool crowd_column(std::ostringstream& s, const Axes& a, const std::vector<Mark>& marks,
                  std::vector<std::size_t> crowd, Layout& layout) {
  std::sort(crowd.begin(), crowd.end(),
            [&](std::size_t i, std::size_t j) { return marks[i].Y < marks[j].Y; });
  // Baselines 13 px apart, as near their markers as that allows, inside the plot.
  std::vector<double> y;
  double widest = 0, shift = 0;
  for (std::size_t i : crowd) {
    y.push_back(y.empty() ? marks[i].Y + 4 : std::max(marks[i].Y + 4, y.back() + 13));
    shift += y.back() - (marks[i].Y + 4);
    widest = std::max(widest, text_width(marks[i].row->id, 11));
  }
  shift /= static_cast<double>(y.size());
  shift = std::min(shift, y.front() - 9 - (a.y0 + 2));
  shift = std::max(shift, y.back() - (a.y0 + a.h - 4));
  for (double& v : y) v -= shift;
  double left = 1e300, right = -1e300;
  for (std::size_t i : crowd)
    left = std::min(left, marks[i].X), right = std::max(right, marks[i].X);
  // Each side's column as one box, so that pick weighs it whole.
  const auto column = [&](bool to_right) {
    const double x0 = to_right ? right + 22 : left - 22 - widest;
    return Box{x0, y.front() - 9, x0 + widest, y.back() + 3};
  };
  const std::optional<std::size_t> side = layout.pick({column(true), column(false)}, plot_box(a));
  if (!side) return false;
  const bool to_right = *side == 0;
  const double x = to_right ? right + 22 : left - 22;
  for (std::size_t k = 0; k < crowd.size(); ++k) {
    const Mark& m = marks[crowd[k]];
    leader(s, m.X + (to_right ? 7 : -7), m.Y, x + (to_right ? -3 : 3), y[k] - 4);
    id_text(s, m, {x, y[k], to_right ? "start" : "end"});
  }
  layout.labels.push_back(column(to_right));
  return true;
}

}  // namespace

// A compute roof for a mix of FMAs and separate operations is no measured ceiling: each
// one kernels are held to is drawn across their markers only, so that a point flagged
// above it shows why.
void draw_mix_roofs(std::ostringstream& s, const Axes& a, const core::CeilingsFile& file,
                    const std::vector<KernelRow>& rows, Layout& layout) {
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
    const std::string title =
        "compute roof of " + span.ids + " for their mix of FMAs and separate operations";
    s << "<line class='kernel-roof' x1='" << num(x1) << "' y1='" << num(Y) << "' x2='" << num(x2)
      << "' y2='" << num(Y) << "' stroke='#888' stroke-width='1.2' stroke-dasharray='8,3,2,3'>"
      << "<title>" << escape(label + ": " + title) << "</title></line>";
    // Inline before the line's start or after its end, else above or below either end.
    roof_label(s, a, layout, label, title, "#888",
               {{x1 - 4, Y + 3, "end"}, {x2 + 4, Y + 3, "start"}, {x1, Y - 3, "start"},
                {x2, Y - 3, "end"}, {x1, Y + 12, "start"}, {x2, Y + 12, "end"}});
  }
}

// A matrix unit's figure is a roof only for the kernels placed against it: each one a
// drawn kernel is placed against is a dashed line across the plot, labelled with the
// figure's name and value, and none is drawn otherwise.
void draw_tensor_roofs(std::ostringstream& s, const Axes& a, const core::CeilingsFile& file,
                       const std::vector<KernelRow>& rows, Layout& layout) {
  std::map<std::string, std::string> ids;  // by figure
  for (const KernelRow& r : rows)
    if (r.tensor && r.compute && (!r.points.empty() || r.rate_only > 0.0)) {
      std::string& list = ids[r.compute->ceiling];
      list += (list.empty() ? "" : ", ") + r.id;
    }
  for (const auto& [name, list] : ids) {
    const core::Ceiling* figure = file.matrix.find(name);
    if (!figure) continue;
    const double Y = a.py(figure->value), right = a.x0 + a.w - 4, left = a.x0 + 4;
    const std::string label = name + " " + num(figure->value) + " " + figure->units;
    const std::string title = "matrix-unit roof (/matrix " + name + ") of " + list;
    s << "<line class='tensor-roof' x1='" << num(a.x0) << "' y1='" << num(Y) << "' x2='"
      << num(a.x0 + a.w) << "' y2='" << num(Y)
      << "' stroke='#555' stroke-width='1.2' stroke-dasharray='6,4'><title>"
      << escape(label + ": " + title) << "</title></line>";
    // At the right end above the line, as the compute roofs' labels, else below it, else
    // at the left end or the middle.
    const double middle = a.x0 + a.w / 2;
    roof_label(s, a, layout, label, title, "#555",
               {{right, Y - 3, "end"}, {right, Y + 11, "end"}, {left, Y - 3, "start"},
                {left, Y + 11, "start"}, {middle, Y - 3, "middle"}, {middle, Y + 11, "middle"}});
  }
}

// Kernels with a rate and no intensity: a dashed tick at the right edge of the plot at
// their achieved GFLOP/s, with a hollow marker and their id, so that they are read against
// the compute roofs and never as a point of the roofline.
void draw_rate_only(std::ostringstream& s, const Axes& a, std::vector<KernelRow>& rows,
                    Layout& layout) {
  for (KernelRow& r : rows) {
    if (r.rate_only <= 0.0) continue;
    const double rate = std::clamp(r.rate_only, a.ymin, a.ymax);
    r.rate_Y = a.py(rate);
    const double x2 = a.x0 + a.w, x1 = x2 - 36, Y = r.rate_Y;
    s << "<g class='kernel rate-only'><title>"
      << escape(r.id + " " + r.kernel.name + ": " + core::significant(r.rate_only) +
                " GFLOP/s achieved; no byte counts, so no arithmetic intensity: read against "
                "the compute roofs only")
      << "</title><line x1='" << num(x1) << "' y1='" << num(Y) << "' x2='" << num(x2) << "' y2='"
      << num(Y) << "' stroke='" << r.color
      << "' stroke-width='2' stroke-dasharray='4,2'/><circle cx='" << num(x1) << "' cy='" << num(Y)
      << "' r='4.5' fill='white' stroke='" << r.color << "' stroke-width='2'/>";
    layout.marks.push_back({x1 - 5, Y - 5, x2, Y + 5});
    // Beside the tick, or the nearest free line above or below it, with a leader line.
    const std::string text = r.id + " (no AI)";
    std::vector<Spot> spots;
    for (int k = 0; k <= 8; ++k)
      for (const int sign : {-1, 1})
        if (k > 0 || sign > 0) spots.push_back({x1 - 7, Y + 4 + sign * 13.0 * k, "end"});
    if (const std::optional<Spot> p = layout.place(text, 11, spots, plot_box(a))) {
      if (p->y != Y + 4) leader(s, x1 - 5, Y, x1 - 9, p->y - 4);
      s << "<text x='" << num(p->x) << "' y='" << num(p->y) << "' text-anchor='end' "
        << "font-size='11' fill='" << r.color << "'" << kHalo << ">" << escape(text) << "</text>";
    }
    s << "</g>\n";
  }
}

void kernel_legend(std::ostringstream& s, const Axes& a, const std::vector<std::string>& levels,
                   bool steps, bool above, Layout& layout) {
  const double line = 16, width = 118;
  const double height = line * static_cast<double>(levels.size() + steps + above) + 6;
  // The corners first, then anywhere on a grid over the plot.
  const double left = a.x0 + 4, right = a.x0 + a.w - 4 - width;
  const double upper = a.y0 + 8, lower = a.y0 + a.h - 4 - height;
  std::vector<Box> places;
  for (const auto& [bx, by] :
       {std::pair{left, upper}, {right, upper}, {right, lower}, {left, lower}})
    places.push_back({bx, by, bx + width, by + height});
  for (double by = upper; by <= lower; by += 20)
    for (double bx = left; bx <= right; bx += 20)
      places.push_back({bx, by, bx + width, by + height});
  const Box box = places[layout.pick(places, plot_box(a)).value_or(0)];
  layout.labels.push_back(box);
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

void draw_kernel_ids(std::ostringstream& s, const Axes& a, const std::vector<KernelRow>& rows,
                     Layout& layout) {
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
  std::vector<bool> placed(marks.size(), false);
  for (const std::vector<std::size_t>& crowd : crowds(marks))
    if (crowd_column(s, a, marks, crowd, layout))
      for (std::size_t i : crowd) placed[i] = true;
  for (std::size_t i = 0; i < marks.size(); ++i) {
    if (placed[i]) continue;
    const Mark& m = marks[i];
    const std::vector<Spot> spots = id_spots(m.X, m.Y);
    const std::optional<Spot> p = layout.place(m.row->id, 11, spots, plot_box(a));
    if (!p) continue;  // no room anywhere near: the marker's tooltip names it
    // Off the first ring: joined to its marker.
    if (std::hypot(p->x - m.X, p->y - 4 - m.Y) > 20) leader(s, m.X, m.Y, p->x, p->y - 4);
    id_text(s, m, *p);
  }
}

}  // namespace rooftop::report
