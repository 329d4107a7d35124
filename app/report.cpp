// report: one self-contained HTML page of one or more rooftop files (report/html_report).

#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/input_file.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/report/html_report.hpp"

namespace rooftop::app {

int run_report(const ReportOptions& options) {
  core::check_writable(options.out, options.files);
  core::check_distinct(options.files, "a report of one file twice would draw every line twice");
  std::vector<core::CeilingsFile> files;
  for (const std::string& path : options.files) files.push_back(ceilings::read_file(path));
  core::write_text_file(options.out, report::html_report(files, options.files));
  std::cout << "wrote " << options.out << "\n";
  return 0;
}

}  // namespace rooftop::app
