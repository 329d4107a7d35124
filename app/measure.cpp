#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "commands.hpp"
#include "fleet.hpp"
#include "interrupt.hpp"
#include "measure.hpp"
#include "rooftop/ceilings/extract.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/config.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/microbench/device.hpp"
#include "rooftop/microbench/host.hpp"
#include "rooftop/microbench/sweep.hpp"
#include "rooftop/report/ceilings_table.hpp"
#include "rooftop/report/chart.hpp"

namespace rooftop::app {

void check_space(const MeasureOptions& options) {
  // Before Kokkos starts: without a GPU it would abort instead of saying why.
  if (options.space == "device") microbench::check_device(options.device);
}

core::CeilingsFile characterize(const MeasureOptions& options, const std::string& command_line,
                                const KokkosRun& run, bool show_progress,
                                std::vector<std::string>& skipped) {
  if (options.space == "device") return characterize_device(options, command_line, run, skipped);
  core::CeilingsFile file;
  file.provenance = ceilings::current_provenance(command_line);
  file.machine = microbench::describe_host();
  // The theoretical peak must be an upper bound, and the clock drifts on a shared
  // machine: take the highest reading, before, during (before each re-measurement
  // pass, whose points usually set the ceilings) and after the sweeps.
  std::string method;
  std::vector<double> clocks{microbench::measure_host_clock_ghz(method)};

  microbench::SweepPlan plan = microbench::make_plan(file.machine, options.quick);
  plan.sampling.cancel = &interrupted();
  plan.before_confirm_pass = [&] { clocks.push_back(microbench::measure_host_clock_ghz(method)); };
  plan.compute_clock = microbench::sample_clock_ghz;
  // Without the scheduler's statistics the samples carry no disturbance (unknown).
  if (microbench::host_lost_time_readable()) plan.sampling.watch = &microbench::host_watch();
  file.sweeps = microbench::run_sweeps<Kokkos::DefaultHostExecutionSpace>(
      plan, show_progress ? progress_printer() : microbench::Progress{});
  clocks.push_back(microbench::measure_host_clock_ghz(method));

  file.machine.clock_ghz = *std::max_element(clocks.begin(), clocks.end());
  std::string readings;
  for (double c : clocks)
    readings += (readings.empty() ? "" : ", ") + core::format_number("%.3f", c);
  file.machine.clock_method = method + "; highest of the readings before, during and after " +
                              "the sweeps (" + readings + " GHz)";

  file.ceilings = ceilings::extract_ceilings(file.machine, file.sweeps, &skipped);
  run.throw_if_interrupted();
  measure_host_figures(options, plan, run, show_progress, file, skipped);
  return file;
}

int run_measure(const MeasureOptions& options, const std::string& command_line) {
  // Started by mpirun or srun: every rank measures its share, rank 0 writes the fleet.
  const int ranks = launcher_ranks();
  if (ranks > 1 || (ROOFTOP_HAS_MPI && ranks == 1)) return run_measure_fleet(options, command_line);

  check_space(options);
  // Fail before a minute of measuring, not after.
  core::check_writable(options.out);
  if (!options.plot.empty()) core::check_writable(options.plot);
  core::check_apart(options.out, options.plot);

  KokkosRun run(options.space == "device" ? options.device : -1);
  std::vector<std::string> skipped;
  const core::CeilingsFile file = characterize(options, command_line, run, true, skipped);

  ceilings::write_file(options.out, file);
  if (!options.plot.empty()) core::write_text_file(options.plot, report::roofline_svg(file));

  std::cout << core::terminal_text(report::ceilings_table(file));
  for (const std::string& why : skipped) std::cout << "skipped " << why << "\n";
  std::cout << "\nwrote " << options.out << (options.plot.empty() ? "" : " and " + options.plot)
            << "\n";
  for (const auto& c : file.ceilings)
    if (c.above_theoretical()) {
      std::cerr << "rooftop: warning: " << c.name << " is above its theoretical peak\n";
    }
  const std::vector<std::string> disturbed = report::disturbed_ceilings(file);
  for (const std::string& line : disturbed) std::cerr << "rooftop: warning: " << line << "\n";
  if (options.strict && !disturbed.empty()) {
    std::cerr << "rooftop: --strict: " << disturbed.size()
              << " ceiling(s) measured while the machine was not the measurement's own\n";
    return kExitDisturbed;
  }
  return 0;
}

}  // namespace rooftop::app
