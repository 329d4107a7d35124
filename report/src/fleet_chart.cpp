// The spread of each ceiling across a fleet, every rank relative to the fleet median.

#include <algorithm>
#include <cmath>
#include <optional>

#include "rooftop/report/chart.hpp"
#include "svg.hpp"

namespace rooftop::report {

using core::Ceiling;

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
    Layout layout;  // the slow ranks' names of this row, none over another
    const Box row{x0, Y - row_h / 2, x0 + w, Y + row_h / 2};
    for (const Dot& d : rows[i]) {
      const double X = px(d.ratio);
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

}  // namespace rooftop::report
