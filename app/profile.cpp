// profile: an unmodified Kokkos program run with rooftop's Kokkos Tools connector loaded
// (the profile backend); every labelled kernel it launched is placed on the ceilings.

#include "commands.hpp"
#include "kernel_report.hpp"
#include "rooftop/analyze/profile_backend.hpp"

namespace rooftop::app {

int run_profile(const ProfileOptions& options, const std::string& command_line) {
  const KernelReport report(options.ceilings, {options.out, options.plot, options.format});
  analyze::ProfileBackend backend(options.command, options.connector);
  return report.collect_and_place(backend, "running " + (options.command.empty() ? std::string("the program") : options.command.front()) + " with the connector",
                                  command_line);
}

}  // namespace rooftop::app
