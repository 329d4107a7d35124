// Nsight Systems' statistics as CSV (`nsys stats --report cuda_gpu_kern_sum --format csv`,
// or `cuda_gpu_trace`), to stdout or a file, with or without the lines nsys prints before
// the table ("Generating SQLite file ...", "Processing [...] with [...]...", NOTICE lines):
//   cuda_gpu_kern_sum  Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),
//                      Max (ns),StdDev (ns)[,GridXYZ,BlockXYZ],Name  (one row per kernel,
//                      or per kernel and launch shape with GridXYZ/BlockXYZ)
//   cuda_gpu_trace     Start (ns),Duration (ns),CorrId,GrdX,...,Strm,Name  (one row per
//                      kernel launch or memory operation; the operations are skipped)
// Older versions (gpukernsum, gputrace) print the same columns. Kernel times only: on their
// own the kernels are listed with their times; as --timing they time an Nsight Compute or
// nvprof report of the same run.

#include <string>
#include <string_view>

#include "csv.hpp"
#include "profiler_csv.hpp"
#include "reader.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/terminal.hpp"
#include "units.hpp"

namespace rooftop::counters::importing {
namespace {

enum NsysKind : int { kNsysNone = 0, kKernSum, kGpuTrace };

int classify(const csv::Record& h) {
  const auto has = [&](std::string_view name) { return column(h, name) >= 0; };
  if (!has("Name")) return kNsysNone;
  if (has("Total Time (ns)") && has("Instances")) return kKernSum;
  if (has("Start (ns)") && has("Duration (ns)")) return kGpuTrace;
  return kNsysNone;
}

const char* kind_name(int kind) {
  return kind == kKernSum ? "nsys cuda_gpu_kern_sum" : "nsys cuda_gpu_trace";
}

bool detect(std::string_view text) {
  if (text.find('\0') != std::string_view::npos) return false;
  std::size_t pos = 0;
  csv::Record record;
  std::string error;
  int error_line = 0;
  // The header comes after at most a few lines of nsys's own messages.
  for (int lines = 0; pos < text.size() && lines < 64; ++lines) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.size() > 4096) continue;
    std::size_t p = 0;
    int l = 1;
    if (csv::read_record(line, p, l, record, error, error_line) && classify(record) != kNsysNone)
      return true;
  }
  return false;
}

// A time in nanoseconds; Error naming the place for text that is no time.
double nanoseconds(const std::string& text, const std::string& where, const char* column_name) {
  const auto v = read_value(text, "ns", Quantity::time, false, where, column_name);
  if (!v) throw Error(where + "no " + column_name + " (\"" + trim(text) + "\")");
  return *v;
}

void read_kern_sum(const csv::Table& t, Timing& timing) {
  const std::string& file = timing.file;
  const int total = column(t.header, "Total Time (ns)"), n = column(t.header, "Instances"),
            min = column(t.header, "Min (ns)"), max = column(t.header, "Max (ns)"),
            name = column(t.header, "Name");
  for (const csv::Record& row : t.rows) {
    if (row.fields.size() == 1) continue;  // a line of nsys's own between reports
    const std::string where = at(file, row.line);
    const std::string& calls_text = field(t, row, n, file);
    const auto calls = parse_count(calls_text);
    if (!calls)
      throw Error(where + "Instances " + core::quoted(trim(calls_text)) + " is not a whole number");
    const double sum = nanoseconds(field(t, row, total, file), where, "Total Time (ns)");
    if (*calls == 0) continue;
    // With GridXYZ and BlockXYZ one kernel has a row per launch shape: they add up.
    TimingEntry& e = timing.entry(trim(field(t, row, name, file)));
    e.total += sum;
    e.calls += *calls;
    const double avg = sum / *calls;
    e.min =
        std::min(e.min, min < 0 ? avg : nanoseconds(field(t, row, min, file), where, "Min (ns)"));
    e.max =
        std::max(e.max, max < 0 ? avg : nanoseconds(field(t, row, max, file), where, "Max (ns)"));
  }
}

void read_gpu_trace(const csv::Table& t, Timing& timing) {
  const std::string& file = timing.file;
  const int duration = column(t.header, "Duration (ns)"), name = column(t.header, "Name"),
            grid = column(t.header, "GrdX");
  for (const csv::Record& row : t.rows) {
    if (row.fields.size() == 1) continue;
    const std::string kernel = trim(field(t, row, name, file));
    // Copies and memsets ("[CUDA memcpy Host-to-Device]") have no launch grid.
    if (kernel.rfind("[CUDA ", 0) == 0) continue;
    if (grid >= 0 && trim(field(t, row, grid, file)).empty()) continue;
    timing.add_launch(
        kernel, nanoseconds(field(t, row, duration, file), at(file, row.line), "Duration (ns)"));
  }
}

Timing times(const Input& file) {
  Timing timing;
  timing.file = file.name;
  const std::vector<csv::Table> tables = csv::read_tables(file.text, file.name, classify);
  for (const csv::Table& t : tables) {
    if (!timing.kind.empty()) {
      timing.notes.push_back(file.name + ": the " + kind_name(t.kind) + " table on line " +
                             std::to_string(t.header.line) +
                             " ignored: the first one gives the times");
      continue;
    }
    timing.kind = kind_name(t.kind);
    if (t.kind == kKernSum)
      read_kern_sum(t, timing);
    else
      read_gpu_trace(t, timing);
  }
  if (timing.kind.empty())
    throw Error(at(file.name, 1) + "no nsys cuda_gpu_kern_sum or cuda_gpu_trace header");
  return timing;
}

Reading read(const Input& file, const Timing* given) {
  const Timing timing = times(file);
  return timed_reading(timing, timing.kind, "nsys-import", given);
}

}  // namespace

Reader nsys_stats_reader() { return {"Nsight Systems stats CSV", detect, read, times, true}; }

}  // namespace rooftop::counters::importing
