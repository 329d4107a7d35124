#pragma once
// Numbers and lists as text, in one place: tables, charts, notes and messages format a
// number or a list through these instead of a buffer and snprintf, or a loop, of their own.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rooftop::core {

// One number through one printf conversion, with any text around it:
// format_number("%.3g", 1234.5) == "1.23e+03", format_number("%.1f%%", 12.34) == "12.3%".
std::string format_number(const char* conversion, double value);

// `digits` after the decimal point: fixed(2.345, 1) == "2.3".
std::string fixed(double value, int digits);

// A figure as every table and chart label prints it: at least `digits` significant
// digits, and the whole of its integer part, with thousands separators from 1,000 on;
// beyond 1e15 or below 1e-4 in exponent form. So small values keep their digits and
// large ones are never rounded to hundreds: significant(0.069812) == "0.0698",
// significant(1.2) == "1.20", significant(412.04) == "412", significant(33086.3) ==
// "33,086", significant(2.5e-6) == "2.50e-06"; "inf", "nan" as printf writes them.
std::string significant(double value, int digits = 3);

// The digits every table gives, as the HTML report's tables do: a measured figure (a
// ceiling's value, median, min and max, a rate, a time) four, a ratio, fraction or
// percentage three.
inline constexpr int kFigureDigits = 4;
inline constexpr int kRatioDigits = 3;

// Without the spaces, tabs and line ends at either end: trim(" a b\r\n") == "a b".
std::string trim(std::string_view text);

// The items with `separator` between them: join({"a", "b"}, ", ") == "a, b".
std::string join(const std::vector<std::string>& items, const std::string& separator);
// The first `shown` items joined so, then how many more, so that a list of thousands stays
// a line: join_first({"a", "b", "c"}, ", ", 2) == "a, b, 1 more".
std::string join_first(const std::vector<std::string>& items, const std::string& separator,
                       std::size_t shown);

}  // namespace rooftop::core
