#include "label_boxes.hpp"

#include <cmath>
#include <cstdlib>
#include <regex>

namespace rooftop::testing {
namespace {

// An affine map: x' = a x + c y + e, y' = b x + d y + f (SVG's matrix order).
struct Affine {
  double a = 1, b = 0, c = 0, d = 1, e = 0, f = 0;
  Affine then(const Affine& inner) const {  // this ∘ inner
    return {a * inner.a + c * inner.b,     b * inner.a + d * inner.b,
            a * inner.c + c * inner.d,     b * inner.c + d * inner.d,
            a * inner.e + c * inner.f + e, b * inner.e + d * inner.f + f};
  }
  std::array<double, 2> at(double x, double y) const {
    return {a * x + c * y + e, b * x + d * y + f};
  }
};

// "translate(x,y) rotate(deg)": the functions the charts write, applied right to left.
Affine parse_transform(const std::string& text) {
  Affine m;
  static const std::regex function(
      R"((translate|rotate)\(\s*([-0-9.e+]+)(?:[\s,]+([-0-9.e+]+))?\s*\))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), function);
       it != std::sregex_iterator(); ++it) {
    const double p = std::atof((*it)[2].str().c_str());
    const double q = (*it)[3].matched ? std::atof((*it)[3].str().c_str()) : 0.0;
    Affine step;
    if ((*it)[1] == "translate") {
      step.e = p;
      step.f = q;
    } else {
      const double r = p * 3.14159265358979323846 / 180.0;
      step = {std::cos(r), std::sin(r), -std::sin(r), std::cos(r), 0, 0};
    }
    m = m.then(step);
  }
  return m;
}

std::string attribute(const std::string& attrs, const std::string& name) {
  const std::regex re("(?:^|\\s)" + name + "='([^']*)'");
  std::smatch m;
  return std::regex_search(attrs, m, re) ? m[1].str() : "";
}

// The characters a reader sees: titles and tags dropped, entities one character each,
// UTF-8 counted by code point.
std::size_t visible_length(std::string content, std::string& text) {
  content = std::regex_replace(content, std::regex("<title>[\\s\\S]*?</title>"), "");
  content = std::regex_replace(content, std::regex("<[^>]*>"), "");
  content = std::regex_replace(content, std::regex("&[a-z]+;"), "?");
  text = content;
  std::size_t n = 0;
  for (char ch : content) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return n;
}

// Whether two convex quadrilaterals' insides meet (separating axes, 0.01 px of slack).
bool intersect(const TextBox& p, const TextBox& q) {
  for (const TextBox* shape : {&p, &q})
    for (int i = 0; i < 4; ++i) {
      const auto& u = shape->corners[i];
      const auto& v = shape->corners[(i + 1) % 4];
      const double nx = v[1] - u[1], ny = u[0] - v[0];
      const double length = std::hypot(nx, ny);
      if (length == 0) continue;
      double lo1 = 1e300, hi1 = -1e300, lo2 = 1e300, hi2 = -1e300;
      for (const auto& c : p.corners) {
        const double t = (c[0] * nx + c[1] * ny) / length;
        lo1 = std::min(lo1, t), hi1 = std::max(hi1, t);
      }
      for (const auto& c : q.corners) {
        const double t = (c[0] * nx + c[1] * ny) / length;
        lo2 = std::min(lo2, t), hi2 = std::max(hi2, t);
      }
      if (hi1 <= lo2 + 0.01 || hi2 <= lo1 + 0.01) return false;
    }
  return true;
}

}  // namespace

std::vector<TextBox> text_boxes(const std::string& svg) {
  struct Group {
    Affine transform;
    double font_size;
  };
  std::vector<Group> stack{{Affine{}, 16.0}};
  std::vector<TextBox> out;
  static const std::regex tag(R"(<(/?)(g|text)\b([^>]*?)(/?)>)");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tag); it != std::sregex_iterator();
       ++it) {
    const std::smatch& m = *it;
    const std::string attrs = m[3].str();
    if (m[2] == "g") {
      if (m[1] == "/") {
        if (stack.size() > 1) stack.pop_back();
      } else if (m[4] != "/") {
        const std::string size = attribute(attrs, "font-size");
        stack.push_back(
            {stack.back().transform.then(parse_transform(attribute(attrs, "transform"))),
             size.empty() ? stack.back().font_size : std::atof(size.c_str())});
      }
      continue;
    }
    if (m[1] == "/" || m[4] == "/") continue;
    const std::size_t start = static_cast<std::size_t>(m.position(0) + m.length(0));
    const std::size_t end = svg.find("</text>", start);
    std::string text;
    const std::size_t n = visible_length(svg.substr(start, end - start), text);
    if (n == 0) continue;
    const std::string size = attribute(attrs, "font-size");
    const double font = size.empty() ? stack.back().font_size : std::atof(size.c_str());
    const double x = std::atof(attribute(attrs, "x").c_str());
    const double y = std::atof(attribute(attrs, "y").c_str());
    const double width = 0.58 * font * static_cast<double>(n);
    const std::string anchor = attribute(attrs, "text-anchor");
    const double left = anchor == "end" ? x - width : anchor == "middle" ? x - width / 2 : x;
    const Affine to_chart =
        stack.back().transform.then(parse_transform(attribute(attrs, "transform")));
    const double top = y - 0.8 * font, bottom = y + 0.22 * font;
    out.push_back({text,
                   {to_chart.at(left, top), to_chart.at(left + width, top),
                    to_chart.at(left + width, bottom), to_chart.at(left, bottom)}});
  }
  return out;
}

std::vector<std::string> overlapping_labels(const std::string& svg) {
  const std::vector<TextBox> boxes = text_boxes(svg);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < boxes.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (intersect(boxes[i], boxes[j])) out.push_back(boxes[j].text + " / " + boxes[i].text);
  return out;
}

}  // namespace rooftop::testing
