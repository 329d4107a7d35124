// profile: an unmodified Kokkos program run with rooftop's Kokkos Tools connector loaded
// (the profile backend); every labelled kernel it launched is placed on the ceilings.

#include "commands.hpp"
#include "kernel_report.hpp"
#include "rooftop/analyze/profile_backend.hpp"
#include "rooftop/ceilings/io.hpp"

namespace rooftop::app {

int run_profile(const ProfileOptions& options, const std::string& command_line) {
  const core::CeilingsFile file = ceilings::read_file(options.ceilings);
  const Outputs outputs{options.out, options.plot, options.format};
  outputs.check();
  analyze::ProfileBackend backend(options.command, options.connector);
  std::vector<std::string> notes;
  std::vector<core::KernelRecord> records = backend.collect(notes);
  return place_and_report(file, options.ceilings, std::move(records), notes, outputs, command_line);
}

}  // namespace rooftop::app
