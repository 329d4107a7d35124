#pragma once
// The import backend: kernels measured by another tool (Nsight Compute, nvprof, Nsight
// Systems, PyTorch's profiler), read from files and parsed by counters/import.hpp.

#include <map>
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
  // The format the last collect() recognized, and its family ("Nsight Compute CSV"); empty
  // before.
  const std::string& format() const { return format_; }
  const std::string& family() const { return family_; }
  // Where the last collect()'s FLOP metrics fell short (counters::ImportResult::flops_short).
  const std::map<std::string, std::string>& flops_short() const { return flops_short_; }

 private:
  std::vector<std::string> report_paths_;
  std::string timing_path_;
  std::string format_, family_;
  std::map<std::string, std::string> flops_short_;
};

}  // namespace rooftop::analyze
