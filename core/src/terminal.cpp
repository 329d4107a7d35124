#include "rooftop/core/terminal.hpp"

#include <cstdio>

namespace rooftop::core {

std::string terminal_text(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  char buf[8];
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const unsigned char next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else if (c == 0xc2 && next >= 0x80 && next <= 0x9f) {  // U+0080..U+009F: C1 controls
      std::snprintf(buf, sizeof buf, "\\u%04x", next);
      out += buf;
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string terminal_line(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else
      out += c;
  }
  return terminal_text(out);
}

std::string quoted(std::string_view text) {
  constexpr std::size_t kLongest = 64;
  return "\"" + terminal_line(text.substr(0, kLongest)) + (text.size() > kLongest ? "...\"" : "\"");
}

}  // namespace rooftop::core
