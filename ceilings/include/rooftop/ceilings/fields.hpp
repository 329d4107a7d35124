#pragma once
// The fields of a ceilings file as every view names them (the exports, the comparison,
// the fleet review, and rooftop_report's tables and charts). The JSON keys are a contract
// for scripts (see the design document): add keys freely, never rename.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

// The "machine" object of every JSON form (show --json, the exports).
nlohmann::json to_json(const core::Machine& machine);
// Every field of one ceiling, in the schema's order (null where unknown); the
// "ceilings" objects of show --json and the exported tables are built from it.
std::vector<std::pair<std::string, nlohmann::json>> ceiling_fields(const core::Ceiling& ceiling);
std::string format_bytes(double bytes);  // "48 KiB", "1.5 MiB"

// A number, or JSON null where it is unknown.
nlohmann::json number_or_null(const std::optional<double>& value);

// Where a ceiling stands in the order a roofline is read: compute ceilings, then memory
// from the core out; names rooftop does not know sort after all of these.
int display_rank(const std::string& ceiling_name);

// What a reader calls the machine: the GPU's name, else the CPU model, else the host name.
std::string machine_name(const core::Machine& machine);

}  // namespace rooftop::ceilings
