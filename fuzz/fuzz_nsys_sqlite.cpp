// The profiler import on arbitrary bytes given as one file, as `rooftop import FILE` reads
// it: seeded with Nsight Systems SQLite exports and gzip-compressed PyTorch traces, so
// that the binary readers (SQLite's C library, zlib) get inputs near their own formats.
// Any outcome but a result or rooftop::Error is a bug.

#include <cstddef>
#include <cstdint>
#include <string>

#include "rooftop/core/error.hpp"
#include "rooftop/counters/import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    rooftop::counters::parse_report(bytes, "report");
  } catch (const rooftop::Error&) {
  }
  return 0;
}
