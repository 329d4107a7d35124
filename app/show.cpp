#include <iostream>

#include "commands.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/ceilings/report.hpp"

namespace rooftop::app {

int run_show(const ShowOptions& options) {
  const ceilings::CeilingsFile file = ceilings::read_file(options.file);
  if (options.json)
    std::cout << ceilings::to_json(file).dump(2) << "\n";
  else
    std::cout << ceilings::format_table(file);
  return 0;
}

}  // namespace rooftop::app
