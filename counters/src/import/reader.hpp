#pragma once
// The reader interface of the import: one file per format (ncu_csv.cpp, ncu_text.cpp,
// nvprof.cpp, nsys_stats.cpp, ...), each a Reader registered by one line in readers.cpp.
// A reader tells its format from the content alone (never the file name) and reads a
// file into kernel records: FLOPs and bytes through the one evaluator (evaluate.hpp) where
// the format has counts, times where it has times, or times alone (a kernel with a time
// and no counts is listed, not placed). A format that gives kernel times can also serve as
// the timing file of another report (`times`). Private to rooftop_counters.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "rooftop/core/model.hpp"
#include "timing.hpp"

namespace rooftop::counters::importing {

// One file: its text and the name messages give it.
struct Input {
  std::string_view text;
  std::string name;
};

// What a reader made of a report.
struct Reading {
  std::string format;                       // what was found, as told: "ncu-long", "ncu-text"
  std::string family;                       // the reader's family (set by read_report)
  std::vector<core::KernelRecord> kernels;  // ids k1, k2, ... in order of first appearance
  std::vector<std::string> notes;           // one line each, naming the file
  std::map<std::string, std::string> flops_short;  // as ImportResult's
};

// The family of pytorch_trace.cpp's reader: the one trace of kernels and the operators
// that launched them (name_operators reads no other).
inline constexpr const char* kPytorchTraceFamily = "PyTorch profiler trace";

struct Reader {
  // The family, for messages: "Nsight Compute CSV".
  const char* family;
  // Whether `text` is in this format. Decided from the content (a header, the first
  // lines), never throws, and costs at most one pass over the text.
  bool (*detect)(std::string_view text);
  // Reads `report`; `timing` holds the kernel times of a timing file given with it (null:
  // none), read once by the caller, which the reader uses or sets aside with a note.
  // Input it cannot read throws rooftop::Error "FILE:LINE: reason", one line.
  Reading (*read)(const Input& report, const Timing* timing);
  // Kernel times from a file of this format, where it gives them (null: it does not).
  Timing (*times)(const Input& file) = nullptr;
  // Whether the format times kernels and counts no bytes (Nsight Systems, PyTorch): given
  // with a report of counts, it times that report.
  bool times_only = false;
};

// Every reader, in the order they are asked: the first whose detect() is true reads.
const std::vector<Reader>& readers();

// The reader of `text`; null when no reader knows it.
const Reader* find_reader(std::string_view text);

// One file as the readers see it: inflated where it is gzip (gzip.hpp), with the reader
// that knows it. Opening inflates and detects once; every later use reads `input()`.
struct OpenedFile {
  std::string_view original;  // the caller's text, which must outlive this
  std::string name;
  std::string inflated;  // the text, where the file was gzip
  bool gzip = false;
  const Reader* reader = nullptr;
  Input input() const { return {gzip ? std::string_view(inflated) : original, name}; }
};
// Error (one line) when no reader knows the file.
OpenedFile open_file(const Input& file);

// The kernel times in `file`, by the reader that knows it; Error when the format it is in
// has no times.
Timing read_timing(const OpenedFile& file);

// `file` read by the reader that knows it, timed by `timing` where given.
Reading read_report(const OpenedFile& file, const Timing* timing);

// The kernels of a file that times kernels and counts nothing (Nsight Systems, a PyTorch
// trace): one record per timing entry, with its time, its FLOPs where the file has them,
// and no bytes; `source` names the importer ("nsys-import"). Notes say what they lack.
Reading timed_reading(const Timing& timing, const std::string& format, const char* source,
                      const Timing* given);

// Times the kernels of an Nsight Compute report by `timing` (their own are kept where it
// has none): matched by name, scaled where it times another number of launches.
void apply_timing(std::vector<core::KernelRecord>& kernels, Timing& timing,
                  std::vector<std::string>& notes);

}  // namespace rooftop::counters::importing

namespace rooftop::counters {
struct ReportFile;
// `trace` opened, Error (one line) where it is no PyTorch profiler trace: "...: `lacks`".
importing::OpenedFile open_pytorch_trace(const ReportFile& trace, const std::string& lacks);
}  // namespace rooftop::counters
