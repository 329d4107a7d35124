// Nsight Compute CSV: `ncu --csv [--page details]` (one row per metric: "ID", "Kernel
// Name", "Metric Name", "Metric Unit", "Metric Value") and `ncu --csv --page raw` (one
// column per metric, a row of units under the header, one row per launch).

#include <map>
#include <string>
#include <utility>

#include "ncu_report.hpp"
#include "profiler_csv.hpp"
#include "reader.hpp"
#include "units.hpp"

namespace rooftop::counters::importing {
namespace {

void read_ncu_long(const csv::Table& t, const std::string& file, NcuReport& report) {
  const int kernel = column(t.header, "Kernel Name"), metric = column(t.header, "Metric Name"),
            value = column(t.header, "Metric Value"), unit = column(t.header, "Metric Unit"),
            id = column(t.header, "ID"), pid = column(t.header, "Process ID");
  // A launch is its ID (per process); without IDs, a run of rows of one kernel that
  // names no metric twice.
  std::map<std::string, std::pair<std::size_t, std::size_t>> launches;
  Launch* current = nullptr;
  std::string current_kernel;
  for (const csv::Record& row : t.rows) {
    const std::string& name = field(t, row, kernel, file);
    const std::string& m = field(t, row, metric, file);
    const std::string& v = field(t, row, value, file);
    // Rows may stop before an empty unit.
    const std::string u = unit >= 0 && static_cast<std::size_t>(unit) < row.fields.size()
                              ? row.fields[unit]
                              : std::string();
    Launch* launch = nullptr;
    if (id >= 0) {
      const std::string key =
          field(t, row, pid, file) + '\x1f' + field(t, row, id, file) + '\x1f' + name;
      const auto found = launches.find(key);
      if (found != launches.end()) {
        launch = &report.kernels[found->second.first].launches[found->second.second];
      } else {
        launch = &report.new_launch(name);
        const std::size_t k = report.by_name.at(name);
        launches.emplace(key, std::make_pair(k, report.kernels[k].launches.size() - 1));
      }
    } else {
      // Rule rows of the details page name no metric.
      if (!current || current_kernel != name || (!m.empty() && current->seen.count(m))) {
        current = &report.new_launch(name);
        current_kernel = name;
      }
      launch = current;
    }
    store(*launch, report, m, v, u, at(file, row.line));
  }
}

void read_ncu_wide(const csv::Table& t, const std::string& file, NcuReport& report) {
  const int kernel = column(t.header, "Kernel Name"), id = column(t.header, "ID");
  std::size_t first = 0;
  const csv::Record* units = nullptr;
  // `--page raw` prints a row of units under the header, blank in the launch columns.
  if (!t.rows.empty() && trim(field(t, t.rows[0], id >= 0 ? id : kernel, file)).empty()) {
    units = &t.rows[0];
    first = 1;
  }
  for (std::size_t r = first; r < t.rows.size(); ++r) {
    const csv::Record& row = t.rows[r];
    Launch& launch = report.new_launch(field(t, row, kernel, file));
    for (std::size_t c = 0; c < t.header.fields.size(); ++c) {
      const std::string& m = t.header.fields[c];
      if (!ncu_metric_wanted(m)) continue;
      const std::string unit = units && c < units->fields.size() ? units->fields[c] : std::string();
      store(launch, report, m, field(t, row, static_cast<int>(c), file), unit, at(file, row.line));
    }
  }
}

bool detect(std::string_view text) {
  const int kind = first_kind(text);
  return kind == kNcuLong || kind == kNcuWide || kind == kNcuSummary;
}

Reading read(const Input& report, const Timing* timing) {
  const std::vector<csv::Table> tables = profiler_tables(report.text, report.name);
  const csv::Table& first = counts_table(tables, report.name);
  NcuReport ncu;
  ncu.errors = ncu_errors(report.text);
  for (const csv::Table& t : tables) {
    if (t.kind == kNcuLong) read_ncu_long(t, report.name, ncu);
    if (t.kind == kNcuWide) read_ncu_wide(t, report.name, ncu);
  }
  return ncu_reading(ncu, report.name, format_name(first.kind), timing);
}

}  // namespace

Reader ncu_csv_reader() { return {"Nsight Compute CSV", detect, read, nvprof_times}; }

}  // namespace rooftop::counters::importing
