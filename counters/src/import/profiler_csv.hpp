#pragma once
// The CSV of Nsight Compute (`ncu --csv`) and nvprof (`nvprof --csv`): tables told apart
// by their header row, one format of counts per file, and nvprof's GPU trace and summary
// tables of kernel times. Shared by ncu_csv.cpp and nvprof.cpp. Private to rooftop_counters.

#include <string>
#include <string_view>
#include <vector>

#include "csv.hpp"
#include "reader.hpp"
#include "timing.hpp"

namespace rooftop::counters::importing {

enum Kind : int {
  kNone = 0,
  kNcuLong,        // one row per metric
  kNcuWide,        // one column per metric
  kNcuSummary,     // --print-summary: per-kernel min/max/average, no launches
  kNvprofMetrics,  // --metrics
  kNvprofEvents,   // --events: not used
  kNvprofTrace,    // --print-gpu-trace
  kNvprofSummary,  // the default summary
};

const char* format_name(int kind);

// The index of the header field `name`; -1 when absent.
int column(const csv::Record& header, std::string_view name);

// The field of `row` in column `col` ("" for col -1); Error when the row stops short of it.
const std::string& field(const csv::Table& table, const csv::Record& row, int col,
                         const std::string& file);

// The tables of a profiler CSV; Error for a binary file or malformed CSV.
std::vector<csv::Table> profiler_tables(std::string_view text, const std::string& name);

// The first table of counts (ncu-long, ncu-wide, nvprof-metrics), which sets the format
// of the file; Error where there is none, or where a second format follows it.
const csv::Table& counts_table(const std::vector<csv::Table>& tables, const std::string& name);

// The kind of the first table of counts in `text`, else of its first table; kNone when
// no line is a header. For detection: looks at headers only and never throws.
int first_kind(std::string_view text);

// Kernel times from the first nvprof GPU trace or summary table of `tables` (a note for
// any other); false when there is none.
bool read_nvprof_timing(const std::vector<csv::Table>& tables, Timing& timing);

// Reader::times of the profiler CSV family: a file holding an nvprof GPU trace or summary.
Timing nvprof_times(const Input& file);

}  // namespace rooftop::counters::importing
