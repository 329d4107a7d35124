// Launches swept by kernel size: each launch fenced (launch to completion), launches back
// to back with one fence after them, and a fence alone. On a GPU this is the cost of a
// kernel launch; under the host space, of Kokkos's parallel dispatch to the host threads.
#include <Kokkos_Core.hpp>
#include <algorithm>

#include "costs/cost_checks.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/microbench/costs/transfer_costs.hpp"

namespace rooftop::microbench {
namespace {

using namespace costs;

constexpr std::int64_t kLargestKernel = std::int64_t{1} << 24;

// The trivial body: one 8-byte store per work item (cost: 8 B written per item, no
// loads), whose value says which point wrote it.
template <class Space>
struct LaunchKernel {
  Kokkos::View<Word*, typename Space::memory_space> out;
  Word stamp = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    out(i) = stamp + static_cast<Word>(i);
  }
};

}  // namespace

LaunchPlan make_launch_plan(bool quick) {
  LaunchPlan plan;
  const std::int64_t step = quick ? 16 : 4;
  for (std::int64_t items = 1; items <= kLargestKernel; items *= step) plan.items.push_back(items);
  plan.sampling.samples = 3;
  // A launch lasts microseconds: thousands of them in one sample.
  plan.sampling.min_sample_seconds = quick ? 0.002 : 0.005;
  plan.sampling.budget_seconds = quick ? 0.05 : 0.1;
  return plan;
}

template <class Space>
std::vector<core::SweepPoint> run_launch_costs(const LaunchPlan& plan,
                                               const core::Progress& progress,
                                               std::vector<std::string>* skipped) {
  std::vector<core::SweepPoint> out;
  if (plan.items.empty()) return out;
  const std::int64_t largest = *std::max_element(plan.items.begin(), plan.items.end());
  LaunchKernel<Space> k;
  // Zeroed now: the largest kernel's first launch would otherwise fault its pages in.
  k.out = Kokkos::View<Word*, typename Space::memory_space>(std::string("rooftop::launch_out"),
                                                            static_cast<std::size_t>(largest));
  const Space exec;
  const std::string label = "rooftop::launch";
  const auto us = [](double t) { return t * 1e6; };

  const char* sweeps[] = {"launch:sync", "launch", "fence"};
  const std::size_t total = std::size(sweeps);
  Word point = 0;
  for (std::size_t s = 0; s < total; ++s) {
    const std::string sweep = sweeps[s];
    if (progress) progress(s, total, sweep);
    run_or_skip(skipped, sweep, [&] {
      if (sweep == "fence") {
        // Nothing outstanding: the previous sweep's last sample ended with a fence.
        const core::SampleSet samples = core::sample(plan.sampling, 1, [&](std::int64_t reps) {
          for (std::int64_t r = 0; r < reps; ++r) exec.fence();
        });
        out.push_back(core::sweep_point(sweep, 0.0, samples, us));
        return;
      }
      const bool fenced = sweep == "launch:sync";
      for (const std::int64_t items : plan.items) {
        k.stamp = ++point << 32;
        const Kokkos::RangePolicy<Space, Index> policy(exec, 0, items);
        const core::SampleSet samples = core::sample(plan.sampling, 1, [&](std::int64_t reps) {
          for (std::int64_t r = 0; r < reps; ++r) {
            Kokkos::parallel_for(label, policy, k);
            if (fenced) exec.fence();
          }
          if (!fenced) exec.fence();
        });
        const Word stamp = k.stamp;
        check_words<Space>(k.out, items, "rooftop::" + sweep,
                           [stamp](std::int64_t i) { return stamp + static_cast<Word>(i); });
        out.push_back(core::sweep_point(sweep, static_cast<double>(items), samples, us));
      }
    });
  }
  if (progress) progress(total, total, "");
  return out;
}

template std::vector<core::SweepPoint> run_launch_costs<Kokkos::DefaultHostExecutionSpace>(
    const LaunchPlan&, const core::Progress&, std::vector<std::string>*);
#if defined(KOKKOS_ENABLE_CUDA)
template std::vector<core::SweepPoint> run_launch_costs<Kokkos::Cuda>(
    const LaunchPlan&, const core::Progress&, std::vector<std::string>*);
#endif

}  // namespace rooftop::microbench
