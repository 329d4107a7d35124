#pragma once
// Subcommands of the rooftop program; each returns the process exit status.

#include <string>

namespace rooftop::app {

struct MeasureOptions {
  std::string space = "host";
  bool quick = false;
  std::string out = "ceilings.h5";
  std::string plot;
};
int run_measure(const MeasureOptions& options, const std::string& command_line);

struct ShowOptions {
  std::string file;
  bool json = false;
};
int run_show(const ShowOptions& options);

}  // namespace rooftop::app
