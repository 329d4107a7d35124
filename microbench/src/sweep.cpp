#include "rooftop/microbench/sweep.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <set>

#include "rooftop/ceilings/extract.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/microbench/measure.hpp"

namespace rooftop::microbench {
namespace {

constexpr std::uint64_t KiB = 1024;

std::vector<std::uint64_t> working_sets(const core::Machine& machine, int per_octave,
                                        std::uint64_t largest) {
  std::set<std::uint64_t> sizes;
  for (double ws = 4.0 * KiB; ws <= static_cast<double>(largest) * 1.001;
       ws *= std::pow(2.0, 1.0 / per_octave))
    sizes.insert(static_cast<std::uint64_t>(ws) / KiB * KiB);
  // Guarantee a point well inside every level's window (geometric middle) that the
  // largest working set reaches.
  for (const auto& w : ceilings::level_windows(machine)) {
    const double lo = std::max<double>(4.0 * KiB, static_cast<double>(w.lo));
    const double hi = w.name == "dram" ? 2.0 * lo : static_cast<double>(w.hi);
    const double middle = std::sqrt(lo * hi);
    if (middle <= static_cast<double>(largest))
      sizes.insert(static_cast<std::uint64_t>(middle) / KiB * KiB);
  }
  return {sizes.begin(), sizes.end()};
}

std::string describe(const ComputeRun& r) {
  return "compute " + r.precision + (r.fma ? " fma " : " nofma ") +
         std::to_string(r.flops_per_element) + " FLOP/element, ILP " + std::to_string(r.ilp);
}

std::string describe(const BandwidthRun& r) {
  const double kib = static_cast<double>(r.working_set_bytes) / KiB;
  char buf[96];
  std::snprintf(buf, sizeof buf, "bandwidth %-5s %10.0f KiB", pattern_name(r.pattern), kib);
  return buf;
}

// The points behind the ceilings known so far, as runs to measure again.
void confirmation_runs(const SweepPlan& plan, const core::Sweeps& sweeps,
                       std::vector<ComputeRun>& compute, std::vector<BandwidthRun>& bandwidth) {
  for (const ceilings::CeilingSource& s : ceilings::ceiling_sources(plan.machine, sweeps)) {
    if (s.compute) {
      const core::ComputePoint& p = sweeps.compute[s.point];
      compute.push_back({p.precision, p.mode == "fma", p.flops_per_element, p.ilp,
                         p.working_set_bytes, 0});
    } else {
      const core::BandwidthPoint& p = sweeps.bandwidth[s.point];
      const auto pattern = parse_pattern(p.pattern);
      if (!pattern) throw Error("unknown access pattern '" + p.pattern + "' in the sweeps");
      bandwidth.push_back({*pattern, p.working_set_bytes});
    }
  }
}

}  // namespace

SweepPlan make_plan(const core::Machine& machine, bool quick) {
  SweepPlan plan;
  plan.sampling.samples = 3;
  plan.sampling.min_sample_seconds = quick ? 0.01 : 0.05;
  plan.confirm_passes = quick ? 1 : 4;
  plan.machine = machine;

  std::uint64_t l2 = 256 * KiB;
  for (const auto& c : machine.caches)
    if (c.name == "l2")
      l2 = ceilings::capacity_for_threads(c, machine.threads, machine.hardware_threads);
  // Smallest working set that counts as DRAM; 256 MiB where sysfs names no cache.
  std::uint64_t dram = ceilings::level_windows(machine).back().lo;
  if (dram == 0) dram = 256 * 1024 * KiB;
  // The largest working set: twice the smallest DRAM one, or the quick bound.
  std::uint64_t largest = 2 * dram;
  if (quick && largest > kQuickDramBytes) {
    largest = kQuickDramBytes;
    dram = kQuickDramBytes / 2;
  }

  // Compute ceilings: 1024 FLOPs per element on an array that stays in L2, so memory
  // never interferes, at every ILP choice; cheap, so more samples.
  const std::uint64_t resident = std::max<std::uint64_t>(64 * KiB, l2 / 4);
  for (const core::Precision& precision : core::kPrecisions)
    if (precision.ceilings)
      for (bool fma : {true, false})
        for (int ilp : compute_ilp_choices())
          plan.compute.push_back({std::string(precision.name), fma, 1024, ilp, resident, 7});
  // The roofline trace (FP64 FMA) on a DRAM-resident array: memory-bound at 1 FLOP per
  // element, compute-bound at the top. --quick: every fourth point up to 64 (arithmetic
  // intensity 8), one sample each: at 256 FLOPs per element a gigabyte array takes
  // seconds a run where the code is slow (-O1 under the sanitizers: 20 s of a 60 s run).
  for (int flops : kFlopsPerElement)
    if (!quick)
      plan.compute.push_back({"fp64", true, flops, kDefaultIlp, dram, 0});
    else if (flops == 1 || flops == 4 || flops == 16 || flops == 64)
      plan.compute.push_back({"fp64", true, flops, kDefaultIlp, dram, 1});

  // Bandwidth: every pattern at one working set per octave (plus each level's middle).
  std::vector<Pattern> patterns = {Pattern::read, Pattern::triad};
  if (!quick) {
    patterns.clear();
    for (std::size_t i = 0; i < std::size(core::kPatterns); ++i)
      patterns.push_back(static_cast<Pattern>(i));
  }
  for (std::uint64_t ws : working_sets(machine, 1, largest))
    for (Pattern p : patterns) plan.bandwidth.push_back({p, ws});
  return plan;
}

template <class Space>
core::Sweeps run_sweeps(const SweepPlan& plan, const Progress& progress) {
  core::Sweeps out;
  // Progress counts every confirmation as if all ceilings were known at each pass.
  const std::size_t per_pass = static_cast<std::size_t>(core::compute_ceiling_count()) +
                               ceilings::level_windows(plan.machine).size();
  const std::size_t total = plan.compute.size() + plan.bandwidth.size() +
                            static_cast<std::size_t>(plan.confirm_passes) * per_pass;
  std::size_t done = 0;
  auto compute = [&](const ComputeRun& r, const char* why) {
    if (progress) progress(done, total, why + describe(r));
    core::Sampling sampling = plan.sampling;
    if (r.samples > 0) sampling.samples = r.samples;
    sampling.clock = plan.compute_clock;
    out.compute.push_back(measure_compute<Space>(r.precision, r.fma, r.flops_per_element, r.ilp,
                                                 r.working_set_bytes, sampling));
    ++done;
  };
  auto bandwidth = [&](const BandwidthRun& r, const char* why) {
    if (progress) progress(done, total, why + describe(r));
    out.bandwidth.push_back(
        measure_bandwidth<Space>(r.pattern, r.working_set_bytes, plan.sampling));
    ++done;
  };
  // Bandwidth first, so a pass's compute points run right before what follows it (at
  // the end, the closing clock reading).
  auto confirm = [&] {
    if (plan.before_confirm_pass) plan.before_confirm_pass();
    std::vector<ComputeRun> c;
    std::vector<BandwidthRun> b;
    confirmation_runs(plan, out, c, b);
    for (const BandwidthRun& r : b) bandwidth(r, "again: ");
    for (const ComputeRun& r : c) compute(r, "again: ");
    done = std::min(total, done + per_pass - c.size() - b.size());
  };

  for (const ComputeRun& r : plan.compute) compute(r, "");
  const std::size_t n = plan.bandwidth.size();
  const std::size_t passes = static_cast<std::size_t>(std::max(0, plan.confirm_passes));
  for (std::size_t i = 0, pass = 1; i < n || pass <= passes; ++i) {
    if (i < n) bandwidth(plan.bandwidth[i], "");
    // Pass k of K follows bandwidth point k/K of the way through the sweep.
    while (pass <= passes && (i + 1) * passes >= pass * n) {
      confirm();
      ++pass;
    }
  }
  if (progress) progress(total, total, "done");
  return out;
}

template core::Sweeps run_sweeps<Kokkos::DefaultHostExecutionSpace>(const SweepPlan&,
                                                                    const Progress&);
#if defined(KOKKOS_ENABLE_CUDA)
template core::Sweeps run_sweeps<Kokkos::Cuda>(const SweepPlan&, const Progress&);
#endif

}  // namespace rooftop::microbench
