#include "rooftop/report/comparison_table.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/sampling.hpp"

namespace rooftop::report {

nlohmann::json comparison_json(const ceilings::Comparison& cmp) {
  nlohmann::json files = nlohmann::json::array(), machines = nlohmann::json::array();
  for (const ceilings::ComparedFile& f : cmp.files) {
    files.push_back(f.label);
    machines.push_back(f.machine);
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const ceilings::ComparedCeiling& r : cmp.ceilings) {
    nlohmann::json values = nlohmann::json::array(), ratios = nlohmann::json::array(),
                   verdicts = nlohmann::json::array(), mins = nlohmann::json::array(),
                   maxs = nlohmann::json::array(), samples = nlohmann::json::array(),
                   measured = nlohmann::json::array();
    for (std::size_t i = 0; i < r.ceilings.size(); ++i) {
      const std::optional<core::Ceiling>& c = r.ceilings[i];
      values.push_back(
          ceilings::number_or_null(c ? std::optional<double>(c->value) : std::nullopt));
      mins.push_back(ceilings::number_or_null(c ? std::optional<double>(c->min) : std::nullopt));
      maxs.push_back(ceilings::number_or_null(c ? std::optional<double>(c->max) : std::nullopt));
      samples.push_back(c ? nlohmann::json(c->samples) : nlohmann::json(nullptr));
      measured.push_back(c ? nlohmann::json(c->measured()) : nlohmann::json(nullptr));
      ratios.push_back(ceilings::number_or_null(r.ratios[i]));
      verdicts.push_back(ceilings::to_string(r.verdicts[i]));
    }
    rows.push_back({{"name", r.name},
                    {"kind", r.kind},
                    {"units", r.units},
                    {"values", values},
                    {"ratios", ratios},
                    {"verdicts", verdicts},
                    {"min", mins},
                    {"max", maxs},
                    {"samples", samples},
                    {"measured", measured}});
  }
  return {{"files", files},
          {"machines", machines},
          {"same_rule", "the two runs' [min, max] ranges overlap"},
          {"ceilings", rows}};
}

std::string comparison_table(const ceilings::Comparison& cmp) {
  std::ostringstream out;
  out << "ratios against [1]; \"same\": the two runs' min..max ranges overlap\n";
  for (std::size_t i = 0; i < cmp.files.size(); ++i) {
    const ceilings::ComparedFile& f = cmp.files[i];
    out << "  [" << i + 1 << "] " << f.label << ": " << f.machine
        << (f.created_utc.empty() ? "" : " (" + f.created_utc + ")") << "\n";
  }
  out << "\n";
  // One cell per file: value, ratio to [1], verdict; padded lines end without blanks.
  const auto emit = [&out](std::string line) {
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << "\n";
  };
  const auto columns = [](const std::string& value, const std::string& ratio, const char* verdict) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " | %10s %8s  %-11s", value.c_str(), ratio.c_str(), verdict);
    return std::string(buf);
  };
  // The name and units columns as wide as their longest entry (a figure's name, such as
  // occupancy90_dram, is longer than a ceiling's).
  std::size_t name_width = 11, units_width = 8;
  for (const ceilings::ComparedCeiling& r : cmp.ceilings) {
    name_width = std::max(name_width, r.name.size());
    units_width = std::max(units_width, r.units.size());
  }
  const auto head = [&](const std::string& name, const std::string& units) {
    return name + std::string(name_width + 1 - name.size(), ' ') + units +
           std::string(units_width - units.size(), ' ');
  };
  std::string line = head("ceiling", "units");
  for (std::size_t i = 0; i < cmp.files.size(); ++i)
    line += columns("[" + std::to_string(i + 1) + "]", "ratio", "verdict");
  emit(line);
  bool any_theoretical = false, any_no_spread = false, any_disturbed = false;
  for (const ceilings::ComparedCeiling& r : cmp.ceilings) {
    line = head(r.name, r.units);
    for (std::size_t i = 0; i < r.ceilings.size(); ++i) {
      const std::optional<core::Ceiling>& c = r.ceilings[i];
      std::string value = "-";
      if (c) {
        value = core::significant(c->value, core::kFigureDigits);
        if (!c->measured()) {
          value += "*";
          any_theoretical = true;
        }
      }
      line +=
          columns(value, r.ratios[i] ? core::significant(*r.ratios[i], core::kRatioDigits) : "-",
                  ceilings::to_string(r.verdicts[i]));
      any_no_spread = any_no_spread || r.verdicts[i] == ceilings::Verdict::no_spread;
      any_disturbed = any_disturbed || r.verdicts[i] == ceilings::Verdict::disturbed;
    }
    emit(line);
  }
  if (any_theoretical || any_no_spread || any_disturbed) out << "\n";
  if (any_theoretical) out << "* theoretical, not measured\n";
  if (any_no_spread)
    out << "no spread: a file recorded fewer than 2 samples (or no range) for that ceiling, "
           "so noise cannot be told from a difference\n";
  if (any_disturbed)
    out << "disturbed: in one of the two files, other tasks or the hypervisor took more than "
        << core::format_number("%.0f", 100.0 * core::kDisturbedShare)
        << "% of the time of that ceiling's median sample (a host), or its samples saw another "
           "process, a slowdown not the GPU's own or a GPU error (a GPU), so a difference may "
           "be theirs\n";
  return out.str();
}

}  // namespace rooftop::report
