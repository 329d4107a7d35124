#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "rooftop/ceilings/compare.hpp"
#include "rooftop/ceilings/fleet.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/input_file.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/report/chart.hpp"

namespace rooftop::app {

namespace {

std::vector<std::string> written(const CompareOptions& options) {
  if (options.plot.empty()) return {};
  return {options.plot};
}

// One fleet file: the ranks below the fleet median, and those that failed.
int review_fleet(const CompareOptions& options) {
  const std::string& path = options.files.front();
  if (!options.plot.empty()) core::check_writable(options.plot, {path});
  const ceilings::FleetFile fleet = ceilings::read_fleet_file(path);
  const ceilings::FleetReview review = ceilings::review(fleet, options.threshold);
  if (!options.plot.empty())
    core::write_text_file(options.plot, report::fleet_spread_svg(fleet, review));
  writer_for(options.format).fleet_review(std::cout, fleet, review, path, written(options));
  return review.anything_found() ? kExitRanksFlagged : 0;
}

}  // namespace

int run_compare(const CompareOptions& options) {
  const std::vector<std::string>& paths = options.files;
  if (paths.size() == 1 && ceilings::is_fleet_file(paths.front())) return review_fleet(options);
  if (paths.size() < 2)
    throw Error(
        "compare needs at least two ceilings files, or one fleet file (written by "
        "measure under MPI)");
  if (options.threshold_given)
    throw Error(
        "--threshold applies to one fleet file; several files are compared by their "
        "ranges (a fleet file by its fleet medians)");
  // The same file twice compares nothing; two copies of one file are fine ("same").
  core::check_distinct(paths, "compare needs different files");
  if (!options.plot.empty()) core::check_writable(options.plot, paths);

  std::vector<core::CeilingsFile> files;
  files.reserve(paths.size());
  for (const std::string& path : paths) files.push_back(ceilings::read_file(path));
  const ceilings::Comparison comparison = ceilings::compare(files, paths);

  if (!options.plot.empty())
    core::write_text_file(options.plot, report::comparison_svg(files, paths));
  writer_for(options.format).comparison(std::cout, comparison, written(options));
  return 0;
}

}  // namespace rooftop::app
