// The registry of readers: one line each. A reader is a function `Reader NAME_reader()`
// defined in its own file; the first whose detect() accepts a file reads it, so a format
// whose content another's detect() could also accept comes first.

#include "reader.hpp"

#include "rooftop/core/error.hpp"
#include "units.hpp"

#define ROOFTOP_READERS(X) \
  X(ncu_csv)               \
  X(nvprof)                \
  X(ncu_text)

namespace rooftop::counters::importing {

#define ROOFTOP_DECLARE_READER(name) Reader name##_reader();
ROOFTOP_READERS(ROOFTOP_DECLARE_READER)
#undef ROOFTOP_DECLARE_READER

const std::vector<Reader>& readers() {
#define ROOFTOP_LIST_READER(name) name##_reader(),
  static const std::vector<Reader> all = {ROOFTOP_READERS(ROOFTOP_LIST_READER)};
#undef ROOFTOP_LIST_READER
  return all;
}

const Reader* find_reader(std::string_view text) {
  for (const Reader& r : readers())
    if (r.detect(text)) return &r;
  return nullptr;
}

namespace {

[[noreturn]] void unknown(const Input& file) {
  if (file.text.find('\0') != std::string_view::npos)
    throw Error(file.name +
                ": a binary file, not CSV (an Nsight Compute .ncu-rep? export it with "
                "ncu --import FILE --csv --page raw)");
  throw Error(at(file.name, 1) +
              "no Nsight Compute or nvprof CSV header (expected \"ID\",...,\"Kernel Name\",... "
              "from ncu --csv, or \"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",... "
              "from nvprof --csv --metrics)");
}

}  // namespace

Timing read_timing(const Input& file) {
  const Reader* r = find_reader(file.text);
  if (!r) unknown(file);
  if (!r->times)
    throw Error(file.name + ": " + r->family + " holds no kernel times, so it cannot time "
                "another report");
  return r->times(file);
}

Reading read_report(const Input& file, const Input* timing) {
  const Reader* r = find_reader(file.text);
  if (!r) unknown(file);
  Reading reading = r->read(file, timing);
  reading.family = r->family;
  return reading;
}

}  // namespace rooftop::counters::importing
