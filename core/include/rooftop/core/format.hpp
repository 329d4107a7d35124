#pragma once
// Numbers as text, in one place: tables, charts, notes and messages format a number
// through these instead of a buffer and snprintf of their own.

#include <string>

namespace rooftop::core {

// One number through one printf conversion, with any text around it:
// format_number("%.3g", 1234.5) == "1.23e+03", format_number("%.1f%%", 12.34) == "12.3%".
std::string format_number(const char* conversion, double value);

// `digits` after the decimal point: fixed(2.345, 1) == "2.3".
std::string fixed(double value, int digits);

}  // namespace rooftop::core
