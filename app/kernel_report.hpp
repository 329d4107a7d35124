#pragma once
// What analyze, import and profile do with the kernels they collected: place them on the
// ceilings file's roofline, then write the kernels file, the chart and the report.

#include <string>
#include <vector>

#include "output.hpp"
#include "rooftop/core/model.hpp"

namespace rooftop::app {

struct Outputs {
  std::string out, plot;  // empty: not written
  OutputFormat format = OutputFormat::table;
  // Fails early (before any kernel runs) when an output could not be written later.
  void check() const;
};

// Returns the exit status: 1 when a kernel's answer check failed, else 0.
int place_and_report(core::CeilingsFile file, const std::string& ceilings_path,
                     std::vector<core::KernelRecord> records, const std::vector<std::string>& notes,
                     const Outputs& outputs, const std::string& command_line);

}  // namespace rooftop::app
