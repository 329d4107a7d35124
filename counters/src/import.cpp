#include "rooftop/counters/import.hpp"

#include "gzip.hpp"
#include "reader.hpp"

namespace rooftop::counters {

ImportResult parse_report(const std::string& report_text, const std::string& report_name,
                          const std::string& timing_text, const std::string& timing_name) {
  using importing::Input;
  const Input report{report_text, report_name};
  // A timing file named but empty is an error, not the same as none.
  const bool timing_given = !timing_name.empty() || !timing_text.empty();
  const Input timing{timing_text, timing_name.empty() ? std::string("timing file") : timing_name};
  importing::Reading reading = importing::read_report(report, timing_given ? &timing : nullptr);
  ImportResult result;
  result.format = reading.format;
  result.family = reading.family;
  result.kernels = std::move(reading.kernels);
  result.notes = std::move(reading.notes);
  if (result.kernels.empty())
    result.notes.push_back(report_name + ": no kernels in the " + result.format + " report");
  return result;
}

namespace {

// Whether `text` is in a format that holds times only (gzip looked into).
bool times_only(const std::string& text, const std::string& name) {
  std::string inflated;
  std::string_view view = text;
  if (importing::is_gzip(view)) {
    inflated = importing::gunzip(view, name);
    view = inflated;
  }
  const importing::Reader* r = importing::find_reader(view);
  return r && r->times_only;
}

}  // namespace

ImportResult parse_reports(const std::vector<ReportFile>& files, const ReportFile* timing) {
  std::vector<bool> timer(files.size(), false);
  int timers = 0, counts = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    timer[i] = files.size() > 1 && times_only(files[i].text, files[i].name);
    (timer[i] ? timers : counts) += 1;
  }
  // One file of times among reports of counts times them, as --timing would.
  const ReportFile* joined = nullptr;
  if (!timing && timers == 1 && counts >= 1)
    for (std::size_t i = 0; i < files.size(); ++i)
      if (timer[i]) joined = &files[i];
  const ReportFile* times = timing ? timing : joined;
  ImportResult all;
  for (const ReportFile& f : files) {
    if (&f == joined) continue;
    ImportResult r = times ? parse_report(f.text, f.name, times->text, times->name)
                           : parse_report(f.text, f.name);
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
  }
  return all;
}

}  // namespace rooftop::counters
