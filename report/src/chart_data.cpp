#include "chart_data.hpp"

#include <algorithm>

#include "rooftop/ceilings/device_peaks.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::report {

SweepLines sweep_lines(const core::CeilingsFile& f) {
  SweepLines s;
  for (const auto& p : f.sweeps.bandwidth) {
    if (p.values.empty() || p.working_set_bytes == 0) continue;
    const double m = core::summarize(p.values).median;
    const double ws = static_cast<double>(p.working_set_bytes);
    auto [it, fresh] = s.patterns[p.pattern].emplace(ws, m);
    if (!fresh) it->second = std::max(it->second, m);
    s.lo = std::min(s.lo, ws);
    s.hi = std::max(s.hi, ws);
    s.rate_max = std::max(s.rate_max, m);
    s.rate_min = std::min(s.rate_min, m);
  }
  return s;
}

std::vector<ceilings::LevelWindow> sweep_levels(const core::CeilingsFile& f) {
  if (ceilings::is_device(f.machine)) return {};
  return ceilings::level_windows(f.machine);
}

Traces flops_traces(const core::CeilingsFile& f) {
  Traces t;
  if (ceilings::is_device(f.machine)) return t;
  for (const auto& p : f.sweeps.compute) t.working_set = std::max(t.working_set, p.working_set_bytes);
  for (const auto& p : f.sweeps.compute) {
    if (p.working_set_bytes != t.working_set || p.values.empty()) continue;
    const core::Precision* precision = core::find_precision(p.precision);
    const double bytes = 2.0 * (precision ? precision->bytes : 4);  // read + write per element
    t.series[p.precision + " " + p.mode].push_back(
        {p.flops_per_element / bytes, core::summarize(p.values).median});
  }
  return t;
}

}  // namespace rooftop::report
