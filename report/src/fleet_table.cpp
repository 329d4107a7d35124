#include "rooftop/report/fleet_table.hpp"

#include <cstdio>
#include <set>
#include <sstream>

#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/format.hpp"

namespace rooftop::report {
namespace {

std::string percent(double fraction) {
  return core::significant(100.0 * fraction, core::kRatioDigits) + "%";
}
std::string figure(double v) { return core::significant(v, core::kFigureDigits); }

// Padded columns end without blanks.
std::string trimmed(const char* line) {
  std::string s = line;
  s.erase(s.find_last_not_of(' ') + 1);
  return s + "\n";
}

}  // namespace

nlohmann::json fleet_json(const ceilings::FleetFile& fleet, const ceilings::FleetReview& rv,
                          const std::string& label) {
  nlohmann::json ranks = nlohmann::json::array();
  for (const ceilings::RankRecord& k : fleet.ranks)
    ranks.push_back({{"rank", k.rank},
                     {"hostname", k.hostname},
                     {"device", k.device},
                     {"cpus", k.cpus},
                     {"local_rank", k.local_rank},
                     {"local_size", k.local_size},
                     {"status", k.status},
                     {"reason", k.ok() ? nlohmann::json(nullptr) : nlohmann::json(k.reason)},
                     {"seconds", k.seconds},
                     {"machine", k.file ? nlohmann::json(ceilings::machine_name(k.file->machine))
                                        : nlohmann::json(nullptr)}});
  nlohmann::json statistics = nlohmann::json::array();
  for (const ceilings::FleetStatistic& s : fleet.statistics)
    statistics.push_back({{"name", s.name},
                          {"kind", s.kind},
                          {"units", s.units},
                          {"ranks", s.ranks},
                          {"median", s.median},
                          {"min", s.min},
                          {"max", s.max},
                          {"spread", s.spread},
                          {"min_rank", s.min_rank},
                          {"max_rank", s.max_rank}});
  nlohmann::json slow = nlohmann::json::array();
  for (const ceilings::SlowRank& s : rv.slow)
    slow.push_back({{"rank", s.rank},
                    {"hostname", s.hostname},
                    {"device", s.device},
                    {"ceiling", s.ceiling},
                    {"units", s.units},
                    {"value", s.value},
                    {"fleet_median", s.fleet_median},
                    {"ratio", s.ratio},
                    {"min", s.min},
                    {"max", s.max},
                    {"within_own_spread", s.within_own_spread}});
  nlohmann::json failed = nlohmann::json::array();
  for (const ceilings::RankRecord& k : rv.failed)
    failed.push_back(
        {{"rank", k.rank}, {"hostname", k.hostname}, {"device", k.device}, {"reason", k.reason}});
  return {{"file", label},
          {"size", fleet.size},
          {"hosts", fleet.hosts()},
          {"created_utc", fleet.provenance.created_utc},
          {"threshold", rv.threshold},
          {"slow_rule", "value < (1 - threshold) x fleet median"},
          {"ranks", ranks},
          {"statistics", statistics},
          {"slow", slow},
          {"failed", failed}};
}

std::string fleet_table(const ceilings::FleetFile& fleet) {
  std::ostringstream out;
  out << "fleet of " << fleet.size << (fleet.size == 1 ? " rank" : " ranks") << " on "
      << fleet.hosts() << (fleet.hosts() == 1 ? " host" : " hosts");
  if (fleet.failed()) out << " (" << fleet.failed() << " failed)";
  out << ", rooftop " << fleet.provenance.tool_version << " " << fleet.provenance.git_revision
      << ", " << fleet.provenance.created_utc << "\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%5s  %-20s %7s  %-14s %-7s %8s  %s\n", "rank", "host", "local",
                "device", "status", "seconds", "machine or reason");
  out << line;
  for (const ceilings::RankRecord& k : fleet.ranks) {
    const std::string local = std::to_string(k.local_rank) + "/" + std::to_string(k.local_size);
    const std::string what = k.file ? ceilings::machine_name(k.file->machine) : k.reason;
    std::snprintf(line, sizeof line, "%5d  %-20s %7s  %-14s %-7s %8.1f  %s", k.rank,
                  k.hostname.c_str(), local.c_str(), k.device.c_str(), k.status.c_str(), k.seconds,
                  what.substr(0, 200).c_str());
    out << trimmed(line);
  }
  out << "\n";
  std::snprintf(line, sizeof line, "%-11s %-8s %10s %10s %10s %7s %5s  %-7s %s", "ceiling", "units",
                "median", "min", "max", "spread", "ranks", "min at", "max at");
  out << trimmed(line);
  for (const ceilings::FleetStatistic& s : fleet.statistics) {
    std::snprintf(line, sizeof line, "%-11s %-8s %10s %10s %10s %7s %5d  %-7s %s", s.name.c_str(),
                  s.units.c_str(), figure(s.median).c_str(), figure(s.min).c_str(),
                  figure(s.max).c_str(), percent(s.spread).c_str(), s.ranks,
                  ("rank " + std::to_string(s.min_rank)).c_str(),
                  ("rank " + std::to_string(s.max_rank)).c_str());
    out << trimmed(line);
  }
  if (fleet.statistics.empty()) out << "(no rank measured any ceiling)\n";
  out << "spread: (max - min) / median across the ranks\n";
  return out.str();
}

std::string fleet_review_table(const ceilings::FleetReview& rv) {
  std::ostringstream out;
  const std::string threshold = percent(rv.threshold);
  std::set<int> slow_ranks;
  if (!rv.slow.empty()) {
    out << "slow: more than " << threshold << " below the fleet median\n";
    int last = -1;
    for (const ceilings::SlowRank& s : rv.slow) {
      if (s.rank != last) out << "  " << s.label << "\n";
      last = s.rank;
      slow_ranks.insert(s.rank);
      char line[256];
      std::snprintf(line, sizeof line, "    %-11s %10s %-8s %s of the fleet median %s%s\n",
                    s.ceiling.c_str(), figure(s.value).c_str(), s.units.c_str(),
                    core::significant(s.ratio, core::kRatioDigits).c_str(),
                    figure(s.fleet_median).c_str(),
                    s.within_own_spread ? " (noisy: its own samples reach the median)" : "");
      out << line;
    }
  }
  if (!rv.failed.empty()) {
    out << "failed:\n";
    for (const ceilings::RankRecord& k : rv.failed)
      out << "  " << k.label() << ": " << k.reason << "\n";
  }
  if (!rv.anything_found())
    out << "no rank is more than " << threshold
        << " below the fleet median of any ceiling, and none failed\n";
  else
    out << slow_ranks.size() << (slow_ranks.size() == 1 ? " rank" : " ranks") << " slow, "
        << rv.failed.size() << " failed\n";
  return out.str();
}

}  // namespace rooftop::report
