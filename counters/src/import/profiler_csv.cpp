#include "profiler_csv.hpp"

#include <algorithm>

#include "rooftop/core/error.hpp"
#include "rooftop/core/terminal.hpp"
#include "units.hpp"

namespace rooftop::counters::importing {

const char* format_name(int kind) {
  switch (kind) {
    case kNcuLong:
      return "ncu-long";
    case kNcuWide:
      return "ncu-wide";
    case kNcuSummary:
      return "ncu-summary";
    case kNvprofMetrics:
      return "nvprof-metrics";
    case kNvprofEvents:
      return "nvprof-events";
    case kNvprofTrace:
      return "nvprof GPU trace";
    case kNvprofSummary:
      return "nvprof GPU summary";
    default:
      return "unknown";
  }
}

int column(const csv::Record& header, std::string_view name) {
  for (std::size_t i = 0; i < header.fields.size(); ++i)
    if (header.fields[i] == name) return static_cast<int>(i);
  return -1;
}

const std::string& field(const csv::Table& table, const csv::Record& row, int col,
                         const std::string& file) {
  static const std::string none;
  if (col < 0) return none;
  if (static_cast<std::size_t>(col) >= row.fields.size())
    throw Error(at(file, row.line) + std::to_string(row.fields.size()) +
                " fields where the header on line " + std::to_string(table.header.line) + " has " +
                std::to_string(table.header.fields.size()) + " (no " +
                core::quoted(table.header.fields[col]) + ")");
  return row.fields[col];
}

namespace {

int classify(const csv::Record& h) {
  const auto has = [&](std::string_view name) { return column(h, name) >= 0; };
  if (has("Kernel Name")) {
    if (has("Metric Name") && has("Metric Value")) return kNcuLong;
    if (has("Metric Name") && has("Average")) return kNcuSummary;
    // A metric column is named like "dram__bytes.sum".
    for (const std::string& f : h.fields)
      if (f.find("__") != std::string::npos) return kNcuWide;
    return kNone;
  }
  if (has("Device") && has("Kernel") && has("Invocations")) {
    if (has("Metric Name") && has("Avg")) return kNvprofMetrics;
    if (has("Event Name")) return kNvprofEvents;
    return kNone;
  }
  if (has("Start") && has("Duration") && has("Name")) return kNvprofTrace;
  if (has("Time(%)") && has("Time") && has("Calls") && has("Name")) return kNvprofSummary;
  return kNone;
}

// Older nvprof traces end a kernel's name with its correlation id: "daxpy(...) [118]".
std::string without_correlation(const std::string& name) {
  const std::string s = trim(name);
  if (s.empty() || s.back() != ']') return s;
  const std::size_t open = s.rfind(" [");
  if (open == std::string::npos) return s;
  for (std::size_t i = open + 2; i + 1 < s.size(); ++i)
    if (!is_digit(s[i])) return s;
  return trim(s.substr(0, open));
}

// The units row nvprof prints under a trace or summary header ("ms,us,,,...").
const csv::Record& units_row(const csv::Table& t, int col, const std::string& file) {
  if (t.rows.empty() || parse_number(field(t, t.rows[0], col, file)) ||
      trim(field(t, t.rows[0], col, file)).empty())
    throw Error(at(file, t.rows.empty() ? t.header.line + 1 : t.rows[0].line) +
                "no row of units under the header on line " + std::to_string(t.header.line) +
                " (nvprof prints one, e.g. \"ms,us,,...\")");
  return t.rows[0];
}

void read_trace(const csv::Table& t, Timing& timing) {
  const std::string& file = timing.file;
  const int duration = column(t.header, "Duration"), name = column(t.header, "Name");
  const std::string unit = field(t, units_row(t, duration, file), duration, file);
  for (std::size_t r = 1; r < t.rows.size(); ++r) {
    const csv::Record& row = t.rows[r];
    const auto d = read_value(field(t, row, duration, file), unit, Quantity::time, true,
                              at(file, row.line), "Duration");
    if (!d) continue;
    timing.add_launch(without_correlation(field(t, row, name, file)), *d);
  }
}

void read_summary(const csv::Table& t, Timing& timing) {
  const std::string& file = timing.file;
  const int type = column(t.header, "Type"), time = column(t.header, "Time"),
            calls = column(t.header, "Calls"), min = column(t.header, "Min"),
            max = column(t.header, "Max"), name = column(t.header, "Name");
  const csv::Record& units = units_row(t, time, file);
  const auto unit = [&](int col) { return col < 0 ? std::string() : field(t, units, col, file); };
  for (std::size_t r = 1; r < t.rows.size(); ++r) {
    const csv::Record& row = t.rows[r];
    // API calls and the like are host time, not kernel time.
    if (type >= 0 && trim(field(t, row, type, file)) != "GPU activities") continue;
    const std::string where = at(file, row.line);
    const auto total =
        read_value(field(t, row, time, file), unit(time), Quantity::time, true, where, "Time");
    const std::string& calls_text = field(t, row, calls, file);
    const auto n = parse_count(calls_text);
    if (!n)
      throw Error(where + "Calls " + core::quoted(trim(calls_text)) + " is not a whole number");
    if (!total || *n == 0) continue;
    TimingEntry& e = timing.entry(without_correlation(field(t, row, name, file)));
    e.total += *total;
    e.calls += *n;
    const auto lo = min < 0 ? std::nullopt
                            : read_value(field(t, row, min, file), unit(min), Quantity::time, true,
                                         where, "Min");
    const auto hi = max < 0 ? std::nullopt
                            : read_value(field(t, row, max, file), unit(max), Quantity::time, true,
                                         where, "Max");
    e.min = std::min(e.min, lo.value_or(*total / *n));
    e.max = std::max(e.max, hi.value_or(*total / *n));
  }
}

}  // namespace

bool read_nvprof_timing(const std::vector<csv::Table>& tables, Timing& timing) {
  std::vector<std::string>& notes = timing.notes;
  const csv::Table* used = nullptr;
  for (const csv::Table& t : tables) {
    if (t.kind != kNvprofTrace && t.kind != kNvprofSummary) continue;
    if (used) {
      notes.push_back(timing.file + ": the " + format_name(t.kind) + " on line " +
                      std::to_string(t.header.line) + " ignored: the " + format_name(used->kind) +
                      " on line " + std::to_string(used->header.line) + " gives the times");
      continue;
    }
    used = &t;
    timing.kind = t.kind == kNvprofTrace ? "nvprof GPU trace" : "nvprof GPU summary";
    if (t.kind == kNvprofTrace)
      read_trace(t, timing);
    else
      read_summary(t, timing);
  }
  return used != nullptr;
}

namespace {

[[noreturn]] void no_header(const std::string& name) {
  throw Error(at(name, 1) +
              "no Nsight Compute or nvprof CSV header (expected \"ID\",...,\"Kernel Name\",... "
              "from ncu --csv, or \"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",... "
              "from nvprof --csv --metrics)");
}

}  // namespace

std::vector<csv::Table> profiler_tables(std::string_view text, const std::string& name) {
  if (text.find('\0') != std::string_view::npos)
    throw Error(name +
                ": a binary file, not CSV (an Nsight Compute .ncu-rep? export it with "
                "ncu --import FILE --csv --page raw)");
  std::vector<csv::Table> tables = csv::read_tables(text, name, classify);
  if (tables.empty()) no_header(name);
  return tables;
}

const csv::Table& counts_table(const std::vector<csv::Table>& tables, const std::string& name) {
  // The first table of counts sets the format; others of the same format continue it
  // (reports appended to one file repeat the header).
  const csv::Table* first = nullptr;
  for (const csv::Table& t : tables) {
    if (t.kind == kNcuSummary)
      throw Error(at(name, t.header.line) +
                  "an Nsight Compute --print-summary table: launches are needed, export "
                  "without --print-summary");
    if (t.kind != kNcuLong && t.kind != kNcuWide && t.kind != kNvprofMetrics) continue;
    if (!first) first = &t;
    if (t.kind != first->kind)
      throw Error(at(name, t.header.line) + "an " + format_name(t.kind) + " table after the " +
                  format_name(first->kind) + " one on line " + std::to_string(first->header.line) +
                  ": one format per file");
  }
  if (first) return *first;
  const csv::Table& t = tables.front();
  if (t.kind == kNvprofTrace || t.kind == kNvprofSummary)
    throw Error(at(name, t.header.line) + "an " + format_name(t.kind) +
                " holds times, not counts: give it as the timing file of an nvprof "
                "--metrics report");
  throw Error(at(name, t.header.line) + "an " + format_name(t.kind) +
              " table: no metrics to import (nvprof --csv --metrics ... gives them)");
}

int first_kind(std::string_view text) {
  // A profiler's CSV is text: a NUL byte means a binary file, not worth reading line by line.
  if (text.find('\0') != std::string_view::npos) return kNone;
  // A byte-order mark before a header on the first line (a report saved on Windows, with
  // no ==PROF== line before its table), as read_tables skips it.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  int first = kNone;
  std::size_t pos = 0;
  csv::Record record;
  std::string error;
  int error_line = 0;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    // A header is a short line of quoted names; a long line is data or program output.
    if (line.size() > 65536 || csv::is_banner(line)) continue;
    std::size_t p = 0;
    int l = 1;
    if (!csv::read_record(line, p, l, record, error, error_line)) continue;
    const int kind = classify(record);
    if (kind == kNcuLong || kind == kNcuWide || kind == kNcuSummary || kind == kNvprofMetrics)
      return kind;
    if (!first) first = kind;
  }
  return first;
}

Timing nvprof_times(const Input& file) {
  Timing timing;
  timing.file = file.name;
  const std::vector<csv::Table> tables = profiler_tables(file.text, file.name);
  if (!read_nvprof_timing(tables, timing))
    throw Error(at(file.name, tables.front().header.line) + "an " +
                format_name(tables.front().kind) +
                " table, not an nvprof GPU trace (--print-gpu-trace --csv) or summary (--csv)");
  return timing;
}

}  // namespace rooftop::counters::importing
