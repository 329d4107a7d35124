// The access-pattern figures (access_figures.hpp).
#include "rooftop/ceilings/access_figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

#include "rooftop/core/format.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings {
namespace {

constexpr double kReachShare = 0.9;  // occupancy90 / threads90

std::string format_x(double x) { return core::format_number("%g", x); }

// The samples of one sweep at one x, pooled over the points that measured it.
struct Pooled {
  std::vector<double> values;
  std::vector<double> disturbance;
  core::Summary summary;
};

// x -> pooled samples of `sweep`, only where there are finite samples.
std::map<double, Pooled> pooled(const std::vector<core::SweepPoint>& points,
                                const std::string& sweep) {
  std::map<double, Pooled> out;
  for (const core::SweepPoint& p : points) {
    if (p.sweep != sweep || !std::isfinite(p.x)) continue;
    Pooled& q = out[p.x];
    for (double v : p.values)
      if (std::isfinite(v)) q.values.push_back(v);
    q.disturbance.insert(q.disturbance.end(), p.disturbance.begin(), p.disturbance.end());
  }
  for (auto it = out.begin(); it != out.end();) {
    if (it->second.values.empty()) {
      it = out.erase(it);
    } else {
      it->second.summary = core::summarize(it->second.values);
      ++it;
    }
  }
  return out;
}

std::optional<double> worst_disturbance(const Pooled& a, const Pooled& b) {
  if (a.disturbance.empty() && b.disturbance.empty()) return std::nullopt;
  return std::max(a.disturbance.empty() ? 0.0 : core::median_disturbance(a.disturbance),
                  b.disturbance.empty() ? 0.0 : core::median_disturbance(b.disturbance));
}

// over / under as a ratio figure; nothing when a point is missing or under is not positive.
std::optional<core::Ceiling> ratio(const char* name, const Pooled* over, const Pooled* under,
                                   const std::string& pattern, const std::string& note) {
  if (!over || !under || under->summary.min <= 0.0) return std::nullopt;
  core::Ceiling c = core::figure_row(name);
  c.value = c.median = over->summary.median / under->summary.median;
  c.min = over->summary.min / under->summary.max;
  c.max = over->summary.max / under->summary.min;
  c.samples = std::min(over->summary.count, under->summary.count);
  c.pattern = pattern;
  c.note = note;
  c.disturbance = worst_disturbance(*over, *under);
  return c;
}

const Pooled* at(const std::map<double, Pooled>& sweep, double x) {
  const auto it = sweep.find(x);
  return it == sweep.end() ? nullptr : &it->second;
}

std::optional<core::Ceiling> stride_ratio(const std::vector<core::SweepPoint>& points,
                                          const char* name, const std::string& sweep) {
  const auto s = pooled(points, sweep);
  return ratio(name, at(s, 32.0), at(s, 1.0), "stride 32 / stride 1",
               "median of " + sweep + " at stride 32 over its median at stride 1 (elements " +
                   "between neighbouring threads' addresses; rates in bytes the program reads)");
}

std::optional<core::Ceiling> columns_ratio(const std::vector<core::SweepPoint>& points) {
  const auto rows = pooled(points, "rows:dram");
  const auto columns = pooled(points, "columns:dram");
  for (auto it = columns.rbegin(); it != columns.rend(); ++it)
    if (const Pooled* r = at(rows, it->first)) {
      const std::string side = format_x(it->first);
      return ratio("columns_dram", &it->second, r, "columns / rows, side " + side,
                   "median of columns:dram over the median of rows:dram at side " + side +
                       ", the largest side both were measured at");
    }
  return std::nullopt;
}

std::optional<core::Ceiling> reach(const std::vector<core::SweepPoint>& points, const char* name,
                                   const std::string& sweep, const std::string& what) {
  const auto s = pooled(points, sweep);
  if (s.size() < 2) return std::nullopt;  // one point reaches its own best trivially
  double best = 0.0, best_x = 0.0;
  for (const auto& [x, q] : s)
    if (q.summary.median > best) best = q.summary.median, best_x = x;
  if (best <= 0.0) return std::nullopt;
  for (const auto& [x, q] : s) {
    if (q.summary.median < kReachShare * best) continue;
    core::Ceiling c = core::figure_row(name);
    c.value = c.median = c.min = c.max = x;
    c.samples = q.summary.count;
    c.pattern = "90% of the best rate";
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "fewest %s of %s (from %s to %s) whose median rate, %.4g, reaches 90%% of the "
                  "best median, %.4g at %s",
                  what.c_str(), sweep.c_str(), format_x(s.begin()->first).c_str(),
                  format_x(s.rbegin()->first).c_str(), q.summary.median, best,
                  format_x(best_x).c_str());
    c.note = buf;
    if (!q.disturbance.empty()) c.disturbance = core::median_disturbance(q.disturbance);
    return c;
  }
  return std::nullopt;
}

std::optional<core::Ceiling> divergence_ratio(const std::vector<core::SweepPoint>& points) {
  const auto s = pooled(points, "divergence:fp32");
  return ratio("divergence1_fp32", at(s, 1.0), at(s, 32.0), "1 lane / 32 lanes",
               "median FP32 FMA rate (useful FLOPs) with 1 active lane per warp over its median "
               "with all 32");
}

}  // namespace

std::vector<core::Ceiling> access_figures(const std::vector<core::SweepPoint>& points) {
  std::vector<std::optional<core::Ceiling>> all = {
      stride_ratio(points, "stride32_l2", "stride:l2"),
      stride_ratio(points, "stride32_dram", "stride:dram"),
      columns_ratio(points),
      reach(points, "occupancy90_dram", "occupancy:dram", "resident warps per SM"),
      reach(points, "threads90_dram", "threads:dram", "threads"),
      divergence_ratio(points),
  };
  std::vector<core::Ceiling> out;
  for (auto& c : all)
    if (c) out.push_back(std::move(*c));
  std::stable_sort(out.begin(), out.end(), [](const core::Ceiling& a, const core::Ceiling& b) {
    return core::figure_rank(a.name) < core::figure_rank(b.name);
  });
  return out;
}

}  // namespace rooftop::ceilings
