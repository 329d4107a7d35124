#pragma once
// Where analyze, import and profile put the kernels their backend collects: the ceilings
// file's roofline they are placed on, the kernels file, the chart and the report.

#include <string>
#include <vector>

#include "output.hpp"
#include "rooftop/analyze/backend.hpp"
#include "rooftop/core/model.hpp"

namespace rooftop::app {

struct Outputs {
  std::string out, plot;  // empty: not written
  OutputFormat format = OutputFormat::table;
};

class KernelReport {
 public:
  // Reads the ceilings file and checks that the outputs can be written, so that a bad
  // path fails before any kernel runs, and that neither is one of the command's `inputs`
  // (the ceilings file counts as one) or the other output.
  KernelReport(std::string ceilings_path, Outputs outputs, std::vector<std::string> inputs = {});
  const core::CeilingsFile& ceilings() const { return file_; }

  // Places `records` on the ceilings, writes the outputs and prints the report. Returns
  // the exit status: 1 when a kernel's answer check failed, else 0.
  int place(std::vector<core::KernelRecord> records, const std::vector<std::string>& notes,
            const std::string& command_line) const;
  // The backend's kernels, collected and placed.
  // `what`: the collection, as the progress lines name it ("reading ncu.csv").
  int collect_and_place(analyze::Backend& backend, const std::string& what,
                        const std::string& command_line) const;

 private:
  std::string ceilings_path_;
  Outputs outputs_;
  core::CeilingsFile file_;
};

}  // namespace rooftop::app
