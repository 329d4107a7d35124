#include "rooftop/analyze/import_backend.hpp"

#include <utility>

#include "rooftop/core/error.hpp"
#include "rooftop/core/input_file.hpp"

namespace rooftop::analyze {

namespace {

// Profiler reports of large applications run to tens of megabytes; more is not a report.
constexpr std::size_t kMaxReportBytes = std::size_t{256} << 20;

std::string read_file(const std::string& path) {
  return core::read_input_file(path, kMaxReportBytes, "profiler report");
}

}  // namespace

ImportBackend::ImportBackend(std::string report_path, std::string timing_path)
    : report_path_(std::move(report_path)), timing_path_(std::move(timing_path)) {}

std::string ImportBackend::name() const { return "import"; }

std::vector<core::KernelRecord> ImportBackend::collect(std::vector<std::string>& notes) {
  const std::string report = read_file(report_path_);
  const std::string timing = timing_path_.empty() ? std::string() : read_file(timing_path_);
  counters::ImportResult result =
      counters::parse_report(report, report_path_, timing, timing_path_);
  format_ = result.format;
  if (result.kernels.empty()) throw Error(report_path_ + ": no kernel found");
  notes.insert(notes.end(), result.notes.begin(), result.notes.end());
  notes.push_back(report_path_ + ": read as " + result.family + " (" + result.format + ")");
  return std::move(result.kernels);
}

}  // namespace rooftop::analyze
