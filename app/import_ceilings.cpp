#include <iostream>

#include "commands.hpp"
#include "rooftop/ceilings/ert.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/report/ceilings_table.hpp"

namespace rooftop::app {

int run_import_ceilings(const ImportCeilingsOptions& options, const std::string& command_line) {
  core::check_writable(options.out, {options.file});
  std::vector<std::string> skipped;
  core::CeilingsFile file = ceilings::read_ert_file(options.file, &skipped);
  file.provenance = ceilings::current_provenance(command_line);
  ceilings::write_file(options.out, file);
  std::cout << core::terminal_text(report::ceilings_table(file));
  for (const std::string& why : skipped)
    std::cout << "skipped " << core::terminal_text(why) << "\n";
  std::cout << "\nwrote " << options.out << "\n";
  return 0;
}

}  // namespace rooftop::app
