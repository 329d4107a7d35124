#include "units.hpp"

#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <limits>

#include "rooftop/core/error.hpp"
#include "rooftop/core/terminal.hpp"

namespace rooftop::counters::importing {

std::string at(const std::string& file, int line) {
  return file + ":" + std::to_string(line) + ": ";
}

// What the profilers print where they have no value.
bool is_missing(std::string_view text) {
  const std::string s = trim(text);
  return s.empty() || s == "n/a" || s == "N/A" || s == "-";
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A decimal number, with thousands separators where they group digits by three
// ("1,234,567.5"); empty for anything else.
std::optional<double> parse_number(std::string_view text) {
  const std::string s = trim(text);
  std::string clean;
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) clean += s[i++];
  int digits = 0, group = 0;
  bool separated = false;
  for (; i < s.size() && (is_digit(s[i]) || s[i] == ','); ++i) {
    if (s[i] == ',') {
      if (separated ? group != 3 : group < 1 || group > 3) return std::nullopt;
      separated = true;
      group = 0;
    } else {
      clean += s[i];
      ++group;
      ++digits;
    }
  }
  if (separated && group != 3) return std::nullopt;
  if (i < s.size() && s[i] == '.') {
    clean += s[i++];
    for (; i < s.size() && is_digit(s[i]); ++i, ++digits) clean += s[i];
  }
  if (digits == 0) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    clean += s[i++];
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) clean += s[i++];
    if (i >= s.size() || !is_digit(s[i])) return std::nullopt;
    for (; i < s.size() && is_digit(s[i]); ++i) clean += s[i];
  }
  if (i != s.size()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(clean.c_str(), &end);
  if (end != clean.c_str() + clean.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

namespace {

// The length of the longest prefix of `s` that parse_number's grammar accepts (0: none),
// found in one pass: trying every prefix would be quadratic in a long field.
std::size_t number_prefix(std::string_view s) {
  std::size_t i = 0, best = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  int digits = 0, group = 0;
  bool separated = false;
  for (; i < s.size() && (is_digit(s[i]) || s[i] == ','); ++i) {
    if (s[i] == ',') {
      if (separated ? group != 3 : group < 1 || group > 3) return best;
      separated = true;
      group = 0;
    } else {
      ++group;
      ++digits;
      if (!separated || group == 3) best = i + 1;
    }
  }
  if (separated && group != 3) return best;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits > 0) best = i;
    for (; i < s.size() && is_digit(s[i]); ++i, ++digits) best = i + 1;
  }
  if (digits == 0) return 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    for (; i < s.size() && is_digit(s[i]); ++i) best = i + 1;
  }
  return best;
}

}  // namespace

// nvprof appends the unit to the value ("976.5625GB/s", "99.5%"): the longest prefix
// that is a number, and the rest.
std::optional<std::pair<double, std::string>> split_number(std::string_view text) {
  const std::string s = trim(text);
  const std::size_t n = number_prefix(s);
  if (n == 0) return std::nullopt;
  const auto v = parse_number(std::string_view(s).substr(0, n));
  if (!v) return std::nullopt;
  return {{*v, trim(s.substr(n))}};
}

const char* quantity_name(Quantity q) {
  switch (q) {
    case Quantity::count: return "a count";
    case Quantity::bytes: return "a byte count";
    case Quantity::time: return "a time";
    case Quantity::frequency: return "a clock rate";
    case Quantity::rate: return "a throughput";
    case Quantity::per_cycle: return "an instruction rate per cycle";
  }
  return "";
}

namespace {

// K, M, G, T: powers of 1000 for Nsight Compute ("Kbyte" is 10^3 bytes), of 1024 for
// nvprof (its trace prints 1028 bytes as "1.003906 KB"); Ki, Mi, Gi, Ti always 1024.
std::optional<double> prefix_factor(std::string_view p, bool binary) {
  const double k = binary ? 1024.0 : 1000.0;
  if (p.empty()) return 1.0;
  if (p == "K" || p == "k") return k;
  if (p == "M") return k * k;
  if (p == "G") return k * k * k;
  if (p == "T") return k * k * k * k;
  if (p == "Ki") return 1024.0;
  if (p == "Mi") return 1024.0 * 1024.0;
  if (p == "Gi") return 1024.0 * 1024.0 * 1024.0;
  if (p == "Ti") return 1024.0 * 1024.0 * 1024.0 * 1024.0;
  return std::nullopt;
}

// `unit` = prefix + one of `bases`.
std::optional<double> prefixed(std::string_view unit, std::initializer_list<std::string_view> bases,
                               bool binary) {
  for (std::string_view base : bases)
    if (unit.size() >= base.size() && unit.substr(unit.size() - base.size()) == base)
      if (auto f = prefix_factor(unit.substr(0, unit.size() - base.size()), binary)) return f;
  return std::nullopt;
}

std::optional<double> seconds_per(std::string_view u) {
  if (u == "ns" || u == "nsecond" || u == "nanosecond") return 1e-9;
  if (u == "us" || u == "usecond" || u == "microsecond" || u == "\xC2\xB5s") return 1e-6;
  if (u == "ms" || u == "msecond" || u == "millisecond") return 1e-3;
  if (u == "s" || u == "second" || u == "sec") return 1.0;
  return std::nullopt;
}

}  // namespace

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::optional<double> unit_factor(Quantity q, std::string_view unit, bool binary) {
  const std::string u = trim(unit);
  switch (q) {
    case Quantity::count:
      if (u.empty()) return 1.0;
      return prefixed(u,
                      {"inst", "sector", "cycle", "warp", "thread", "request", "transaction", "op",
                       "ops"},  // ops: a matrix unit's (sm__ops_path_tensor_*)
                      false);
    case Quantity::bytes:
      if (u.empty()) return 1.0;
      return prefixed(u, {"byte", "bytes", "B"}, binary);
    case Quantity::time:
      return seconds_per(u);
    case Quantity::frequency: {
      const std::string l = lower(u);
      if (l == "hz") return 1.0;
      if (l == "khz") return 1e3;
      if (l == "mhz") return 1e6;
      if (l == "ghz") return 1e9;
      if (l.rfind("cycle/", 0) == 0)
        if (const auto s = seconds_per(l.substr(6))) return 1.0 / *s;
      return std::nullopt;
    }
    case Quantity::rate: {
      const std::size_t slash = u.find('/');
      if (slash == std::string::npos) return std::nullopt;
      const auto b =
          slash == 0 ? std::nullopt : prefixed(u.substr(0, slash), {"byte", "bytes", "B"}, binary);
      const auto s = seconds_per(u.substr(slash + 1));
      if (!b || !s) return std::nullopt;
      return *b / *s;
    }
    case Quantity::per_cycle: {
      if (u.empty()) return 1.0;
      const std::size_t slash = u.find('/');
      if (slash == std::string::npos || u.substr(slash + 1) != "cycle") return std::nullopt;
      return prefixed(u.substr(0, slash), {"inst"}, false);
    }
  }
  return std::nullopt;
}

// `v` in `unit`, converted to the base unit of `q`.
double to_base(double v, std::string_view text, std::string_view unit, Quantity q, bool binary,
               const std::string& where, const std::string& metric) {
  if (v < 0.0) throw Error(where + core::quoted(trim(text)) + " for " + metric + " is negative");
  const auto f = unit_factor(q, unit, binary);
  if (!f && trim(unit).empty())
    throw Error(where + metric + " has no unit (" + quantity_name(q) + " needs one)");
  if (!f)
    throw Error(where + "unit " + core::quoted(trim(unit)) + " of " + metric + " is not " +
                quantity_name(q) + " unit");
  return v * *f;
}

// A value in the base unit of `q`; empty where the profiler printed none ("n/a").
std::optional<double> read_value(std::string_view text, std::string_view unit, Quantity q,
                                 bool binary, const std::string& where, const std::string& metric) {
  if (is_missing(text)) return std::nullopt;
  const auto v = parse_number(text);
  if (!v) throw Error(where + core::quoted(trim(text)) + " for " + metric + " is not a number");
  return to_base(*v, text, unit, q, binary, where, metric);
}

std::optional<int> parse_count(std::string_view text) {
  const auto v = parse_number(text);
  if (!v || *v < 0.0 || *v != std::floor(*v) || *v > std::numeric_limits<int>::max())
    return std::nullopt;
  return static_cast<int>(*v);
}

}  // namespace rooftop::counters::importing
