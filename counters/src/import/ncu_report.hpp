#pragma once
// Nsight Compute's values per launch, however they were printed (CSV in either layout,
// the plain-text log), summed per kernel and evaluated by the one evaluator into kernel
// records. Shared by ncu_csv.cpp and ncu_text.cpp. Private to rooftop_counters.

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reader.hpp"

namespace rooftop::counters::importing {

struct Launch {
  std::map<std::string, std::optional<double>> values;  // base units; empty: "n/a"
  std::set<std::string> seen;                           // every metric name, wanted or not
};

struct NcuKernel {
  std::string name;
  std::vector<Launch> launches;
};

struct NcuReport {
  std::vector<NcuKernel> kernels;
  std::map<std::string, std::size_t> by_name;
  std::set<std::string> metrics;  // wanted metrics that occur in the file
  std::vector<std::string> errors;  // Nsight Compute's "==ERROR==" lines, as printed

  Launch& new_launch(const std::string& kernel) {
    auto it = by_name.find(kernel);
    if (it == by_name.end()) {
      it = by_name.emplace(kernel, kernels.size()).first;
      kernels.push_back({kernel, {}});
    }
    return kernels[it->second].launches.emplace_back();
  }
};

// Nsight Compute's "==ERROR==" lines in `text`, trimmed, in order: a launch it failed to
// profile, counters it may not read. They come before or among its tables, CSV or text.
std::vector<std::string> ncu_errors(std::string_view text);

// Whether the roofline reads `metric`.
bool ncu_metric_wanted(const std::string& metric);

// Records `value` in `unit` for `metric` in `launch`, where the metric is one the
// roofline reads (others only as seen); Error "WHERE..." for a value that is not one.
void store(Launch& launch, NcuReport& report, const std::string& metric, const std::string& value,
           const std::string& unit, const std::string& where);

// The kernels of `report` as records, with the notes on what they lack, under `format`.
// `timing` (null: none) is the timing file given with the report.
Reading ncu_reading(const NcuReport& report, const std::string& file, const std::string& format,
                    const Timing* timing);

}  // namespace rooftop::counters::importing
