// profile: an unmodified Kokkos program run with rooftop's Kokkos Tools connector loaded,
// or any CUDA program with the CUDA injection library attached (the profile backend);
// every kernel it launched is placed on the ceilings. With --torch a PyTorch program run
// under torch.profiler through rooftop's launcher: its CPU operators, or on a GPU its
// kernels counted in one run and named by the trace of a second.

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
  run.torch = options.torch;
  analyze::ProfileBackend backend(std::move(run));
  const std::string program =
      options.command.empty() ? std::string("the program") : options.command.front();
  const std::string how = options.torch
                              ? (backend.injected() ? " counted, then under torch.profiler"
                                                    : " under torch.profiler")
                          : backend.injected() ? " with the CUDA injection library"
                                               : " with the connector";
  const int status = report.collect_and_place(backend, "running " + program + how, command_line);
  // --torch keeps the program's exit status (what it ran until then is placed).
  return backend.program_status() != 0 ? backend.program_status() : status;
}

}  // namespace rooftop::app
