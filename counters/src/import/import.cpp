#include "rooftop/counters/import.hpp"

#include <optional>
#include <string_view>

#include "reader.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"

namespace rooftop::counters {

namespace {

using importing::Input;
using importing::OpenedFile;

ImportResult result_of(importing::Reading reading, const std::string& name) {
  ImportResult result;
  result.format = reading.format;
  result.family = reading.family;
  result.kernels = std::move(reading.kernels);
  result.notes = std::move(reading.notes);
  result.flops_short = std::move(reading.flops_short);
  if (result.kernels.empty())
    result.notes.push_back(name + ": no kernels in the " + result.format + " report");
  return result;
}

}  // namespace

ImportResult parse_report(const std::string& report_text, const std::string& report_name,
                          const std::string& timing_text, const std::string& timing_name) {
  // A timing file named but empty is an error, not the same as none. It is read first:
  // a file that is no timing file fails before any work.
  const bool timing_given = !timing_name.empty() || !timing_text.empty();
  std::optional<importing::Timing> timing;
  if (timing_given)
    timing = importing::read_timing(importing::open_file(
        {timing_text, timing_name.empty() ? std::string("timing file") : timing_name}));
  const OpenedFile report = importing::open_file({report_text, report_name});
  return result_of(importing::read_report(report, timing ? &*timing : nullptr), report_name);
}

ImportResult parse_reports(const std::vector<ReportFile>& files, const ReportFile* timing) {
  // Every file inflated and told apart once; a timing file read once for every report.
  std::optional<importing::Timing> times;
  if (timing) times = importing::read_timing(importing::open_file({timing->text, timing->name}));
  std::vector<OpenedFile> opened;
  int timers = 0;
  for (const ReportFile& f : files) {
    opened.push_back(importing::open_file({f.text, f.name}));
    timers += opened.back().reader->times_only ? 1 : 0;
  }
  // One file of times among reports of counts times them, as --timing would.
  const OpenedFile* joined = nullptr;
  const int counts = static_cast<int>(files.size()) - timers;
  if (!timing && files.size() > 1 && timers == 1 && counts >= 1)
    for (const OpenedFile& f : opened)
      if (f.reader->times_only) joined = &f;
  if (joined) times = importing::read_timing(*joined);
  ImportResult all;
  for (const OpenedFile& f : opened) {
    if (&f == joined) continue;
    ImportResult r = result_of(importing::read_report(f, times ? &*times : nullptr), f.name);
    if (joined)
      r.notes.push_back(f.name + ": timed by " + joined->name + " (kernels joined by name)");
    all.format += (all.format.empty() ? "" : " + ") + r.format;
    all.family += (all.family.empty() ? "" : " + ") + r.family;
    if (!all.kernels.empty() && !r.kernels.empty())
      r.notes.push_back(f.name + ": its kernels k1-k" + std::to_string(r.kernels.size()) +
                        " are listed as k" + std::to_string(all.kernels.size() + 1) + "-k" +
                        std::to_string(all.kernels.size() + r.kernels.size()));
    for (core::KernelRecord& k : r.kernels) {
      k.order = static_cast<int>(all.kernels.size());
      k.id = "k" + std::to_string(all.kernels.size() + 1);
      all.kernels.push_back(std::move(k));
    }
    all.notes.insert(all.notes.end(), r.notes.begin(), r.notes.end());
    all.flops_short.insert(r.flops_short.begin(), r.flops_short.end());  // the first file's first
  }
  return all;
}

void name_operators(std::vector<core::KernelRecord>& kernels, const ReportFile& trace,
                    std::vector<std::string>& notes) {
  const OpenedFile file = open_pytorch_trace(trace, "it names no operators");
  importing::Timing timing = importing::read_timing(file);
  std::vector<std::string> names, unnamed;
  for (const core::KernelRecord& k : kernels) names.push_back(k.name);
  const std::vector<const importing::TimingEntry*> match =
      importing::match_timing(names, timing, notes);
  int named = 0;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    core::KernelRecord& k = kernels[i];
    if (!match[i] || match[i]->description.empty()) {
      unnamed.push_back(k.id);
      continue;
    }
    k.description += (k.description.empty() ? "" : "; ") + match[i]->description;
    ++named;
  }
  notes.push_back(trace.name + ": the operators that launched " + std::to_string(named) + " of " +
                  std::to_string(kernels.size()) + " kernel(s) named" +
                  (unnamed.empty() ? std::string()
                                   : " (none for " + core::join_first(unnamed, ", ", 8) +
                                         ": not in the trace, or launched outside an operator)"));
}

}  // namespace rooftop::counters
