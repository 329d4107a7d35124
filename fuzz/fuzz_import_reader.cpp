// One reader of the profiler import on arbitrary bytes, as `rooftop import` reads a file:
// inflated where it is gzip, told apart by content, then read by the reader the target is
// built for (ROOFTOP_FUZZ_READER, the name of its registry entry in counters/src/import/readers.cpp:
// ncu_csv, nvprof, ncu_text, nsys_stats, nsys_sqlite, pytorch_trace, pytorch_metrics); an input another
// reader claims is left alone, so each target's executions are its reader's. The first byte
// chooses between a report alone (even) and a report with a timing file (odd: the rest is
// split at the first form feed), as `rooftop import REPORT --timing FILE`; where the reader
// gives kernel times, the report is also read as a timing file, and a PyTorch trace call by
// call (read_operator_calls). Any outcome but a result or rooftop::Error is a bug.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "reader.hpp"
#include "rooftop/counters/import.hpp"
#include "rooftop/core/error.hpp"

#define ROOFTOP_FUZZ_CONCAT(a, b) a##b
#define ROOFTOP_FUZZ_READER_FUNCTION(name) ROOFTOP_FUZZ_CONCAT(name, _reader)

namespace rooftop::counters::importing {
Reader ROOFTOP_FUZZ_READER_FUNCTION(ROOFTOP_FUZZ_READER)();
}

namespace importing = rooftop::counters::importing;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const importing::Reader fuzzed =
      importing::ROOFTOP_FUZZ_READER_FUNCTION(ROOFTOP_FUZZ_READER)();
  const bool with_timing = data[0] & 1;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t split = with_timing ? text.find('\f') : std::string_view::npos;
  try {
    const importing::OpenedFile report = importing::open_file({text.substr(0, split), "report"});
    if (report.reader->read != fuzzed.read) return 0;  // another reader's input
    std::optional<importing::Timing> timing;
    if (with_timing) {
      const std::string_view rest = split == std::string_view::npos ? "" : text.substr(split + 1);
      timing = importing::read_timing(importing::open_file({rest, "timing"}));
    }
    importing::read_report(report, timing ? &*timing : nullptr);
    if (report.reader->times) importing::read_timing(report);
    // A PyTorch trace is also read call by call, as `llm --trace` reads it.
    if (std::string_view(report.reader->family) == importing::kPytorchTraceFamily)
      rooftop::counters::read_operator_calls({std::string(text.substr(0, split)), "report"});
  } catch (const rooftop::Error&) {
  }
  return 0;
}
