// The CPU's dot-product matrix figures (bf16_dot, int8_dot) beside the FP32 FMA compute
// ceiling of the same threads, in one process: the sweeps over accumulators per thread,
// each figure with its fraction of the theoretical peak, and the ratio of the BF16 dot
// products' FLOP/s to FP32 FMA's (2 where both run at full rate on the same pipes, as on
// Zen 4: a vdpbf16ps does twice the FLOPs of a vfmadd...ps of the same width).
//
// usage: dot_ceilings [--rounds 2]     (threads and pinning as for rooftop measure)

#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "rooftop/ceilings/dot_figures.hpp"
#include "rooftop/ceilings/extract.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/microbench/matrix/dot.hpp"
#include "rooftop/microbench/host.hpp"
#include "rooftop/microbench/measure.hpp"
#include "rooftop/microbench/sweep.hpp"

namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
namespace mb = rooftop::microbench;
namespace core = rooftop::core;

// The FP32 FMA compute ceiling as the plan measures it: the best chain count.
core::Ceiling fp32_fma(const mb::SweepPlan& plan) {
  core::Ceiling best;
  std::vector<double> clocks;
  for (const mb::ComputeRun& r : plan.compute) {
    if (r.precision != "fp32" || !r.fma || r.flops_per_element != 1024) continue;
    core::Sampling sampling = plan.sampling;
    sampling.samples = r.samples;
    sampling.clock = plan.compute_clock;
    const core::ComputePoint p = mb::measure_compute<Host>(
        r.precision, true, r.flops_per_element, r.ilp, r.working_set_bytes, sampling);
    const core::Summary s = core::summarize(p.values);
    if (s.median > best.value) {
      best.name = "fp32_fma";
      best.kind = "compute";
      best.value = s.median;
      best.note = "ILP " + std::to_string(r.ilp);
      clocks = p.clock_ghz;
    }
  }
  rooftop::ceilings::attach_theoretical(plan.machine, best, clocks);
  return best;
}

void print_figure(const core::Ceiling& c) {
  std::printf("%-9s %8.1f %-8s %-24s %s; its median sample lost %.1f%% to others", c.name.c_str(),
              c.value, c.units.c_str(), c.pattern.c_str(), c.note.c_str(),
              100.0 * c.disturbance.value_or(0.0));
  if (c.theoretical)
    std::printf("\n          theoretical %.1f, fraction %.3f: %s\n", *c.theoretical,
                *c.fraction_of_theoretical(), c.theoretical_basis.c_str());
  else
    std::printf("\n          %s\n", c.theoretical_basis.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  int rounds = 2;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--rounds") == 0) rounds = std::atoi(argv[i + 1]);

  core::Machine m = mb::describe_host();
  std::string method;
  m.clock_ghz = mb::measure_host_clock_ghz(method);
  mb::SweepPlan plan = mb::make_plan(m, false);
  plan.compute_clock = mb::sample_clock_ghz;
  plan.sampling.watch = &mb::host_watch();
  const mb::DotFeatures features = mb::host_dot_features();
  const std::vector<rooftop::ceilings::DotUnit> units = mb::host_dot_units();
  std::printf("%s: %d threads on %d cores, clock %.3f GHz (%s)\n", m.cpu_model.c_str(),
              m.threads, m.cores, m.clock_ghz, method.c_str());
  std::printf("flags: avx512_bf16 %d avx512_vnni %d avx_vnni %d amx_bf16 %d\n",
              features.avx512bf16, features.avx512vnni, features.avxvnni, features.amx_bf16);

  for (int round = 0; round < rounds; ++round) {
    std::printf("\nround %d\n", round + 1);
    const core::Ceiling fp32 = fp32_fma(plan);
    std::printf("fp32_fma  %8.1f GFLOP/s (%s), theoretical %.1f, fraction %.3f\n", fp32.value,
                fp32.note.c_str(), fp32.theoretical.value_or(0.0),
                fp32.fraction_of_theoretical().value_or(0.0));
    std::vector<std::string> absent;
    const auto start = std::chrono::steady_clock::now();
    const std::vector<core::SweepPoint> points = mb::run_dot_sweeps(plan, {}, &absent, features);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("dot sweeps: %zu points in %.2f s\n", points.size(), seconds);
    for (const core::SweepPoint& p : points)
      std::printf("  %-9s x %2g  %8.1f (median of %zu)\n", p.sweep.c_str(), p.x,
                  core::summarize(p.values).median, p.values.size());
    for (const core::Ceiling& c : rooftop::ceilings::dot_figures(points, m, units)) {
      print_figure(c);
      if (c.name == "bf16_dot" && fp32.value > 0)
        std::printf("          bf16_dot / fp32_fma = %.3f\n", c.value / fp32.value);
    }
    for (const std::string& line : absent) std::printf("absent: %s\n", line.c_str());
  }
  return 0;
}
