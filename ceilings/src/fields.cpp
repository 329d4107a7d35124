#include "rooftop/ceilings/fields.hpp"

#include <algorithm>
#include <cstdio>
#include <variant>

#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings {

nlohmann::json number_or_null(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json to_json(const core::Machine& m) {
  nlohmann::json out = nlohmann::json::object();
  for (const core::MachineField& f : core::kMachineFields)
    std::visit([&](auto member) { out[std::string(f.name)] = m.*member; }, f.member);
  nlohmann::json caches = nlohmann::json::array();
  for (const core::CacheLevel& c : m.caches)
    caches.push_back({{"level", c.name}, {"bytes", c.bytes}, {"shared_by", c.shared_by}});
  out["caches"] = caches;
  return out;
}

// The roofline's ceilings first, then the figures of schema 1.7 in their table's order,
// then names this rooftop does not know.
int display_rank(const std::string& name) {
  constexpr int kAfterCeilings = 1000;
  if (core::find_figure(name)) return kAfterCeilings + core::figure_rank(name);
  const int rank = core::ceiling_rank(name);
  return core::ceiling_kind(name).empty() ? 2 * kAfterCeilings + rank : rank;
}

std::string machine_name(const core::Machine& m) {
  if (!m.gpu_name.empty()) return m.gpu_name;
  if (!m.cpu_model.empty()) return m.cpu_model;
  if (!m.hostname.empty()) return m.hostname;
  return "unnamed machine";
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 4) {
    bytes /= 1024.0;
    ++u;
  }
  char buf[32];
  if (bytes == static_cast<double>(static_cast<long long>(bytes)))
    std::snprintf(buf, sizeof buf, "%lld %s", static_cast<long long>(bytes), units[u]);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", bytes, units[u]);
  return buf;
}

std::vector<std::pair<std::string, nlohmann::json>> ceiling_fields(const core::Ceiling& c) {
  return {{"name", c.name},
          {"kind", c.kind},
          {"value", c.value},
          {"units", c.units},
          {"median", c.median},
          {"min", c.min},
          {"max", c.max},
          {"samples", c.samples},
          {"measured", c.measured()},
          {"pattern", c.pattern},
          {"working_set_bytes", c.working_set_bytes},
          {"flops_per_element", c.flops_per_element},
          {"theoretical", number_or_null(c.theoretical)},
          {"fraction_of_theoretical", number_or_null(c.fraction_of_theoretical())},
          {"above_theoretical", c.above_theoretical()},
          {"disturbance", number_or_null(c.disturbance)},
          {"disturbed", c.disturbed()},
          {"theoretical_basis", c.theoretical_basis},
          {"note", c.note}};
}

}  // namespace rooftop::ceilings
