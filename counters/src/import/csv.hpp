#pragma once
// The CSV the NVIDIA profilers print: RFC 4180 quoting ("" inside a quoted field, commas
// and line breaks inside quotes), wrapped in lines that are not CSV at all: banners
// ("==PROF== ...", "==12345== ..."), the profiled program's own output, and several
// tables in one stream (nvprof's "Event result:" and "Metric result:"). Private to
// rooftop_analyze's importers.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rooftop::counters::csv {

struct Record {
  int line = 0;  // 1-based line the record starts on
  std::vector<std::string> fields;
};

// Reads one record starting at text[pos], on line `line`; afterwards pos and line are
// past it. False, with a one-line reason in `error`, on an unbalanced quote or text
// around a quoted field; `error_line` is then the line to blame.
bool read_record(std::string_view text, std::size_t& pos, int& line, Record& out,
                 std::string& error, int& error_line);

// A header line and the records under it, up to the next header.
struct Table {
  int kind = 0;  // what `classify` returned for the header
  Record header;
  std::vector<Record> rows;
};

// Splits a profiler's output into tables. `classify` returns a non-zero kind for a
// header it recognizes. Before the first header every line is taken on its own and
// anything that is not a header is skipped (banners, program output); after it,
// banners ("==" at the start of a line) and blank lines are skipped and every other
// line must be a well-formed record, or Error "NAME:LINE: reason" is thrown.
std::vector<Table> read_tables(std::string_view text, const std::string& name,
                               const std::function<int(const Record&)>& classify);

// Whether a line is a profiler banner: "==PROF== ...", "==12345== ...", "======== ...".
bool is_banner(std::string_view line);

}  // namespace rooftop::counters::csv
