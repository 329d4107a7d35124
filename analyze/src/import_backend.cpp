#include "rooftop/analyze/import_backend.hpp"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>
#include <utility>

#include "rooftop/core/error.hpp"

namespace rooftop::analyze {

namespace {

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error(path + ": cannot read (a directory)");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(path + ": cannot read (" +
                (errno ? std::generic_category().message(errno) : std::string("open failed")) +
                ")");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad())
    throw Error(path + ": cannot read (" +
                (errno ? std::generic_category().message(errno) : std::string("read failed")) +
                ")");
  return text;
}

}  // namespace

ImportBackend::ImportBackend(std::string report_path, std::string timing_path)
    : report_path_(std::move(report_path)), timing_path_(std::move(timing_path)) {}

std::string ImportBackend::name() const { return "import"; }

std::vector<ceilings::KernelRecord> ImportBackend::collect(std::vector<std::string>& notes) {
  const std::string report = read_file(report_path_);
  const std::string timing = timing_path_.empty() ? std::string() : read_file(timing_path_);
  ImportResult result = parse_report(report, report_path_, timing, timing_path_);
  format_ = result.format;
  notes.insert(notes.end(), result.notes.begin(), result.notes.end());
  return std::move(result.kernels);
}

}  // namespace rooftop::analyze
