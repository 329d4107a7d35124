#pragma once
// The import backend: kernels measured by another tool (Nsight Compute, nvprof, Nsight
// Systems, PyTorch's profiler), read from files and parsed by counters/import.hpp.

#include <string>
#include <vector>

#include "rooftop/analyze/backend.hpp"
#include "rooftop/counters/import.hpp"

namespace rooftop::analyze {

// Reads the files and hands them to counters::parse_reports. An unreadable file throws
// rooftop::Error "PATH: cannot read (reason)", reports without kernels "PATH: no kernel
// found".
class ImportBackend : public Backend {
 public:
  explicit ImportBackend(std::string report_path, std::string timing_path = "");
  explicit ImportBackend(std::vector<std::string> report_paths, std::string timing_path = "");
  std::string name() const override;  // "import"
  std::vector<core::KernelRecord> collect(std::vector<std::string>& notes) override;
  // The format the last collect() recognized; empty before.
  const std::string& format() const { return format_; }

 private:
  std::vector<std::string> report_paths_;
  std::string timing_path_;
  std::string format_;
};

}  // namespace rooftop::analyze
