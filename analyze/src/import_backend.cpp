#include "rooftop/analyze/import_backend.hpp"

#include <utility>

#include "nsight_report.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/input_file.hpp"

namespace rooftop::analyze {

namespace {

// Profiler reports of large applications run to tens of megabytes; more is not a report.
constexpr std::size_t kMaxReportBytes = std::size_t{256} << 20;

// The report at `path` as the import reads it: Nsight's own binary reports through the
// tool that wrote them (nsight_report.hpp), any other file as it is.
std::string read_file(const std::string& path, std::vector<std::string>& notes) {
  std::string bytes = core::read_input_file(path, kMaxReportBytes, "profiler report");
  const NsightReport kind = nsight_report_kind(bytes);
  return kind == NsightReport::none ? bytes : export_nsight_report(path, bytes, kind, notes);
}

}  // namespace

ImportBackend::ImportBackend(std::string report_path, std::string timing_path)
    : ImportBackend(std::vector<std::string>{std::move(report_path)}, std::move(timing_path)) {}

ImportBackend::ImportBackend(std::vector<std::string> report_paths, std::string timing_path)
    : report_paths_(std::move(report_paths)), timing_path_(std::move(timing_path)) {}

std::string ImportBackend::name() const { return "import"; }

std::vector<core::KernelRecord> ImportBackend::collect(std::vector<std::string>& notes) {
  std::vector<counters::ReportFile> files;
  std::vector<std::string> exported;  // notes of the reports a tool exported
  for (const std::string& path : report_paths_) files.push_back({read_file(path, exported), path});
  counters::ReportFile timing;
  if (!timing_path_.empty()) timing = {read_file(timing_path_, exported), timing_path_};
  counters::ImportResult result =
      files.size() == 1
          ? counters::parse_report(files[0].text, files[0].name, timing.text, timing.name)
          : counters::parse_reports(files, timing_path_.empty() ? nullptr : &timing);
  format_ = result.format;
  family_ = result.family;
  flops_short_ = result.flops_short;
  std::string names;
  for (const std::string& path : report_paths_) names += (names.empty() ? "" : ", ") + path;
  if (result.kernels.empty()) throw Error(names + ": no kernel found");
  notes.insert(notes.end(), exported.begin(), exported.end());
  notes.insert(notes.end(), result.notes.begin(), result.notes.end());
  notes.push_back(names + ": read as " + result.family + " (" + result.format + ")");
  return std::move(result.kernels);
}

}  // namespace rooftop::analyze
