// Several machines' rooflines overlaid on one chart, one colour per machine.

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

}  // namespace rooftop::report
