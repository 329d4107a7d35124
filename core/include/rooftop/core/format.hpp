#pragma once
// Numbers and lists as text, in one place: tables, charts, notes and messages format a
// number or a list through these instead of a buffer and snprintf, or a loop, of their own.

#include <string>
#include <vector>

namespace rooftop::core {

// One number through one printf conversion, with any text around it:
// format_number("%.3g", 1234.5) == "1.23e+03", format_number("%.1f%%", 12.34) == "12.3%".
std::string format_number(const char* conversion, double value);

// `digits` after the decimal point: fixed(2.345, 1) == "2.3".
std::string fixed(double value, int digits);

// The items with `separator` between them: join({"a", "b"}, ", ") == "a, b".
std::string join(const std::vector<std::string>& items, const std::string& separator);

}  // namespace rooftop::core
