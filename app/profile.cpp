// profile: an unmodified Kokkos program run with rooftop's Kokkos Tools connector loaded,
// or any CUDA program with the CUDA injection library attached (the profile backend);
// every kernel it launched is placed on the ceilings.

#include <utility>

#include "commands.hpp"
#include "kernel_report.hpp"
#include "rooftop/analyze/profile_backend.hpp"

namespace rooftop::app {

int run_profile(const ProfileOptions& options, const std::string& command_line) {
  const KernelReport report(options.ceilings, {options.out, options.plot, options.format},
                            {options.trace});
  analyze::ProfileRun run;
  run.command = options.command;
  run.tool = options.kokkos ? analyze::ProfileTool::kokkos
             : options.cuda ? analyze::ProfileTool::cuda
                            : analyze::ProfileTool::automatic;
  run.connector = options.connector;
  run.injection = options.injection;
  run.selection = {options.kernel_regex, options.launch_skip, options.launch_count};
  run.trace = options.trace;
  analyze::ProfileBackend backend(std::move(run));
  const std::string program =
      options.command.empty() ? std::string("the program") : options.command.front();
  return report.collect_and_place(
      backend,
      "running " + program +
          (backend.injected() ? " with the CUDA injection library" : " with the connector"),
      command_line);
}

}  // namespace rooftop::app
