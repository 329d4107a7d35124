// `measure`'s figures beyond the ceilings (schema 1.7): what the costs a GPU course
// teaches amount to on the machine, and its matrix units. Each sweep that fails is
// skipped with its reason and the others still run; the figures are drawn from whatever
// was measured.
#include <Kokkos_Core.hpp>
#include <algorithm>

#include "measure.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/ceilings/access_figures.hpp"
#include "rooftop/ceilings/dot_figures.hpp"
#include "rooftop/ceilings/tensor_peaks.hpp"
#include "rooftop/ceilings/transfer_figures.hpp"
#include "rooftop/microbench/costs/access_costs.hpp"
#include "rooftop/microbench/device.hpp"
#include "rooftop/microbench/matrix/dot.hpp"
#include "rooftop/microbench/host.hpp"
#include "rooftop/microbench/matrix/tensor.hpp"
#include "rooftop/microbench/costs/transfer_costs.hpp"

namespace rooftop::app {
namespace {

template <class T>
void append(std::vector<T>& to, std::vector<T> more) {
  to.insert(to.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

// In the vocabulary's order, whichever step drew them.
void sort_by_rank(std::vector<core::Ceiling>& figures) {
  std::stable_sort(figures.begin(), figures.end(), [](const core::Ceiling& a, const core::Ceiling& b) {
    return core::figure_rank(a.name) < core::figure_rank(b.name);
  });
}

// Watched as the ceilings' samples are: cancelled by Ctrl-C, and with their watch (the
// time a host's threads lost to others, NVML on a GPU) where they have one.
core::Sampling watched(core::Sampling sampling, core::Watch* watch) {
  sampling.cancel = &interrupted();
  sampling.watch = watch;
  return sampling;
}

}  // namespace

void measure_host_figures(const MeasureOptions& options, const microbench::SweepPlan& plan,
                          const KokkosRun& run, bool show_progress, core::CeilingsFile& file,
                          std::vector<std::string>& skipped) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  const core::Progress progress = show_progress ? progress_printer() : core::Progress{};
  core::Figures& costs = file.costs;
  core::Watch* const watch =
      microbench::host_lost_time_readable() ? &microbench::host_watch() : nullptr;

  microbench::HostAccessPlan access = microbench::make_host_access_plan(file.machine, options.quick);
  access.sampling = watched(access.sampling, watch);
  run_or_skip(&skipped, "access costs", [&] {
    append(costs.sweeps, microbench::run_host_access_costs<Host>(access, progress));
  });
  run.throw_if_interrupted();

  microbench::LaunchPlan launch = microbench::make_launch_plan(options.quick);
  launch.sampling = watched(launch.sampling, watch);
  append(costs.sweeps, microbench::run_launch_costs<Host>(launch, progress, &skipped));
  run.throw_if_interrupted();

  append(costs.figures, ceilings::access_figures(costs.sweeps));
  append(costs.figures,
         ceilings::launch_figures(costs.sweeps, "host (" + file.machine.execution_space + ")",
                                  &skipped));
  sort_by_rank(costs.figures);

  // The dot-product units this CPU has; the others are named as absent.
  const microbench::DotFeatures features = microbench::host_dot_features();
  // (run_dot_sweeps names the absent ones in `skipped`.)
  const std::vector<ceilings::DotUnit> units =
      microbench::dot_units(features, microbench::host_dot_rates());
  file.matrix.sweeps = microbench::run_dot_sweeps(plan, progress, &skipped, features);
  run.throw_if_interrupted();
  file.matrix.figures = ceilings::dot_figures(file.matrix.sweeps, file.machine, units);
}

void measure_device_figures(const MeasureOptions& options, const microbench::DevicePlan& plan,
                            const KokkosRun& run, core::CeilingsFile& file,
                            std::vector<std::string>& skipped) {
  using Device = Kokkos::DefaultExecutionSpace;
  const core::Progress progress = progress_printer();
  core::Figures& costs = file.costs;

  microbench::DeviceAccessPlan access = microbench::make_device_access_plan(
      file.machine, microbench::device_limits(), Device().concurrency(),
      microbench::device_free_bytes(), options.quick);
  access.sampling = watched(access.sampling, plan.sampling.watch);
  append(costs.sweeps, microbench::run_device_access_costs<Device>(access, progress, &skipped));
  file.machine.launch_geometry += "\n" + microbench::access_launch_geometry(access);
  run.throw_if_interrupted();

  microbench::TransferPlan transfers = microbench::make_transfer_plan(
      microbench::device_free_bytes(), microbench::host_available_bytes(), options.quick);
  transfers.sampling = watched(transfers.sampling, plan.sampling.watch);
  if (!transfers.top_note.empty()) skipped.push_back("transfers: " + transfers.top_note);
  append(costs.sweeps, microbench::run_transfer_costs<Device>(transfers, progress, &skipped));
  run.throw_if_interrupted();

  microbench::LaunchPlan launch = microbench::make_launch_plan(options.quick);
  launch.sampling = watched(launch.sampling, plan.sampling.watch);
  append(costs.sweeps, microbench::run_launch_costs<Device>(launch, progress, &skipped));
  run.throw_if_interrupted();

  append(costs.figures, ceilings::access_figures(costs.sweeps));
  append(costs.figures, ceilings::transfer_figures(costs.sweeps, microbench::pcie_link(), &skipped));
  append(costs.figures, ceilings::launch_figures(costs.sweeps, "GPU", &skipped));
  sort_by_rank(costs.figures);

  // Last: a fault in a tensor kernel cannot cost the figures above.
  file.matrix.sweeps = microbench::run_tensor_sweeps<Device>(plan, progress, &skipped);
  run.throw_if_interrupted();
  file.matrix.figures = ceilings::tensor_figures(file.matrix.sweeps, file.machine);
}

}  // namespace rooftop::app
