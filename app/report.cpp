// report: one self-contained HTML page of one or more rooftop files (report/html_report).

#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/report/html_report.hpp"

namespace rooftop::app {

int run_report(const ReportOptions& options) {
  core::check_writable(options.out);
  // The same file twice would draw every line twice and compare nothing.
  for (std::size_t i = 0; i < options.files.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      std::error_code ec;
      if (std::filesystem::equivalent(options.files[i], options.files[j], ec))
        throw Error(options.files[i] + ": given twice");
    }
  std::vector<core::CeilingsFile> files;
  for (const std::string& path : options.files) files.push_back(ceilings::read_file(path));
  core::write_text_file(options.out, report::html_report(files, options.files));
  std::cout << "wrote " << options.out << "\n";
  return 0;
}

}  // namespace rooftop::app
