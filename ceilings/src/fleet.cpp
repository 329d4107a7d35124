#include "rooftop/ceilings/fleet.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "rooftop/ceilings/compare.hpp"
#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/statistics.hpp"

namespace rooftop::ceilings {
namespace {

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
    for (const core::Ceiling& c : k.file->ceilings) {
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
      const core::Ceiling* c = k.file ? k.file->find(s.name) : nullptr;
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
    const core::Summary summary = core::summarize(values);
    s.ranks = summary.count;
    s.median = summary.median;
    s.spread = summary.spread;
  }
  return out;
}

FleetFile make_fleet(const core::Provenance& provenance, std::vector<RankRecord> ranks) {
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

core::CeilingsFile fleet_summary(const FleetFile& fleet) {
  core::CeilingsFile out;
  out.provenance = fleet.provenance;
  for (const RankRecord& k : fleet.ranks)
    if (k.file) {
      out.machine = k.file->machine;
      break;
    }
  out.machine.hostname = hosts_summary(fleet);
  for (const FleetStatistic& s : fleet.statistics) {
    core::Ceiling c;
    c.name = s.name;
    c.kind = s.kind;
    c.units = s.units;
    c.value = c.median = s.median;
    c.min = s.min;
    c.max = s.max;
    c.samples = s.ranks;
    std::vector<double> theoretical;
    for (const RankRecord& k : fleet.ranks) {
      const core::Ceiling* r = k.file ? k.file->find(s.name) : nullptr;
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
      c.theoretical = core::summarize(theoretical).median;
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
      const core::Ceiling* c = k.file->find(s.name);
      if (!c || !c->measured() || s.median <= 0.0) continue;
      if (c->value < s.median * (1.0 - threshold))
        out.slow.push_back({k.rank, k.label(), k.hostname, k.device, s.name, s.units, c->value,
                            s.median, c->value / s.median, c->min, c->max,
                            has_spread(*c) && c->max >= s.median});
    }
  }
  return out;
}

}  // namespace rooftop::ceilings
