// The profiler import on arbitrary text: every registered reader (Nsight Compute CSV and
// plain-text output, nvprof CSV, Nsight Systems stats CSV, PyTorch JSON traces), chosen by
// content as `rooftop import` chooses; seeded with each of them (scripts/fuzz.sh). The first byte
// chooses between a report alone and a report with a timing file (the rest split at the
// first form feed). Any outcome but a result or rooftop::Error is a bug.

#include <cstddef>
#include <cstdint>
#include <string>

#include "rooftop/counters/import.hpp"
#include "rooftop/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool with_timing = data[0] & 1;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    if (with_timing) {
      const std::size_t split = text.find('\f');
      const std::string report = text.substr(0, split);
      const std::string timing = split == std::string::npos ? "" : text.substr(split + 1);
      rooftop::counters::parse_report(report, "report.csv", timing, "timing.csv");
    } else {
      rooftop::counters::parse_report(text, "report.csv");
    }
  } catch (const rooftop::Error&) {
  }
  return 0;
}
