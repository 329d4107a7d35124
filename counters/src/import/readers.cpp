// The registry of readers: one line each. A reader is a function `Reader NAME_reader()`
// defined in its own file; the first whose detect() accepts a file reads it, so a format
// whose content another's detect() could also accept comes first.

#include "reader.hpp"

#include "gzip.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "units.hpp"

#define ROOFTOP_READERS(X) \
  X(nsys_sqlite)           \
  X(pytorch_metrics)       \
  X(pytorch_trace)         \
  X(ncu_csv)               \
  X(nvprof)                \
  X(nsys_stats)            \
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
  std::string known;
  for (const Reader& r : readers()) known += (known.empty() ? "" : ", ") + std::string(r.family);
  const bool binary = file.text.find('\0') != std::string_view::npos;
  throw Error(file.name + ": " + (binary ? "a binary file" : "a file") +
              " in no format rooftop reads (it reads: " + known +
              "; an Nsight Compute .ncu-rep is exported with ncu --import FILE --csv --page raw)");
}

}  // namespace

OpenedFile open_file(const Input& given) {
  OpenedFile f;
  f.original = given.text;
  f.name = given.name;
  if (is_gzip(given.text)) {
    f.inflated = gunzip(given.text, given.name);
    f.gzip = true;
    if (is_gzip(f.inflated)) throw Error(given.name + ": gzip inside gzip: not a profiler report");
  }
  f.reader = find_reader(f.input().text);
  if (!f.reader) unknown(f.input());
  return f;
}

Timing read_timing(const OpenedFile& file) {
  if (!file.reader->times)
    throw Error(file.name + ": " + file.reader->family +
                " holds no kernel times, so it cannot time another report");
  return file.reader->times(file.input());
}

Reading read_report(const OpenedFile& file, const Timing* timing) {
  Reading reading = file.reader->read(file.input(), timing);
  reading.family = file.reader->family;
  // FLOPs a file does not count are unknown, never 0: a precision the report has no FLOP
  // metric for, in every kernel; in a file of times (which counts only its operators'),
  // every precision of a kernel without them.
  for (core::KernelRecord& k : reading.kernels)
    for (const core::Precision& p : core::kPrecisions) {
      const auto shortfall = reading.flops_short.find(std::string(p.name));
      const bool uncounted =
          shortfall != reading.flops_short.end() && shortfall->second == "not counted";
      const bool untimed_op = file.reader->times_only && k.flops() == 0.0 &&
                              p.counted_by_instructions();
      if (uncounted || untimed_op) k.flops_unknown.emplace_back(p.name);
    }
  return reading;
}

}  // namespace rooftop::counters::importing
