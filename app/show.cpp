#include <iostream>

#include "commands.hpp"
#include "rooftop/analyze/report.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/ceilings/report.hpp"

namespace rooftop::app {

// A file written by analyze or import also holds kernels: they follow the ceilings.
int run_show(const ShowOptions& options) {
  const ceilings::CeilingsFile file = ceilings::read_file(options.file);
  if (options.json) {
    nlohmann::json j = ceilings::to_json(file);
    if (!file.kernels.empty())
      j["kernels"] = analyze::kernels_json(file, options.file, {})["kernels"];
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << ceilings::format_table(file);
    if (!file.kernels.empty()) std::cout << "\n" << analyze::kernels_table(file, {});
  }
  return 0;
}

}  // namespace rooftop::app
