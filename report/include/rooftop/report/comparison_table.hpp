#pragma once
// A comparison of ceilings files (ceilings/compare.hpp) for people and for scripts.

#include <nlohmann/json.hpp>
#include <string>

#include "rooftop/ceilings/compare.hpp"

namespace rooftop::report {

// The stable form for scripts (add keys freely, never rename): {"files": […], "machines":
// […], "same_rule", "ceilings": [{"name", "kind", "units", "values", "ratios", "verdicts",
// "min", "max", "samples", "measured"}]}, one entry per file in each list (null where a
// file lacks the ceiling).
nlohmann::json comparison_json(const ceilings::Comparison& comparison);

// The files, then one row per ceiling with each file's value, ratio to the first and
// verdict; footnotes for theoretical values and missing spreads.
std::string comparison_table(const ceilings::Comparison& comparison);

}  // namespace rooftop::report
