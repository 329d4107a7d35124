#pragma once
// The analyzer's views of kernels on a roofline: a table for people and the stable JSON
// form of the design document for scripts (add keys freely, never rename).

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::report {

// {"ceilings": <ceilings_path>, "kernels": [{"name", "id", "source", "time_s", "flops",
//  "gflop_per_s", "bytes": {level: bytes}, "ai": {level: FLOP/byte}, "limiter",
//  "attainable_gflop_per_s", "fraction_of_roof", "above", "check", ...}], "notes": [...]}
nlohmann::json kernels_json(const core::CeilingsFile& file, const std::string& ceilings_path,
                            const std::vector<std::string>& notes);

// One row per kernel: id, name, time, GFLOP/s, AI per level, limiter and fraction of its
// roof, the answer check; then the legend of ids and the notes.
std::string kernels_table(const core::CeilingsFile& file, const std::vector<std::string>& notes);

}  // namespace rooftop::report
