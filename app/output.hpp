#pragma once
// How the commands print their results on stdout: one writer per output format, each in
// its own file (output_table.cpp, output_json.cpp), and one table of the formats. A new
// format is a row in kOutputFormats and a writer file; main.cpp gives every command that
// prints results one flag per format (--json) from the table.

#include <ostream>
#include <string>
#include <vector>

namespace rooftop::core {
struct CeilingsFile;
struct CountComparison;
}  // namespace rooftop::core
namespace rooftop::ceilings {
struct Comparison;
struct FleetFile;
struct FleetReview;
}  // namespace rooftop::ceilings

namespace rooftop::app {

enum class OutputFormat { table, json };

// `written`: the files a command wrote besides stdout, in the order it wrote them.
class Writer {
 public:
  virtual ~Writer() = default;
  // show: a ceilings file, the kernels it holds, and a fleet file's ranks (else null).
  virtual void file(std::ostream& out, const core::CeilingsFile& file, const std::string& path,
                    const ceilings::FleetFile* fleet) const = 0;
  // compare: several files side by side.
  virtual void comparison(std::ostream& out, const ceilings::Comparison& comparison,
                          const std::vector<std::string>& written) const = 0;
  // compare of one fleet file: its slow and failed ranks.
  virtual void fleet_review(std::ostream& out, const ceilings::FleetFile& fleet,
                            const ceilings::FleetReview& review, const std::string& path,
                            const std::vector<std::string>& written) const = 0;
  // analyze, import, profile: the kernels placed on the ceilings of `ceilings_path`.
  virtual void kernels(std::ostream& out, const core::CeilingsFile& file,
                       const std::string& ceilings_path, const std::vector<std::string>& notes,
                       const std::vector<std::string>& written) const = 0;
  // compare-counts: two files' counts of the same kernels side by side.
  virtual void counts(std::ostream& out, const core::CountComparison& comparison) const = 0;
};

const Writer& table_writer();
const Writer& json_writer();

struct OutputFormatEntry {
  OutputFormat format;
  const char* name;  // the flag: --NAME (the default, the first row, has none)
  const char* help;
  const Writer& (*writer)();
};
inline constexpr OutputFormatEntry kOutputFormats[] = {
    {OutputFormat::table, "table", "aligned text for reading", table_writer},
    {OutputFormat::json, "json", "machine-readable output", json_writer},
};

inline const Writer& writer_for(OutputFormat format) {
  for (const OutputFormatEntry& entry : kOutputFormats)
    if (entry.format == format) return entry.writer();
  return table_writer();
}

}  // namespace rooftop::app
