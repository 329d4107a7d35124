#pragma once
// What `measure` does on one process, shared by the single-machine run and every rank
// of a fleet.

#include <string>
#include <vector>

#include "commands.hpp"
#include "interrupt.hpp"
#include "rooftop/core/model.hpp"
#include "rooftop/microbench/device.hpp"
#include "rooftop/microbench/sweep.hpp"

namespace rooftop::app {

// Throws rooftop::Error when this build cannot characterize `options.space`.
void check_space(const MeasureOptions& options);

// Characterizes the GPU options.device (Kokkos's default device space).
core::CeilingsFile characterize_device(const MeasureOptions& options,
                                       const std::string& command_line, const KokkosRun& run,
                                       std::vector<std::string>& skipped);

// Characterizes `options.space` (the host space, or the GPU through characterize_device;
// Kokkos is running: `run`); progress on stderr when `show_progress` and stderr is a terminal.
// Ceilings that could not be extracted are added to `skipped` with their reason.
core::CeilingsFile characterize(const MeasureOptions& options, const std::string& command_line,
                                const KokkosRun& run, bool show_progress,
                                std::vector<std::string>& skipped);

// The figures of schema 1.7 (the costs a GPU course teaches, the matrix units) after a
// host or a device characterization whose sweeps ran with `plan`; each sweep that fails
// is added to `skipped` with its reason.
void measure_host_figures(const MeasureOptions& options, const microbench::SweepPlan& plan,
                          const KokkosRun& run, bool show_progress, core::CeilingsFile& file,
                          std::vector<std::string>& skipped);
void measure_device_figures(const MeasureOptions& options, const microbench::DevicePlan& plan,
                            const KokkosRun& run, core::CeilingsFile& file,
                            std::vector<std::string>& skipped);

}  // namespace rooftop::app
