// The default output: aligned text for reading, every name from a file made safe for a
// terminal, and what was written besides stdout said last.

#include "output.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/report/ceilings_table.hpp"
#include "rooftop/report/comparison_table.hpp"
#include "rooftop/report/count_table.hpp"
#include "rooftop/report/fleet_table.hpp"
#include "rooftop/report/kernel_table.hpp"

namespace rooftop::app {
namespace {

// "\nwrote a and b\n"; nothing when nothing was written.
std::string wrote(const std::vector<std::string>& written) {
  if (written.empty()) return "";
  std::string out = "\nwrote ";
  for (std::size_t i = 0; i < written.size(); ++i) out += (i ? " and " : "") + written[i];
  return out + "\n";
}

class TableWriter final : public Writer {
 public:
  void file(std::ostream& out, const core::CeilingsFile& file, const std::string&,
            const ceilings::FleetFile* fleet) const override {
    out << core::terminal_text(report::ceilings_table(file));
    if (!file.kernels.empty()) out << "\n" << core::terminal_text(report::kernels_table(file, {}));
    if (fleet) out << "\n" << core::terminal_text(report::fleet_table(*fleet));
  }

  void comparison(std::ostream& out, const ceilings::Comparison& comparison,
                  const std::vector<std::string>& written) const override {
    out << core::terminal_text(report::comparison_table(comparison)) << wrote(written);
  }

  void fleet_review(std::ostream& out, const ceilings::FleetFile& fleet,
                    const ceilings::FleetReview& review, const std::string& path,
                    const std::vector<std::string>& written) const override {
    // Host names and failure reasons come from the file: made safe like every other name.
    out << core::terminal_text(path + ": " + report::fleet_table(fleet) + "\n" +
                               report::fleet_review_table(review))
        << wrote(written);
  }

  void kernels(std::ostream& out, const core::CeilingsFile& file, const std::string&,
               const std::vector<std::string>& notes,
               const std::vector<std::string>& written) const override {
    out << core::terminal_text(report::kernels_table(file, notes)) << wrote(written);
  }

  void counts(std::ostream& out, const core::CountComparison& comparison) const override {
    out << core::terminal_text(report::count_comparison_table(comparison));
  }
};

}  // namespace

const Writer& table_writer() {
  static const TableWriter writer;
  return writer;
}

}  // namespace rooftop::app
