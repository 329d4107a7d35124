// The spread of each ceiling across a fleet, every rank relative to the fleet median.

#include <algorithm>
#include <cmath>
#include <optional>

#include "rooftop/report/chart.hpp"
#include "svg.hpp"

namespace rooftop::report {

using core::Ceiling;

namespace {

// One rank's value of one ceiling, relative to the fleet median.
struct Dot {
  const ceilings::RankRecord* rank;
  double value, ratio;
  bool slow;
};

// Where the chart draws: the plot's box and its axis of ratios to the median.
struct Frame {
  double x0 = 250, w = 560, y0 = 70, row_h = 40;
  double lo = 0, hi = 1, step = 0.5;
  double px(double ratio) const { return x0 + w * (ratio - lo) / (hi - lo); }
};

// Every rank's value of every ceiling (a row per fleet statistic), and the axis that holds
// them all with the slow threshold.
std::vector<std::vector<Dot>> dots_of(const ceilings::FleetFile& fleet,
                                      const ceilings::FleetReview& review, Frame& frame) {
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
  frame.lo = std::max(0.0, lo - margin);
  frame.hi = hi + margin;
  const double span = frame.hi - frame.lo;
  frame.step = 0.5;
  for (double candidate : {0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5})
    if (span / candidate <= 10.0) {
      frame.step = candidate;
      break;
    }
  if (span / frame.step > 20.0) frame.step = span / 10.0;  // ranks far apart: ten ticks
  return rows;
}

// The plot's box, its ticks, the median and the slow threshold.
void draw_axes(std::ostream& s, const Frame& f, double plot_h, double threshold) {
  s << "<rect class='plot' x='" << f.x0 << "' y='" << f.y0 << "' width='" << f.w
    << "' height='" << plot_h << "' fill='none' stroke='#333'/>\n";
  for (double t = std::ceil(f.lo / f.step) * f.step; t <= f.hi + 1e-9; t += f.step) {
    const double X = f.px(t);
    s << "<line x1='" << X << "' y1='" << f.y0 << "' x2='" << X << "' y2='" << f.y0 + plot_h
      << "' stroke='#eee'/><text x='" << X << "' y='" << f.y0 + plot_h + 16
      << "' text-anchor='middle' font-size='10'>" << num(t, f.step < 0.01 ? 3 : 2)
      << "</text>\n";
  }
  s << "<text x='" << f.x0 + f.w / 2 << "' y='" << f.y0 + plot_h + 38
    << "' text-anchor='middle' font-size='13'>value / fleet median</text>\n";
  s << "<line class='median' x1='" << f.px(1.0) << "' y1='" << f.y0 << "' x2='" << f.px(1.0)
    << "' y2='" << f.y0 + plot_h << "' stroke='#333' stroke-width='1.5'/>\n";
  s << "<line class='threshold' x1='" << f.px(1.0 - threshold) << "' y1='" << f.y0 << "' x2='"
    << f.px(1.0 - threshold) << "' y2='" << f.y0 + plot_h
    << "' stroke='#d62728' stroke-dasharray='5,4'/>\n";
}

// One ceiling's row: its name, median and spread, a dot per rank, the slow ranks named.
void draw_row(std::ostream& s, const Frame& f, std::size_t i, const ceilings::FleetStatistic& st,
              const std::vector<Dot>& dots) {
  const double Y = f.y0 + f.row_h * (static_cast<double>(i) + 0.5);
  if (i > 0)
    s << "<line x1='" << f.x0 << "' y1='" << Y - f.row_h / 2 << "' x2='" << f.x0 + f.w
      << "' y2='" << Y - f.row_h / 2 << "' stroke='#f3f3f3'/>\n";
  s << "<text x='10' y='" << Y + 4 << "' font-size='12'>" << escape(st.name) << "</text>"
    << "<text x='" << f.x0 - 8 << "' y='" << Y + 4 << "' text-anchor='end' font-size='11'>"
    << escape(num(st.median, 1) + " " + st.units) << "</text>"
    << "<text x='" << f.x0 + f.w + 8 << "' y='" << Y + 4 << "' font-size='11' fill='#555'>"
    << escape("spread " + num(100.0 * st.spread, 1) + "%") << "</text>\n";
  int labelled = 0;
  Layout layout;  // the slow ranks' names of this row, none over another
  const Box row{f.x0, Y - f.row_h / 2, f.x0 + f.w, Y + f.row_h / 2};
  for (const Dot& d : dots) {
    const double X = f.px(d.ratio);
    const double dy = 4.0 * static_cast<double>(d.rank->rank % 5 - 2);  // keep equal values apart
    s << "<circle class='" << (d.slow ? "slow" : "rank") << "' cx='" << X << "' cy='" << Y + dy
      << "' r='4' fill='" << (d.slow ? "#d62728" : kPalette[0]) << "' fill-opacity='0.75'><title>"
      << escape(d.rank->label() + ": " + num(d.value, 1) + " " + st.units + " (" +
                num(d.ratio, 3) + " of the median)")
      << "</title></circle>\n";
    if (!d.slow || labelled >= 6) continue;
    const std::string name = "r" + std::to_string(d.rank->rank) + " " + d.rank->hostname;
    const std::optional<Spot> p = layout.place(
        name, 10,
        {{X + 6, Y + dy - 5, "start"}, {X + 6, Y + dy + 12, "start"}, {X - 6, Y + dy - 5, "end"},
         {X - 6, Y + dy + 12, "end"}},
        row);
    if (!p) continue;  // no room: the dot's tooltip names the rank
    ++labelled;
    s << "<text x='" << p->x << "' y='" << p->y << "' text-anchor='" << p->anchor
      << "' font-size='10' fill='#d62728'>" << escape(name) << "</text>\n";
  }
}

// The failed ranks and their reasons, at most `lines` of them, from `y` down.
void draw_failed(std::ostream& s, const ceilings::FleetReview& review, std::size_t lines,
                 double y) {
  for (std::size_t i = 0; i < lines; ++i, y += 16) {
    const ceilings::RankRecord& k = review.failed[i];
    std::string text = "failed: " + k.label() + ": " + k.reason;
    if (text.size() > 140) text = text.substr(0, 137) + "...";
    s << "<text class='failed' x='10' y='" << y << "' font-size='11' fill='#d62728'>"
      << escape(text) << "</text>\n";
  }
  if (review.failed.size() > lines)
    s << "<text x='10' y='" << y << "' font-size='11' fill='#d62728'>"
      << review.failed.size() - lines << " more failed</text>\n";
}

}  // namespace

std::string fleet_spread_svg(const ceilings::FleetFile& fleet,
                             const ceilings::FleetReview& review) {
  Frame f;
  const std::vector<std::vector<Dot>> rows = dots_of(fleet, review, f);
  const double width = 900;
  const double plot_h = f.row_h * static_cast<double>(std::max<std::size_t>(rows.size(), 1));
  const std::size_t failed_lines = std::min<std::size_t>(review.failed.size(), 12);
  const double height = f.y0 + plot_h + 70 + 16 * static_cast<double>(failed_lines) + 30;

  std::ostringstream s;
  svg_begin(s, width, height);
  s << "<text x='" << width / 2
    << "' y='28' text-anchor='middle' font-size='15' "
       "font-weight='bold'>"
    << escape("Fleet: " + std::to_string(fleet.size) + " ranks on " +
              std::to_string(fleet.hosts()) + (fleet.hosts() == 1 ? " host" : " hosts") +
              ", every ceiling relative to its fleet median")
    << "</text>\n";
  s << "<text x='" << f.x0 << "' y='50' font-size='11' fill='#555'>"
    << escape("dots: ranks; red: more than " + num(100.0 * review.threshold, 1) +
              "% below the median (slow)")
    << "</text>\n";
  draw_axes(s, f, plot_h, review.threshold);
  for (std::size_t i = 0; i < rows.size(); ++i) draw_row(s, f, i, fleet.statistics[i], rows[i]);
  if (rows.empty())
    s << "<text x='" << f.x0 + f.w / 2 << "' y='" << f.y0 + f.row_h / 2 + 4
      << "' text-anchor='middle' font-size='12'>no rank measured any ceiling</text>\n";
  draw_failed(s, review, failed_lines, f.y0 + plot_h + 64);
  s << "<text x='10' y='" << height - 8 << "' font-size='10' fill='#777'>rooftop "
    << escape(fleet.provenance.tool_version) << " " << escape(fleet.provenance.git_revision) << ", "
    << escape(fleet.provenance.created_utc) << "</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace rooftop::report
