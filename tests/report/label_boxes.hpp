#pragma once
// The text of an SVG chart as boxes, to check that no two labels overlap: every <text>
// element, its box estimated as the charts estimate it (0.58 em a character, from 0.8 em
// above the baseline to 0.22 em below), through the transforms of its groups and its
// own (translate and rotate), so that slanted labels are checked as drawn.

#include <array>
#include <string>
#include <vector>

namespace rooftop::testing {

struct TextBox {
  std::string text;
  std::array<std::array<double, 2>, 4> corners;  // a rectangle, maybe rotated
};

std::vector<TextBox> text_boxes(const std::string& svg);

// Each pair of boxes whose insides intersect, as "a" / "b" lines; empty where none do.
std::vector<std::string> overlapping_labels(const std::string& svg);

}  // namespace rooftop::testing
