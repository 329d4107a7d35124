#pragma once
// What a ceilings file may hold, checked in one place: every reader runs it on what it
// read and every writer on what it is about to write, so a writer never produces what a
// reader rejects. Each check throws rooftop::Error with one line naming the field, the
// row and the value; the caller adds the file's name.

#include <string>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

// Rates a ceiling may have, in GFLOP/s or GB/s: from 1 MFLOP/s (or MB/s) to 1 EFLOP/s
// (or EB/s) on one machine. Outside that a value is damage, not a measurement, and it
// would stretch a chart's axes over hundreds of decades.
inline constexpr double kMinRate = 1e-3;
inline constexpr double kMaxRate = 1e9;

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
