#include "rooftop/ceilings/compare.hpp"

#include <algorithm>

#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/error.hpp"

namespace rooftop::ceilings {
const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::baseline: return "baseline";
    case Verdict::same: return "same";
    case Verdict::higher: return "higher";
    case Verdict::lower: return "lower";
    case Verdict::absent: return "absent";
    case Verdict::no_spread: return "no spread";
    case Verdict::no_baseline: return "no baseline";
    case Verdict::disturbed: return "disturbed";
  }
  return "?";
}

bool has_spread(const core::Ceiling& c) { return c.samples >= 2 && c.max > c.min; }

Verdict judge(const core::Ceiling& baseline, const core::Ceiling& other) {
  if (!has_spread(baseline) || !has_spread(other)) return Verdict::no_spread;
  if (baseline.disturbed() || other.disturbed()) return Verdict::disturbed;
  if (other.min <= baseline.max && baseline.min <= other.max) return Verdict::same;
  return other.value > baseline.value ? Verdict::higher : Verdict::lower;
}

Comparison compare(const std::vector<core::CeilingsFile>& files,
                   const std::vector<std::string>& labels) {
  if (files.size() < 2) throw Error("compare needs at least two ceilings files");
  ROOFTOP_REQUIRE(labels.size() == files.size(), "one label per file");

  Comparison out;
  for (std::size_t i = 0; i < files.size(); ++i)
    out.files.push_back(
        {labels[i], machine_name(files[i].machine), files[i].provenance.created_utc});

  for (const core::CeilingsFile& f : files) {
    for (const core::Ceiling* c : f.rows()) {  // figures (schema 1.7) alike
      const bool known = std::any_of(out.ceilings.begin(), out.ceilings.end(),
                                     [&](const ComparedCeiling& r) { return r.name == c->name; });
      if (!known) out.ceilings.push_back({c->name, c->kind, c->units, {}, {}, {}});
    }
  }
  std::stable_sort(out.ceilings.begin(), out.ceilings.end(),
                   [](const ComparedCeiling& a, const ComparedCeiling& b) {
                     return display_rank(a.name) < display_rank(b.name);
                   });

  for (ComparedCeiling& row : out.ceilings) {
    for (std::size_t i = 0; i < files.size(); ++i) {
      const core::Ceiling* c = files[i].find_row(row.name);
      if (c && c->units != row.units)
        throw Error(labels[i] + ": ceiling " + row.name + " is in " + c->units + ", " + labels[0] +
                    "'s in " + row.units);
      row.ceilings.push_back(c ? std::optional<core::Ceiling>(*c) : std::nullopt);
    }
    const std::optional<core::Ceiling>& base = row.ceilings[0];
    for (std::size_t i = 0; i < files.size(); ++i) {
      const std::optional<core::Ceiling>& c = row.ceilings[i];
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

}  // namespace rooftop::ceilings
