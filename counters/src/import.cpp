#include "rooftop/counters/import.hpp"

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

}  // namespace rooftop::counters
