#pragma once
// What a ceilings file may hold, checked in one place: every reader runs it on what it
// read and every writer on what it is about to write, so a writer never produces what a
// reader rejects. Each check throws rooftop::Error with one line naming the field, the
// row and the value; the caller adds the file's name.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

// Rates a ceiling may have, in GFLOP/s or GB/s: from 1 MFLOP/s (or MB/s) to 1 EFLOP/s
// (or EB/s) on one machine. Outside that a value is damage, not a measurement, and it
// would stretch a chart's axes over hundreds of decades.
inline constexpr double kMinRate = 1e-3;
inline constexpr double kMaxRate = 1e9;

// The longest text an attribute holds: with its terminating NUL, 1 MiB. Longer text is
// damage to the reader, so the writer refuses it too.
inline constexpr std::size_t kMaxTextBytes = (std::size_t{1} << 20) - 1;

// Throws unless `text` is what a text attribute can hold and give back unchanged: at most
// kMaxTextBytes and no NUL (HDF5's strings end at the first). `what` names it.
void check_text(const std::string& text, const std::string& what);

// The values an integer field of type T may have in a file: every integer attribute is
// stored as an int64 (data/SCHEMA.md), so what both T and int64 hold. The reader refuses
// a stored value outside it, where a cast would cut it; the writer and the ERT reader
// refuse the same.
template <class T>
constexpr std::pair<std::int64_t, std::int64_t> stored_range() {
  using L = std::numeric_limits<T>;
  using I = std::numeric_limits<std::int64_t>;
  static_assert(L::is_integer && sizeof(T) <= sizeof(std::int64_t));
  if constexpr (L::is_signed)
    return {static_cast<std::int64_t>(L::min()), static_cast<std::int64_t>(L::max())};
  else
    return {0, static_cast<std::int64_t>(std::min<std::uint64_t>(L::max(), I::max()))};
}

// Whether `version` is "MAJOR.MINOR" (digits only, nothing around them); sets both.
bool parse_schema_version(const std::string& version, int& major, int& minor);

// Throws unless `value` is a finite rate in [kMinRate, kMaxRate]; `what` names it.
void check_rate(double value, const std::string& what);

// The whole file: machine, ceilings (known names, kinds and units, no duplicates,
// finite positive values, min <= median <= max), sweeps and kernels.
void validate(const core::CeilingsFile& file);

// validate(), and at least one ceiling: what a ceilings file (not a fleet's summary)
// must have to be of any use.
void validate_ceilings_file(const core::CeilingsFile& file);

}  // namespace rooftop::ceilings
