#pragma once
// Numbers and units as the profilers print them, parsed once for every reader: thousands
// separators ("1,234,567.5"), values with the unit glued on ("976.5625GB/s"), "n/a", and
// the unit names of Nsight Compute (byte, Kbyte, sector, inst, nsecond, cycle/usecond),
// nvprof (KB, GB/s, us) and Nsight Systems (ns). Private to rooftop_counters' readers.

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "rooftop/core/format.hpp"

namespace rooftop::counters::importing {

// "FILE:LINE: ", the start of every message about a place in a file.
std::string at(const std::string& file, int line);

using core::trim;  // rooftop/core/format.hpp
std::string lower(std::string s);
bool is_digit(char c);

// What the profilers print where they have no value: "", "n/a", "N/A", "-".
bool is_missing(std::string_view text);

// A decimal number, with thousands separators where they group digits by three
// ("1,234,567.5"); empty for anything else, and for values beyond a double.
std::optional<double> parse_number(std::string_view text);

// The longest prefix that is a number and the rest, trimmed: "976.5625GB/s" ->
// {976.5625, "GB/s"}; empty where no prefix is a number. Linear in the text.
std::optional<std::pair<double, std::string>> split_number(std::string_view text);

// A whole number from 0 to INT_MAX ("1,024"); empty for anything else.
std::optional<int> parse_count(std::string_view text);

// per_cycle: instructions per elapsed cycle ("inst/cycle", Nsight Compute's
// `.per_cycle_elapsed` rates).
enum class Quantity { count, bytes, time, frequency, rate, per_cycle };

// "a count", "a byte count", "a time", ...
const char* quantity_name(Quantity q);

// Factor from `unit` to the base unit of `q` (1, byte, second, 1/second, byte/second,
// inst/cycle); empty when `unit` is no unit of `q`. An empty unit is the base unit of
// counts, bytes and per-cycle rates.
// K, M, G, T are powers of 1000 (Nsight Compute: "Kbyte" is 10^3 bytes), or of 1024 where
// `binary` (nvprof: its trace prints 1028 bytes as "1.003906 KB"); Ki, Mi, Gi, Ti always 1024.
std::optional<double> unit_factor(Quantity q, std::string_view unit, bool binary);

// `v` (printed as `text`) in `unit`, converted to the base unit of `q`. Error
// "WHERE..." for a negative value or a unit that is not one of `q`.
double to_base(double v, std::string_view text, std::string_view unit, Quantity q, bool binary,
               const std::string& where, const std::string& metric);

// A value in the base unit of `q`; empty where the profiler printed none ("n/a"); Error
// "WHERE..." for text that is not a number.
std::optional<double> read_value(std::string_view text, std::string_view unit, Quantity q,
                                 bool binary, const std::string& where, const std::string& metric);

}  // namespace rooftop::counters::importing
