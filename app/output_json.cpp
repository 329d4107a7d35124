// --json: one JSON document on stdout, for scripts (the keys are a contract: add freely,
// never rename). Files written besides stdout are not mentioned: stdout is the document.

#include <nlohmann/json.hpp>

#include "output.hpp"
#include "rooftop/report/ceilings_table.hpp"
#include "rooftop/report/comparison_table.hpp"
#include "rooftop/report/count_table.hpp"
#include "rooftop/report/fleet_table.hpp"
#include "rooftop/report/kernel_table.hpp"

namespace rooftop::app {
namespace {

// Invalid UTF-8 in a name from a file becomes U+FFFD rather than an exception.
void print(std::ostream& out, const nlohmann::json& j) {
  out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

class JsonWriter final : public Writer {
 public:
  void file(std::ostream& out, const core::CeilingsFile& file, const std::string& path,
            const ceilings::FleetFile* fleet) const override {
    nlohmann::json j = report::ceilings_json(file);
    if (!file.kernels.empty()) j["kernels"] = report::kernels_json(file, path, {})["kernels"];
    if (fleet)
      j["fleet"] = report::fleet_json(
          *fleet, ceilings::review(*fleet, ceilings::kDefaultSlowThreshold), path);
    print(out, j);
  }

  void comparison(std::ostream& out, const ceilings::Comparison& comparison,
                  const std::vector<std::string>&) const override {
    print(out, report::comparison_json(comparison));
  }

  void fleet_review(std::ostream& out, const ceilings::FleetFile& fleet,
                    const ceilings::FleetReview& review, const std::string& path,
                    const std::vector<std::string>&) const override {
    print(out, report::fleet_json(fleet, review, path));
  }

  void kernels(std::ostream& out, const core::CeilingsFile& file, const std::string& ceilings_path,
               const std::vector<std::string>& notes,
               const std::vector<std::string>&) const override {
    print(out, report::kernels_json(file, ceilings_path, notes));
  }

  void counts(std::ostream& out, const core::CountComparison& comparison) const override {
    print(out, report::count_comparison_json(comparison));
  }
};

}  // namespace

const Writer& json_writer() {
  static const JsonWriter writer;
  return writer;
}

}  // namespace rooftop::app
