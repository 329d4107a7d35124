#pragma once
// A ceilings file for people (the table `show` and `measure` print) and for scripts (the
// JSON of `show --json`: a contract, see the design document; add keys freely, never
// rename).

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::report {

// {"schema_version", "tool_version", "git_revision", "created_utc", "machine": {...},
//  "ceilings": [{every field of ceilings::ceiling_fields}]}
nlohmann::json ceilings_json(const core::CeilingsFile& file);

// The provenance and machine lines, one row per ceiling, then the theoretical peaks'
// bases and the notes.
std::string ceilings_table(const core::CeilingsFile& file);

// One line per disturbed ceiling (core::Ceiling::disturbed): "fp64_fma: its median
// sample lost 14% of its time to other tasks or the hypervisor; it may be low".
std::vector<std::string> disturbed_ceilings(const core::CeilingsFile& file);

}  // namespace rooftop::report
