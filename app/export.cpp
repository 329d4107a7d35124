#include <iostream>

#include "commands.hpp"
#include "rooftop/ceilings/export.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/terminal.hpp"

namespace rooftop::app {

int run_export(const ExportOptions& options) {
  if (!options.out.empty()) core::check_writable(options.out, {options.file});
  const core::CeilingsFile file = ceilings::read_file(options.file);
  std::vector<std::string> skipped;
  const std::string text = ceilings::export_text(file, options.format, &skipped);
  if (options.out.empty())
    std::cout << text;
  else
    core::write_text_file(options.out, text);
  // stdout may be the export itself: notes go to stderr.
  for (const std::string& why : skipped)
    std::cerr << "rooftop: note: " << core::terminal_text(why) << "\n";
  return 0;
}

}  // namespace rooftop::app
