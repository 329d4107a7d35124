#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "rooftop/ceilings/export.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/ceilings/ncu_sections.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/terminal.hpp"

namespace rooftop::app {
namespace {

void print_notes(const std::vector<std::string>& skipped) {
  for (const std::string& why : skipped)
    std::cerr << "rooftop: note: " << core::terminal_text(why) << "\n";
}

// Nsight Compute's section files: a new folder, written all or nothing, and one line per
// file on stdout.
int export_sections(const ExportOptions& options) {
  core::check_folder_writable(options.out);
  const core::CeilingsFile file = ceilings::read_file(options.file);
  std::vector<std::string> skipped;
  const std::vector<ceilings::SectionFile> sections = ceilings::ncu_sections(
      file, std::filesystem::path(options.file).filename().string(), &skipped);
  core::write_text_folder(options.out, sections);
  print_notes(skipped);
  for (const ceilings::SectionFile& s : sections) {
    const std::filesystem::path written = std::filesystem::path(options.out) / s.name;
    std::cout << core::terminal_text(written.string()) << "\n";
  }
  return 0;
}

}  // namespace

int run_export(const ExportOptions& options) {
  if (options.format == ceilings::kNcuSectionsFormat) return export_sections(options);
  if (!options.out.empty()) core::check_writable(options.out, {options.file});
  const core::CeilingsFile file = ceilings::read_file(options.file);
  std::vector<std::string> skipped;
  const std::string text = ceilings::export_text(file, options.format, &skipped);
  if (options.out.empty())
    std::cout << text;
  else
    core::write_text_file(options.out, text);
  // stdout may be the export itself: notes go to stderr.
  print_notes(skipped);
  return 0;
}

}  // namespace rooftop::app
