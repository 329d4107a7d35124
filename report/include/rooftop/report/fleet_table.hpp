#pragma once
// A fleet (ceilings/fleet.hpp) and its review for people and for scripts.

#include <nlohmann/json.hpp>
#include <string>

#include "rooftop/ceilings/fleet.hpp"

namespace rooftop::report {

// Stable for scripts (add keys, never rename): {"file", "size", "hosts", "created_utc",
// "threshold", "slow_rule", "ranks": [{"rank", "hostname", "device", "cpus", "local_rank",
// "local_size", "status", "reason", "seconds", "machine"}],
// "statistics": [{"name", "kind", "units", "ranks", "median", "min", "max", "spread",
// "min_rank", "max_rank"}], "slow": [{"rank", "hostname", "device", "ceiling", "units",
// "value", "fleet_median", "ratio", "min", "max", "within_own_spread"}], "failed":
// [{"rank", "hostname", "device", "reason"}]}.
nlohmann::json fleet_json(const ceilings::FleetFile& fleet, const ceilings::FleetReview& review,
                          const std::string& label);
// The ranks and the statistics table.
std::string fleet_table(const ceilings::FleetFile& fleet);
// The slow and failed ranks, and a closing line saying whether any was found.
std::string fleet_review_table(const ceilings::FleetReview& review);

}  // namespace rooftop::report
