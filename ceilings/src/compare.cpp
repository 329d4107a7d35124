#include "rooftop/ceilings/compare.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"

namespace rooftop::ceilings {
namespace {

std::string cell(const char* format, double value) { return core::format_number(format, value); }

}  // namespace

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::baseline:
      return "baseline";
    case Verdict::same:
      return "same";
    case Verdict::higher:
      return "higher";
    case Verdict::lower:
      return "lower";
    case Verdict::absent:
      return "absent";
    case Verdict::no_spread:
      return "no spread";
    case Verdict::no_baseline:
      return "no baseline";
  }
  return "?";
}

bool has_spread(const Ceiling& c) { return c.samples >= 2 && c.max > c.min; }

Verdict judge(const Ceiling& baseline, const Ceiling& other) {
  if (!has_spread(baseline) || !has_spread(other)) return Verdict::no_spread;
  if (other.min <= baseline.max && baseline.min <= other.max) return Verdict::same;
  return other.value > baseline.value ? Verdict::higher : Verdict::lower;
}

Comparison compare(const std::vector<CeilingsFile>& files, const std::vector<std::string>& labels) {
  if (files.size() < 2) throw Error("compare needs at least two ceilings files");
  ROOFTOP_REQUIRE(labels.size() == files.size(), "one label per file");

  Comparison out;
  for (std::size_t i = 0; i < files.size(); ++i)
    out.files.push_back(
        {labels[i], machine_name(files[i].machine), files[i].provenance.created_utc});

  for (const CeilingsFile& f : files) {
    for (const Ceiling& c : f.ceilings) {
      const bool known = std::any_of(out.ceilings.begin(), out.ceilings.end(),
                                     [&](const ComparedCeiling& r) { return r.name == c.name; });
      if (!known) out.ceilings.push_back({c.name, c.kind, c.units, {}, {}, {}});
    }
  }
  std::stable_sort(out.ceilings.begin(), out.ceilings.end(),
                   [](const ComparedCeiling& a, const ComparedCeiling& b) {
                     return display_rank(a.name) < display_rank(b.name);
                   });

  for (ComparedCeiling& row : out.ceilings) {
    for (std::size_t i = 0; i < files.size(); ++i) {
      const Ceiling* c = files[i].find(row.name);
      if (c && c->units != row.units)
        throw Error(labels[i] + ": ceiling " + row.name + " is in " + c->units + ", " + labels[0] +
                    "'s in " + row.units);
      row.ceilings.push_back(c ? std::optional<Ceiling>(*c) : std::nullopt);
    }
    const std::optional<Ceiling>& base = row.ceilings[0];
    for (std::size_t i = 0; i < files.size(); ++i) {
      const std::optional<Ceiling>& c = row.ceilings[i];
      std::optional<double> ratio;
      if (base && c && base->value > 0.0) ratio = c->value / base->value;
      row.ratios.push_back(ratio);
      if (!c)
        row.verdicts.push_back(Verdict::absent);
      else if (i == 0)
        row.verdicts.push_back(Verdict::baseline);
      else if (!base)
        row.verdicts.push_back(Verdict::no_baseline);
      else
        row.verdicts.push_back(judge(*base, *c));
    }
  }
  return out;
}

nlohmann::json to_json(const Comparison& cmp) {
  nlohmann::json files = nlohmann::json::array(), machines = nlohmann::json::array();
  for (const ComparedFile& f : cmp.files) {
    files.push_back(f.label);
    machines.push_back(f.machine);
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const ComparedCeiling& r : cmp.ceilings) {
    nlohmann::json values = nlohmann::json::array(), ratios = nlohmann::json::array(),
                   verdicts = nlohmann::json::array(), mins = nlohmann::json::array(),
                   maxs = nlohmann::json::array(), samples = nlohmann::json::array(),
                   measured = nlohmann::json::array();
    for (std::size_t i = 0; i < r.ceilings.size(); ++i) {
      const std::optional<Ceiling>& c = r.ceilings[i];
      values.push_back(number_or_null(c ? std::optional<double>(c->value) : std::nullopt));
      mins.push_back(number_or_null(c ? std::optional<double>(c->min) : std::nullopt));
      maxs.push_back(number_or_null(c ? std::optional<double>(c->max) : std::nullopt));
      samples.push_back(c ? nlohmann::json(c->samples) : nlohmann::json(nullptr));
      measured.push_back(c ? nlohmann::json(c->measured()) : nlohmann::json(nullptr));
      ratios.push_back(number_or_null(r.ratios[i]));
      verdicts.push_back(to_string(r.verdicts[i]));
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

std::string format_table(const Comparison& cmp) {
  std::ostringstream out;
  out << "ratios against [1]; \"same\": the two runs' min..max ranges overlap\n";
  for (std::size_t i = 0; i < cmp.files.size(); ++i) {
    const ComparedFile& f = cmp.files[i];
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
  char head[32];
  std::snprintf(head, sizeof head, "%-11s %-8s", "ceiling", "units");
  std::string line = head;
  for (std::size_t i = 0; i < cmp.files.size(); ++i)
    line += columns("[" + std::to_string(i + 1) + "]", "ratio", "verdict");
  emit(line);
  bool any_theoretical = false, any_no_spread = false;
  for (const ComparedCeiling& r : cmp.ceilings) {
    std::snprintf(head, sizeof head, "%-11s %-8s", r.name.c_str(), r.units.c_str());
    line = head;
    for (std::size_t i = 0; i < r.ceilings.size(); ++i) {
      const std::optional<Ceiling>& c = r.ceilings[i];
      std::string value = "-";
      if (c) {
        value = cell("%.1f", c->value);
        if (!c->measured()) {
          value += "*";
          any_theoretical = true;
        }
      }
      line +=
          columns(value, r.ratios[i] ? cell("%.3g", *r.ratios[i]) : "-", to_string(r.verdicts[i]));
      any_no_spread = any_no_spread || r.verdicts[i] == Verdict::no_spread;
    }
    emit(line);
  }
  if (any_theoretical || any_no_spread) out << "\n";
  if (any_theoretical) out << "* theoretical, not measured\n";
  if (any_no_spread)
    out << "no spread: a file recorded fewer than 2 samples (or no range) for that ceiling, "
           "so noise cannot be told from a difference\n";
  return out.str();
}

}  // namespace rooftop::ceilings
