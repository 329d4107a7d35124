#include "rooftop/ceilings/device_peaks.hpp"

#include <cstdio>

namespace rooftop::ceilings {

std::optional<int> device_fp_lanes(const std::string& cc, const std::string& precision) {
  struct Row {
    const char* cc;
    int fp32, fp64;
  };
  // 7.5, 8.6, 8.9, 12.0: 2 FP64 units per SM (consumer and workstation parts).
  static constexpr Row kTable[] = {{"7.0", 64, 32},  {"7.5", 64, 2},    {"8.0", 64, 32},
                                   {"8.6", 128, 2},  {"8.7", 128, 2},   {"8.9", 128, 2},
                                   {"9.0", 128, 64}, {"10.0", 128, 64}, {"12.0", 128, 2}};
  for (const Row& r : kTable)
    if (cc == r.cc) {
      if (precision == "fp64") return r.fp64;
      if (precision == "fp32") return r.fp32;
    }
  return std::nullopt;
}

std::pair<std::string, std::string> split_device_pattern(const std::string& pattern) {
  const auto colon = pattern.find(':');
  if (colon == std::string::npos) return {"", pattern};
  return {pattern.substr(0, colon), pattern.substr(colon + 1)};
}

void attach_device_theoretical(const core::Machine& m, core::Ceiling& c, double clock_ghz,
                               const char* clock_basis) {
  c.theoretical.reset();
  c.theoretical_basis.clear();
  char buf[256];
  const double f = clock_ghz;
  if (c.kind == "compute" && f > 0.0 && m.cores > 0) {
    const std::string precision = c.name.substr(0, 4);
    const auto lanes = device_fp_lanes(m.compute_capability, precision);
    if (!lanes) return;
    const bool fma = c.name.find("nofma") == std::string::npos;
    c.theoretical = m.cores * *lanes * (fma ? 2.0 : 1.0) * f;
    std::snprintf(buf, sizeof buf,
                  "%d SMs x %d %s lanes (compute capability %s) x %d FLOP x %.3f GHz (%s)",
                  m.cores, *lanes, precision.c_str(), m.compute_capability.c_str(), fma ? 2 : 1, f,
                  clock_basis);
    c.theoretical_basis = buf;
  } else if ((c.name == "l1" || c.name == "shared") && f > 0.0 && m.cores > 0) {
    c.theoretical = m.cores * kDeviceL1BytesPerClock * f;
    std::snprintf(buf, sizeof buf, "%d SMs x %.0f B/clock x %.3f GHz (%s)", m.cores,
                  kDeviceL1BytesPerClock, f, clock_basis);
    c.theoretical_basis = buf;
  } else if (c.name == "dram" && m.memory_clock_ghz > 0.0 && m.memory_bus_bits > 0) {
    c.theoretical = 2.0 * m.memory_clock_ghz * m.memory_bus_bits / 8.0;
    std::snprintf(buf, sizeof buf,
                  "2 (double data rate) x %.3f GHz memory clock x %d-bit bus / 8 (as the driver "
                  "reports them)",
                  m.memory_clock_ghz, m.memory_bus_bits);
    c.theoretical_basis = buf;
  } else if (c.name == "l2" && f > 0.0 && m.cores > 0) {
    std::snprintf(buf, sizeof buf, "%.1f B/clock/SM (no published peak)", c.value / (m.cores * f));
    c.note = buf;
  }
}

}  // namespace rooftop::ceilings
