#pragma once
// Two files' counts of the same kernels side by side (compare-counts) for people and for
// scripts.

#include <nlohmann/json.hpp>
#include <string>

#include "rooftop/core/count_comparison.hpp"

namespace rooftop::report {

// The stable form for scripts (add keys freely, never rename): {"a": {"file", "kind",
// "kernels", "notes"}, "b": {…}, "targets": {"flops", "bytes"}, "paired_by": "name" or
// "order", "pairs": [{"label", "a": [{"id", "name", "launches"}], "b": […], "by_name",
// "launches": {"a", "b"}, "per_launch", "quantities": [{"name", "kind", "a", "b",
// "relative_difference", "a_short", "b_short"}]}], "unpaired": {"a": […], "b": […]},
// "verdicts": [{"quantity", "kind", "target", "compared", "met", "absent", "missed":
// [{"pair", "relative_difference"}], "lowest", "highest", "verdict"}]}. A value a file does
// not count is null; relative differences are (B - A) / A.
nlohmann::json count_comparison_json(const core::CountComparison& comparison);

// The two files, how the kernels were paired, one block of rows per pair (A, B, B - A),
// one verdict line per quantity against its target, the legend of ids and the notes.
std::string count_comparison_table(const core::CountComparison& comparison);

}  // namespace rooftop::report
