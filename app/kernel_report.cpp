#include "kernel_report.hpp"

#include <algorithm>
#include <iostream>

#include "interrupt.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/roofline.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/report/chart.hpp"

namespace rooftop::app {
namespace {

// Below this fraction of its roof an operator's rate is called out, one line each.
constexpr double kFarBelow = 0.3;
// Those holding at least this share of the time (an import's time_s is its calls' total),
// the longest first, at most kVerdicts.
constexpr double kTimeShare = 0.01;
constexpr std::size_t kVerdicts = 10;

// The notes, then a line for each operator far below its roof (core::below_roof_line).
std::vector<std::string> with_verdicts(const std::vector<std::string>& notes,
                                       const std::vector<core::KernelRecord>& records,
                                       const core::CeilingsFile& file) {
  double total = 0.0;
  for (const core::KernelRecord& r : records) total += r.time_s;
  std::vector<std::pair<double, std::string>> slow;  // time, line
  for (const core::KernelRecord& r : records) {
    if (r.time_s < kTimeShare * total) continue;
    std::string line = core::below_roof_line(r, file, kFarBelow);
    if (!line.empty()) slow.emplace_back(r.time_s, std::move(line));
  }
  std::stable_sort(slow.begin(), slow.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> out = notes;
  for (std::size_t i = 0; i < slow.size() && i < kVerdicts; ++i)
    out.push_back("below " + core::significant(kFarBelow, 1) + " of its roof: " +
                  slow[i].second);
  if (slow.size() > kVerdicts)
    out.push_back("below " + core::significant(kFarBelow, 1) + " of their roofs: " +
                  std::to_string(slow.size() - kVerdicts) + " more operators");
  return out;
}

}  // namespace

KernelReport::KernelReport(std::string ceilings_path, Outputs outputs,
                           std::vector<std::string> inputs)
    : ceilings_path_(std::move(ceilings_path)),
      outputs_(std::move(outputs)),
      file_(ceilings::read_file(ceilings_path_)) {
  inputs.push_back(ceilings_path_);
  for (const std::string& path : {outputs_.out, outputs_.plot})
    if (!path.empty()) core::check_writable(path, inputs);
  core::check_apart(outputs_.out, outputs_.plot);
}

int KernelReport::collect_and_place(analyze::Backend& backend, const std::string& what,
                                    const std::string& command_line) const {
  const core::Progress progress = progress_printer();
  std::vector<std::string> notes;
  if (progress) progress(0, 2, what);
  std::vector<core::KernelRecord> records = backend.collect(notes);
  if (progress) progress(1, 2, "placing " + std::to_string(records.size()) + " kernels");
  const int status = place(std::move(records), notes, command_line);
  if (progress) progress(2, 2, "");
  return status;
}

int KernelReport::place(std::vector<core::KernelRecord> records,
                        const std::vector<std::string>& notes,
                        const std::string& command_line) const {
  core::CeilingsFile file = file_;  // the ceilings with these kernels
  for (core::KernelRecord& r : records) {
    core::settle_compulsory_bytes(r, file);
    core::apply(core::place(r, file), r);
  }
  const std::vector<std::string> all_notes = with_verdicts(notes, records, file);
  file.kernels = std::move(records);
  file.provenance = ceilings::current_provenance(command_line);
  if (!outputs_.out.empty()) ceilings::write_file(outputs_.out, file);
  if (!outputs_.plot.empty())
    core::write_text_file(outputs_.plot,
                          report::kernels_svg(file, "Kernels on the measured roofline"));
  std::vector<std::string> written;
  for (const std::string& path : {outputs_.out, outputs_.plot})
    if (!path.empty()) written.push_back(path);
  writer_for(outputs_.format).kernels(std::cout, file, ceilings_path_, all_notes, written);
  for (const core::KernelRecord& k : file.kernels)
    if (!k.above.empty())
      std::cerr << "rooftop: warning: " << core::terminal_text(k.name) << " lies above " << k.above
                << ": its counts or the ceilings are wrong\n";
  for (const core::KernelRecord& k : file.kernels)
    if (k.check == "failed") return 1;
  return 0;
}

}  // namespace rooftop::app
