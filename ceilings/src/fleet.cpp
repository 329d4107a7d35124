#include "rooftop/ceilings/fleet.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "rooftop/ceilings/compare.hpp"
#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/statistics.hpp"

namespace rooftop::ceilings {
namespace {

std::string percent(double fraction) { return core::format_number("%.1f%%", 100.0 * fraction); }

// Padded columns end without blanks.
std::string trimmed(const char* line) {
  std::string s = line;
  s.erase(s.find_last_not_of(' ') + 1);
  return s + "\n";
}

// "node01", or "3 hosts: node01, node02, node03" (the first few named).
std::string hosts_summary(const FleetFile& fleet) {
  std::vector<std::string> hosts;
  for (const RankRecord& k : fleet.ranks)
    if (std::find(hosts.begin(), hosts.end(), k.hostname) == hosts.end())
      hosts.push_back(k.hostname);
  if (hosts.size() == 1) return hosts.front();
  std::string out = std::to_string(hosts.size()) + " hosts: ";
  const std::size_t named = std::min<std::size_t>(hosts.size(), 8);
  for (std::size_t i = 0; i < named; ++i) out += (i ? ", " : "") + hosts[i];
  if (named < hosts.size()) out += ", ...";
  return out;
}

}  // namespace

std::string RankRecord::label() const {
  return "rank " + std::to_string(rank) + " on " + hostname + (device.empty() ? "" : ", " + device);
}

const FleetStatistic* FleetFile::find(const std::string& name) const {
  for (const FleetStatistic& s : statistics)
    if (s.name == name) return &s;
  return nullptr;
}

int FleetFile::failed() const {
  return static_cast<int>(
      std::count_if(ranks.begin(), ranks.end(), [](const RankRecord& k) { return !k.ok(); }));
}

int FleetFile::hosts() const {
  std::set<std::string> names;
  for (const RankRecord& k : ranks) names.insert(k.hostname);
  return static_cast<int>(names.size());
}

std::vector<FleetStatistic> fleet_statistics(const std::vector<RankRecord>& ranks) {
  std::vector<FleetStatistic> out;
  for (const RankRecord& k : ranks) {
    if (!k.file) continue;
    for (const Ceiling& c : k.file->ceilings) {
      const bool known = std::any_of(out.begin(), out.end(),
                                     [&](const FleetStatistic& s) { return s.name == c.name; });
      if (!known && c.measured()) out.push_back({c.name, c.kind, c.units});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const FleetStatistic& a, const FleetStatistic& b) {
    return display_rank(a.name) < display_rank(b.name);
  });
  for (FleetStatistic& s : out) {
    std::vector<double> values;
    for (const RankRecord& k : ranks) {
      const Ceiling* c = k.file ? k.file->find(s.name) : nullptr;
      if (!c || !c->measured()) continue;
      if (c->units != s.units)
        throw Error(k.label() + ": ceiling " + s.name + " is in " + c->units +
                    ", other ranks' in " + s.units);
      values.push_back(c->value);
      if (s.min_rank < 0 || c->value < s.min) {
        s.min = c->value;
        s.min_rank = k.rank;
      }
      if (s.max_rank < 0 || c->value > s.max) {
        s.max = c->value;
        s.max_rank = k.rank;
      }
    }
    const Summary summary = summarize(values);
    s.ranks = summary.count;
    s.median = summary.median;
    s.spread = summary.spread;
  }
  return out;
}

FleetFile make_fleet(const Provenance& provenance, std::vector<RankRecord> ranks) {
  std::sort(ranks.begin(), ranks.end(),
            [](const RankRecord& a, const RankRecord& b) { return a.rank < b.rank; });
  for (std::size_t i = 0; i < ranks.size(); ++i)
    if (ranks[i].rank != static_cast<int>(i))
      throw Error("the gathered results hold rank " + std::to_string(ranks[i].rank) +
                  " where rank " + std::to_string(i) + " was expected");
  FleetFile fleet;
  fleet.provenance = provenance;
  fleet.size = static_cast<int>(ranks.size());
  fleet.statistics = fleet_statistics(ranks);
  fleet.ranks = std::move(ranks);
  return fleet;
}

CeilingsFile fleet_summary(const FleetFile& fleet) {
  CeilingsFile out;
  out.provenance = fleet.provenance;
  for (const RankRecord& k : fleet.ranks)
    if (k.file) {
      out.machine = k.file->machine;
      break;
    }
  out.machine.hostname = hosts_summary(fleet);
  for (const FleetStatistic& s : fleet.statistics) {
    Ceiling c;
    c.name = s.name;
    c.kind = s.kind;
    c.units = s.units;
    c.value = c.median = s.median;
    c.min = s.min;
    c.max = s.max;
    c.samples = s.ranks;
    std::vector<double> theoretical;
    for (const RankRecord& k : fleet.ranks) {
      const Ceiling* r = k.file ? k.file->find(s.name) : nullptr;
      if (!r || !r->measured()) continue;
      if (c.pattern.empty()) {  // how the first rank measured it
        c.pattern = r->pattern;
        c.working_set_bytes = r->working_set_bytes;
        c.flops_per_element = r->flops_per_element;
        c.theoretical_basis = r->theoretical_basis;
      }
      if (r->theoretical) theoretical.push_back(*r->theoretical);
    }
    // A peak for the fleet only where every rank knows its own.
    if (static_cast<int>(theoretical.size()) == s.ranks && !theoretical.empty())
      c.theoretical = summarize(theoretical).median;
    c.note = "fleet: median of " + std::to_string(s.ranks) +
             " ranks' values; min and max "
             "across the ranks";
    out.ceilings.push_back(c);
  }
  return out;
}

FleetReview review(const FleetFile& fleet, double threshold) {
  if (!(threshold >= 0.0 && threshold <= 1.0))
    throw Error("threshold " + core::format_number("%g", threshold) +
                ": must be a fraction of the fleet median in [0, 1], e.g. 0.05 for 5%");
  FleetReview out;
  out.threshold = threshold;
  for (const RankRecord& k : fleet.ranks) {
    if (!k.ok()) {
      RankRecord failed = k;
      failed.file.reset();
      out.failed.push_back(failed);
      continue;
    }
    for (const FleetStatistic& s : fleet.statistics) {
      const Ceiling* c = k.file->find(s.name);
      if (!c || !c->measured() || s.median <= 0.0) continue;
      if (c->value < s.median * (1.0 - threshold))
        out.slow.push_back({k.rank, k.label(), k.hostname, k.device, s.name, s.units, c->value,
                            s.median, c->value / s.median, c->min, c->max,
                            has_spread(*c) && c->max >= s.median});
    }
  }
  return out;
}

nlohmann::json to_json(const FleetFile& fleet, const FleetReview& rv, const std::string& label) {
  nlohmann::json ranks = nlohmann::json::array();
  for (const RankRecord& k : fleet.ranks)
    ranks.push_back({{"rank", k.rank},
                     {"hostname", k.hostname},
                     {"device", k.device},
                     {"cpus", k.cpus},
                     {"local_rank", k.local_rank},
                     {"local_size", k.local_size},
                     {"status", k.status},
                     {"reason", k.ok() ? nlohmann::json(nullptr) : nlohmann::json(k.reason)},
                     {"seconds", k.seconds},
                     {"machine", k.file ? nlohmann::json(machine_name(k.file->machine))
                                        : nlohmann::json(nullptr)}});
  nlohmann::json statistics = nlohmann::json::array();
  for (const FleetStatistic& s : fleet.statistics)
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
  for (const SlowRank& s : rv.slow)
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
  for (const RankRecord& k : rv.failed)
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

std::string format_table(const FleetFile& fleet) {
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
  for (const RankRecord& k : fleet.ranks) {
    const std::string local = std::to_string(k.local_rank) + "/" + std::to_string(k.local_size);
    const std::string what = k.file ? machine_name(k.file->machine) : k.reason;
    std::snprintf(line, sizeof line, "%5d  %-20s %7s  %-14s %-7s %8.1f  %s", k.rank,
                  k.hostname.c_str(), local.c_str(), k.device.c_str(), k.status.c_str(), k.seconds,
                  what.substr(0, 200).c_str());
    out << trimmed(line);
  }
  out << "\n";
  std::snprintf(line, sizeof line, "%-11s %-8s %10s %10s %10s %7s %5s  %-7s %s", "ceiling", "units",
                "median", "min", "max", "spread", "ranks", "min at", "max at");
  out << trimmed(line);
  for (const FleetStatistic& s : fleet.statistics) {
    std::snprintf(line, sizeof line, "%-11s %-8s %10.1f %10.1f %10.1f %7s %5d  %-7s %s",
                  s.name.c_str(), s.units.c_str(), s.median, s.min, s.max,
                  percent(s.spread).c_str(), s.ranks,
                  ("rank " + std::to_string(s.min_rank)).c_str(),
                  ("rank " + std::to_string(s.max_rank)).c_str());
    out << trimmed(line);
  }
  if (fleet.statistics.empty()) out << "(no rank measured any ceiling)\n";
  out << "spread: (max - min) / median across the ranks\n";
  return out.str();
}

std::string format_review(const FleetReview& rv) {
  std::ostringstream out;
  const std::string threshold = percent(rv.threshold);
  std::set<int> slow_ranks;
  if (!rv.slow.empty()) {
    out << "slow: more than " << threshold << " below the fleet median\n";
    int last = -1;
    for (const SlowRank& s : rv.slow) {
      if (s.rank != last) out << "  " << s.label << "\n";
      last = s.rank;
      slow_ranks.insert(s.rank);
      char line[256];
      std::snprintf(line, sizeof line, "    %-11s %10.1f %-8s %.3f of the fleet median %.1f%s\n",
                    s.ceiling.c_str(), s.value, s.units.c_str(), s.ratio, s.fleet_median,
                    s.within_own_spread ? " (noisy: its own samples reach the median)" : "");
      out << line;
    }
  }
  if (!rv.failed.empty()) {
    out << "failed:\n";
    for (const RankRecord& k : rv.failed) out << "  " << k.label() << ": " << k.reason << "\n";
  }
  if (!rv.anything_found())
    out << "no rank is more than " << threshold
        << " below the fleet median of any ceiling, and none failed\n";
  else
    out << slow_ranks.size() << (slow_ranks.size() == 1 ? " rank" : " ranks") << " slow, "
        << rv.failed.size() << " failed\n";
  return out.str();
}

}  // namespace rooftop::ceilings
