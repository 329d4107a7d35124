#include <iostream>
#include <optional>

#include "commands.hpp"
#include "rooftop/ceilings/fleet.hpp"
#include "rooftop/ceilings/io.hpp"

namespace rooftop::app {

// A file written by analyze or import also holds kernels: they follow the ceilings. A
// fleet file's ceilings are the fleet medians; its ranks and statistics follow them.
int run_show(const ShowOptions& options) {
  const core::CeilingsFile file = ceilings::read_file(options.file);
  std::optional<ceilings::FleetFile> fleet;
  if (ceilings::is_fleet_file(options.file)) fleet = ceilings::read_fleet_file(options.file);
  writer_for(options.format).file(std::cout, file, options.file, fleet ? &*fleet : nullptr);
  return 0;
}

}  // namespace rooftop::app
