#include "rooftop/analyze/cost_model.hpp"

#include "rooftop/analyze/count_comparison.hpp"

#include <algorithm>

#include "rooftop/core/format.hpp"
#include "rooftop/core/roofline.hpp"

namespace rooftop::analyze {

double timed_seconds(double run_seconds, const core::Sampling& sampling, Calibration calibration) {
  const double sample = std::max(run_seconds, sampling.min_sample_seconds);
  const int launches = std::max(1, sampling.samples) + (calibration == Calibration::apart ? 1 : 0);
  return std::max(run_seconds, std::min(launches * sample, sampling.budget_seconds));
}

double kernel_seconds(double run_seconds, const core::Sampling& sampling, const Counting& counting,
                      Calibration calibration) {
  double s = timed_seconds(run_seconds, sampling, calibration);
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

double held_bytes(const core::KernelRecord& declared) {
  const core::LevelBytes* b = declared.find_bytes("dram");
  return b ? b->bytes / launches_covered(declared) : 0.0;  // each launch reads the arrays
}

Estimate estimate(const std::vector<core::KernelRecord>& declared,
                  const core::CeilingsFile& ceilings, const core::Sampling& sampling,
                  const Counting& counting, const RunModel& model) {
  Estimate e;
  e.high_seconds = model.start_seconds;
  for (const core::KernelRecord& k : declared) {
    const double roof = roof_seconds(k, ceilings);
    const double held = held_bytes(k);
    e.low_seconds += kernel_seconds(roof, sampling, counting, Calibration::kept) +
                     held / model.setup_fast_bytes_per_second;
    e.high_seconds += kernel_seconds(roof / model.lowest_fraction, sampling, counting) +
                      held / model.setup_slow_bytes_per_second;
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
  e.text += " + its arrays' set-up; run times from the declared counts at the roof and at " +
            core::format_number("%g", model.lowest_fraction) +
            " of it, the slowest fraction seen";
  return e;
}

}  // namespace rooftop::analyze
