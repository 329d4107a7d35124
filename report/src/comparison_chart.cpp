// Several machines' rooflines overlaid on one chart, one colour per machine.

#include "chart_data.hpp"
#include "roofs.hpp"
#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/report/chart.hpp"
#include "svg.hpp"

namespace rooftop::report {

std::string comparison_svg(const std::vector<core::CeilingsFile>& files,
                           const std::vector<std::string>& labels) {
  ROOFTOP_REQUIRE(labels.size() == files.size(), "one label per file");
  RoofRange range;
  for (const auto& f : files) range.add(f);
  std::ostringstream s;
  const double width = 900, height = 560;
  svg_begin(s, width, height);
  const Axes a = roofline_axes(range, 0);
  frame(s, a, "Rooflines compared", "arithmetic intensity (FLOP/byte)", "GFLOP/s", false);

  // Files with the same ceilings share one set of roofs, tagged with all their numbers.
  const std::vector<std::size_t> first = same_roofs(files);
  std::vector<std::string> tags(files.size());
  for (std::size_t k = 0; k < files.size(); ++k) {
    std::string& tag = tags[first[k]];
    tag += (tag.empty() ? "" : ",") + std::to_string(k + 1);
  }
  Layout layout;
  std::vector<Roof> compute, bandwidth;
  for (std::size_t k = 0; k < files.size(); ++k) {
    const std::string color = kPalette[first[k] % 8];
    if (first[k] == k) add_roofs(files[k], color, "[" + tags[k] + "] ", compute, bandwidth);
    // Legend: one colour per machine, top left inside the plot.
    const double y = a.y0 + 16 + 16 * static_cast<double>(k);
    const std::string text =
        "[" + std::to_string(k + 1) + "] " + labels[k] + ": " +
        ceilings::machine_name(files[k].machine) +
        (first[k] == k ? "" : " (the ceilings of [" + std::to_string(first[k] + 1) + "])");
    s << "<line class='legend' x1='" << a.x0 + 8 << "' y1='" << y - 4 << "' x2='" << a.x0 + 28
      << "' y2='" << y - 4 << "' stroke='" << color << "' stroke-width='3'/><text x='" << a.x0 + 34
      << "' y='" << y << "' font-size='11' fill='" << color << "'>" << escape(text) << "</text>\n";
    layout.labels.push_back(text_box(a.x0 + 34, y, text_width(text, 11), 11, "start"));
  }
  draw_compute_roofs(s, a, compute, layout);
  draw_bandwidth_roofs(s, a, bandwidth, layout);
  s << "<text x='" << a.x0 << "' y='" << a.y0 + a.h + 58
    << "' font-size='11' fill='#555'>solid: FMA or measured bandwidth; dashed: separate "
       "multiply and add; dotted: theoretical, not measured</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace rooftop::report
