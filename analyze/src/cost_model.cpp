#include "rooftop/analyze/cost_model.hpp"

#include <algorithm>

#include "rooftop/core/format.hpp"
#include "rooftop/core/roofline.hpp"

namespace rooftop::analyze {

double timed_seconds(double run_seconds, const core::Sampling& sampling) {
  const double sample = std::max(run_seconds, sampling.min_sample_seconds);
  const double all = (std::max(1, sampling.samples) + 1) * sample;  // + calibration
  return std::max(run_seconds, std::min(all, sampling.budget_seconds));
}

double kernel_seconds(double run_seconds, const core::Sampling& sampling, const Counting& counting) {
  double s = timed_seconds(run_seconds, sampling);
  if (counting.passes > 0)
    s += static_cast<double>(counting.passes) * run_seconds + counting.setup_seconds;
  return s;
}

double roof_seconds(const core::KernelRecord& declared, const core::CeilingsFile& ceilings) {
  const core::Placement p = core::place(declared, ceilings);
  if (p.attainable_gflop_per_s > 0.0 && declared.flops() > 0.0)
    return declared.flops() / (p.attainable_gflop_per_s * 1e9);
  // No FLOPs: the slowest level's bytes at its bandwidth.
  double seconds = 0.0;
  for (const core::Placement::Level& l : p.levels)
    if (l.bandwidth_gb_per_s > 0.0)
      if (const core::LevelBytes* b = declared.find_bytes(l.level))
        seconds = std::max(seconds, b->bytes / (l.bandwidth_gb_per_s * 1e9));
  return seconds;
}

Estimate estimate(const std::vector<core::KernelRecord>& declared,
                  const core::CeilingsFile& ceilings, const core::Sampling& sampling,
                  const Counting& counting) {
  Estimate e;
  for (const core::KernelRecord& k : declared) {
    const double roof = roof_seconds(k, ceilings);
    e.low_seconds += kernel_seconds(roof, sampling, counting);
    e.high_seconds += kernel_seconds(10.0 * roof, sampling, counting);
  }
  const auto secs = [](double s) { return core::format_number("%.0f", std::max(1.0, s)); };
  e.text = std::to_string(declared.size()) + " kernel" + (declared.size() == 1 ? "" : "s") +
           ", about " + secs(e.low_seconds) + " to " + secs(e.high_seconds) +
           " s: each (timed runs";
  if (counting.passes > 0)
    e.text += " + " + std::to_string(counting.passes) + " replay passes";
  e.text += ") x its run time";
  if (counting.passes > 0)
    e.text += " + " + core::format_number("%.1f", counting.setup_seconds) + " s counting set-up";
  e.text += "; run times from the declared counts at the roof and at a tenth of it";
  return e;
}

}  // namespace rooftop::analyze
