#pragma once
// Readable and machine-readable views of a ceilings file. The JSON form is a
// contract for scripts (see the design document): add keys freely, never rename.

#include <nlohmann/json.hpp>
#include <string>

#include "rooftop/ceilings/model.hpp"

namespace rooftop::ceilings {

nlohmann::json to_json(const CeilingsFile& file);
std::string format_table(const CeilingsFile& file);
std::string format_bytes(double bytes);  // "48 KiB", "1.5 MiB"

}  // namespace rooftop::ceilings
