#include <iostream>
#include <optional>

#include "commands.hpp"
#include "rooftop/ceilings/fleet.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/ceilings/report.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/report/kernel_table.hpp"

namespace rooftop::app {

// A file written by analyze or import also holds kernels: they follow the ceilings. A
// fleet file's ceilings are the fleet medians; its ranks and statistics follow them.
int run_show(const ShowOptions& options) {
  const ceilings::CeilingsFile file = ceilings::read_file(options.file);
  std::optional<ceilings::FleetFile> fleet;
  if (ceilings::is_fleet_file(options.file)) fleet = ceilings::read_fleet_file(options.file);
  if (options.json) {
    nlohmann::json j = ceilings::to_json(file);
    if (!file.kernels.empty())
      j["kernels"] = analyze::kernels_json(file, options.file, {})["kernels"];
    if (fleet) j["fleet"] = ceilings::to_json(*fleet, ceilings::review(*fleet, 0.05), options.file);
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << ceilings::terminal_text(ceilings::format_table(file));
    if (!file.kernels.empty())
      std::cout << "\n" << ceilings::terminal_text(analyze::kernels_table(file, {}));
    if (fleet) std::cout << "\n" << ceilings::terminal_text(ceilings::format_table(*fleet));
  }
  return 0;
}

}  // namespace rooftop::app
