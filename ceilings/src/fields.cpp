#include "rooftop/ceilings/fields.hpp"

#include <algorithm>
#include <cstdio>

#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings {

nlohmann::json number_or_null(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json to_json(const core::Machine& m) {
  nlohmann::json caches = nlohmann::json::array();
  for (const core::CacheLevel& c : m.caches)
    caches.push_back({{"level", c.name}, {"bytes", c.bytes}, {"shared_by", c.shared_by}});
  return {{"hostname", m.hostname},
          {"execution_space", m.execution_space},
          {"cpu_model", m.cpu_model},
          {"gpu_name", m.gpu_name},
          {"compute_capability", m.compute_capability},
          {"cores", m.cores},
          {"threads", m.threads},
          {"hardware_threads", m.hardware_threads},
          {"caches", caches},
          {"simd_bits", m.simd_bits},
          {"fma_pipes", m.fma_pipes},
          {"add_pipes", m.add_pipes},
          {"load_ports", m.load_ports},
          {"store_bytes_per_cycle", m.store_bytes_per_cycle},
          {"hardware_model", m.hardware_model},
          {"clock_ghz", m.clock_ghz},
          {"clock_method", m.clock_method},
          {"compiler", m.compiler},
          {"compile_flags", m.compile_flags},
          {"kokkos_version", m.kokkos_version},
          {"device_arch", m.device_arch},
          {"cuda_version", m.cuda_version},
          {"driver_version", m.driver_version},
          {"memory_bytes", m.memory_bytes},
          {"memory_clock_ghz", m.memory_clock_ghz},
          {"memory_bus_bits", m.memory_bus_bits},
          {"nominal_clock_ghz", m.nominal_clock_ghz},
          {"launch_geometry", m.launch_geometry}};
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
