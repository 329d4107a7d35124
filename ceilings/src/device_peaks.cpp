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

bool is_mig_slice(const core::Machine& m) {
  return is_device(m) && m.gpu_name.find(" MIG") != std::string::npos;
}

bool device_clock_throttled(double measured_ghz, double nominal_ghz) {
  return measured_ghz > 0.0 && nominal_ghz > 0.0 &&
         measured_ghz < kDeviceThrottledClock * nominal_ghz;
}

namespace {

// A clock-bound ceiling measured below kDeviceThrottledClock x nominal: its basis also
// gives the peak at the nominal clock and the ceiling's share of it.
void note_throttled(const core::Machine& m, core::Ceiling& c, double clock_ghz) {
  if (!c.theoretical || !device_clock_throttled(clock_ghz, m.nominal_clock_ghz)) return;
  const double at_nominal = *c.theoretical * m.nominal_clock_ghz / clock_ghz;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "; THROTTLED: SM clock %.3f GHz, below %.1f x the nominal %.3f GHz: %.1f %% of "
                "the peak at the nominal clock (%.6g %s)",
                clock_ghz, kDeviceThrottledClock, m.nominal_clock_ghz, 100.0 * c.value / at_nominal,
                at_nominal, c.units.c_str());
  c.theoretical_basis += buf;
}

}  // namespace

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
                  "%d SMs x %d %s lanes (compute capability %s) x %d FLOP x %.3f GHz (%s)", m.cores,
                  *lanes, precision.c_str(), m.compute_capability.c_str(), fma ? 2 : 1, f,
                  clock_basis);
    c.theoretical_basis = buf;
    note_throttled(m, c, f);
  } else if ((c.name == "l1" || c.name == "shared") && f > 0.0 && m.cores > 0) {
    c.theoretical = m.cores * kDeviceL1BytesPerClock * f;
    std::snprintf(buf, sizeof buf, "%d SMs x %.0f B/clock x %.3f GHz (%s)", m.cores,
                  kDeviceL1BytesPerClock, f, clock_basis);
    c.theoretical_basis = buf;
    note_throttled(m, c, f);
  } else if (c.name == "dram" && is_mig_slice(m)) {
    c.note =
        "MIG slice: no theoretical peak (the memory clock and bus width the driver reports "
        "are the whole GPU's, not this slice's)";
  } else if (c.name == "dram" && m.memory_clock_ghz > 0.0 && m.memory_bus_bits > 0) {
    c.theoretical = 2.0 * m.memory_clock_ghz * m.memory_bus_bits / 8.0;
    std::snprintf(buf, sizeof buf,
                  "2 (double data rate) x %.3f GHz memory clock x %d-bit bus / 8 (as the driver "
                  "reports them)",
                  m.memory_clock_ghz, m.memory_bus_bits);
    c.theoretical_basis = buf;
  } else if (c.name == "l2" && f > 0.0 && m.cores > 0) {
    std::snprintf(buf, sizeof buf, "%.1f B/clock/SM (no published peak)%s", c.value / (m.cores * f),
                  is_mig_slice(m) ? "; MIG slice: its working set was sized from the whole "
                                    "GPU's L2 and may exceed this slice's share"
                                  : "");
    c.note = buf;
  }
}

}  // namespace rooftop::ceilings
