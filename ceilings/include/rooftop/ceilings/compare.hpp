#pragma once
// Ceilings of several files side by side, against the first one, noise-aware: a
// difference inside the two runs' spread reads "same", and a run that recorded no
// spread says so instead of guessing.
//
// The rule, for a ceiling present in the baseline B and in another file X:
//   - "no spread" when B or X has no spread information: fewer than 2 samples, or
//     max <= min (real repeated timings never agree to the last bit, so a zero-width
//     range means the spread was not recorded, e.g. an imported value);
//   - "disturbed" when B or X was measured while other tasks or the hypervisor took
//     more than core::kDisturbedShare of its median sample's time: a difference then
//     may be the neighbours', not the machines';
//   - "same" when the two runs' [min, max] ranges overlap (touching counts);
//   - otherwise "higher" or "lower" by the value (the median).
// The baseline itself reads "baseline"; a file without the ceiling reads "absent"; a
// file that has a ceiling the baseline lacks reads "no baseline". Its table and JSON are
// rooftop_report's (report/comparison_table.hpp).

#include <optional>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

enum class Verdict { baseline, same, higher, lower, absent, no_spread, no_baseline, disturbed };

// "baseline", "same", …, "no spread", "no baseline", "disturbed"
const char* to_string(Verdict verdict);

// True when the ceiling carries a usable [min, max] range (see the rule above).
bool has_spread(const core::Ceiling& ceiling);

// The verdict on `other` against `baseline`, both present.
Verdict judge(const core::Ceiling& baseline, const core::Ceiling& other);

// One ceiling across all files; every vector has one entry per file.
struct ComparedCeiling {
  std::string name;
  std::string kind;
  std::string units;
  std::vector<std::optional<core::Ceiling>> ceilings;  // empty where the file lacks it
  std::vector<std::optional<double>> ratios;     // value / baseline value
  std::vector<Verdict> verdicts;
};

struct ComparedFile {
  std::string label;  // as the user named it (a path)
  std::string machine;
  std::string created_utc;
};

struct Comparison {
  std::vector<ComparedFile> files;
  std::vector<ComparedCeiling> ceilings;  // compute first, then memory innermost first
};

// Throws rooftop::Error for fewer than two files, a label count that does not match,
// or a ceiling whose units differ between files.
Comparison compare(const std::vector<core::CeilingsFile>& files,
                   const std::vector<std::string>& labels);

}  // namespace rooftop::ceilings
