#include "rooftop/ceilings/transfer_figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "rooftop/ceilings/fields.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "sweep_points.hpp"

namespace rooftop::ceilings {
namespace {

// Line rate and encoding of each PCIe generation: transfers per second per lane and the
// share of the bits that carry packets. 1.x and 2.0: 8b/10b; 3.0 to 5.0: 128b/130b
// (PCI Express Base Specification, the Physical Layer's encoding chapters); 6.0: PAM4
// FLIT mode, 256-byte flits of which 236 bytes are TLP payload (the rest data-link
// payload, CRC and FEC; PCI-SIG's PCIe 6.0 FLIT layout, as tabulated in Glenn
// Lockwood's "PCIe Gen6" notes), taken as the upper bound for packet bytes.
struct PcieGeneration {
  int generation;
  double gigatransfers;
  double efficiency;
  const char* version;
};
constexpr PcieGeneration kPcieGenerations[] = {
    {1, 2.5, 8.0 / 10.0, "1.0"},       {2, 5.0, 8.0 / 10.0, "2.0"},
    {3, 8.0, 128.0 / 130.0, "3.0"},    {4, 16.0, 128.0 / 130.0, "4.0"},
    {5, 32.0, 128.0 / 130.0, "5.0"},   {6, 64.0, 236.0 / 256.0, "6.0"},
};

const PcieGeneration* find_generation(int generation) {
  for (const PcieGeneration& g : kPcieGenerations)
    if (g.generation == generation) return &g;
  return nullptr;
}

std::string format(const char* fmt, double a, double b = 0.0, double c = 0.0, double d = 0.0) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, fmt, a, b, c, d);
  return buf;
}

using detail::best_point;
using detail::figure_from;
using detail::median_of;
using detail::points_of;

void skip(std::vector<std::string>* skipped, const std::string& why) {
  if (skipped) skipped->push_back(why);
}

}  // namespace

std::string link_name(const PcieLink& link) {
  if (link.interconnect != "PCIe") return link.interconnect;
  const PcieGeneration* g = find_generation(link.generation);
  if (!g || link.width <= 0) return "";
  return "PCIe " + std::string(g->version) + " x" + std::to_string(link.width);
}

std::optional<double> pcie_gbps(int generation, int width) {
  const PcieGeneration* g = find_generation(generation);
  if (!g || width <= 0) return std::nullopt;
  return g->gigatransfers * g->efficiency * width / 8.0;
}

std::optional<LatencyFit> fit_latency(const std::vector<double>& bytes,
                                      const std::vector<double>& seconds) {
  if (bytes.size() != seconds.size() || bytes.size() < 2) return std::nullopt;
  // Minimize sum ((a + b x_i - t_i) / t_i)^2: weighted least squares, weights 1 / t_i^2.
  double sw = 0, swx = 0, swxx = 0, swt = 0, swxt = 0;
  LatencyFit fit;
  fit.min_bytes = bytes.front();
  fit.max_bytes = bytes.front();
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const double x = bytes[i], t = seconds[i];
    if (!(t > 0.0) || !std::isfinite(t) || !(x >= 0.0)) return std::nullopt;
    const double w = 1.0 / (t * t);
    sw += w;
    swx += w * x;
    swxx += w * x * x;
    swt += w * t;
    swxt += w * x * t;
    fit.min_bytes = std::min(fit.min_bytes, x);
    fit.max_bytes = std::max(fit.max_bytes, x);
  }
  const double det = sw * swxx - swx * swx;
  if (fit.min_bytes == fit.max_bytes || !(det > 0.0)) return std::nullopt;
  const double slope = (sw * swxt - swx * swt) / det;  // seconds per byte
  fit.latency_s = (swxx * swt - swx * swxt) / det;
  if (!(slope > 0.0) || !(fit.latency_s > 0.0)) return std::nullopt;
  fit.bandwidth_gbps = 1e-9 / slope;
  fit.points = static_cast<int>(bytes.size());
  return fit;
}

std::optional<Breakeven> launch_breakeven(const std::vector<double>& items,
                                          const std::vector<double>& times, double factor) {
  if (items.size() != times.size() || items.size() < 2 || !(times.front() > 0.0))
    return std::nullopt;
  const double target = factor * times.front();
  for (std::size_t i = 1; i < items.size(); ++i) {
    if (times[i] < target) continue;
    if (!(items[i - 1] > 0.0) || !(items[i] > items[i - 1])) return std::nullopt;
    const double x0 = std::log(items[i - 1]), x1 = std::log(items[i]);
    const double t0 = times[i - 1], t1 = times[i];
    Breakeven b;
    // t0 < target <= t1 (the first size reaching it), so t1 > t0.
    b.items = std::exp(x0 + (x1 - x0) * (target - t0) / (t1 - t0));
    b.time = target;
    b.below = items[i - 1];
    b.above = items[i];
    return b;
  }
  return std::nullopt;
}

std::vector<core::Ceiling> transfer_figures(const std::vector<core::SweepPoint>& sweeps,
                                            const PcieLink& link,
                                            std::vector<std::string>* skipped) {
  std::vector<core::Ceiling> out;
  const std::string name = link_name(link);
  std::string link_note;
  if (link.interconnect != "PCIe") {
    link_note = "link: " + link.interconnect + " (no PCIe rate applies)";
  } else if (!name.empty()) {
    link_note = "link: " + name;
    if (link.current_generation > 0 &&
        (link.current_generation != link.generation || link.current_width != link.width)) {
      PcieLink now = link;
      now.generation = link.current_generation;
      now.width = link.current_width;
      const std::string current = link_name(now);
      link_note += " (" + (current.empty() ? "an unknown link" : current) +
                   " when read: an idle GPU slows its link down)";
    }
  } else {
    link_note = "link: unknown" + (link.why_unknown.empty() ? "" : " (" + link.why_unknown + ")");
  }

  // The bandwidths: the best median among the large copies.
  const struct {
    const char* figure;
    const char* sweep;
    bool pcie;
  } bandwidths[] = {{"h2d", "h2d:pinned", true}, {"d2h", "d2h:pinned", true}, {"d2d", "d2d", false}};
  for (const auto& b : bandwidths) {
    std::vector<const core::SweepPoint*> large = points_of(sweeps, b.sweep);
    std::erase_if(large, [](const core::SweepPoint* p) { return p->x < kLargeCopyBytes; });
    const core::SweepPoint* best = best_point(large);
    if (!best) {
      skip(skipped, std::string(b.figure) + ": no " + b.sweep + " copy of " +
                        format_bytes(kLargeCopyBytes) + " or more");
      continue;
    }
    core::Ceiling c = figure_from(b.figure, *best);
    c.working_set_bytes = static_cast<std::uint64_t>(best->x);
    c.note = "best median of the copies of " + format_bytes(kLargeCopyBytes) + " or more, at " +
             format_bytes(best->x) + " per copy";
    if (b.pcie) {
      c.note += "; " + link_note;
      const std::optional<double> rate = link.interconnect == "PCIe"
                                             ? pcie_gbps(link.generation, link.width)
                                             : std::nullopt;
      if (rate) {
        c.theoretical = *rate;
        c.theoretical_basis =
            name + ", one direction: transfer rate x lanes x line-encoding efficiency / 8 "
                   "(TLP headers not subtracted)";
      }
    }
    out.push_back(std::move(c));
  }

  // The latencies: the intercept of t = latency + bytes / bandwidth over the pinned sweep.
  for (const char* direction : {"h2d", "d2h"}) {
    const std::string sweep = std::string(direction) + ":pinned";
    const std::string figure = std::string(direction) + "_latency";
    const auto points = points_of(sweeps, sweep);
    std::vector<double> x, t;
    for (const core::SweepPoint* p : points) {
      x.push_back(p->x);
      t.push_back(p->x / (median_of(*p) * 1e9));
    }
    const std::optional<LatencyFit> fit = fit_latency(x, t);
    if (!fit) {
      skip(skipped, figure + ": " +
                        (points.size() < 2 ? "fewer than two " + sweep + " sizes"
                                           : "t = latency + bytes / bandwidth does not fit the " +
                                                 sweep + " sweep (no positive intercept)"));
      continue;
    }
    // The value (and median) is the fit's; min and max also span the smallest copy's
    // samples, each as the latency it gives at the fitted bandwidth.
    core::Ceiling c = figure_from(figure, *points.front());
    const double transfer_us = points.front()->x / (fit->bandwidth_gbps * 1e9) * 1e6;
    std::vector<double> per_sample;
    for (double v : points.front()->values)
      per_sample.push_back(std::max(points.front()->x / (v * 1e9) * 1e6 - transfer_us, 1e-9));
    const core::Summary s = core::summarize(per_sample);
    c.value = c.median = fit->latency_s * 1e6;
    c.min = std::min(s.min, c.value);
    c.max = std::max(s.max, c.value);
    c.working_set_bytes = static_cast<std::uint64_t>(points.front()->x);
    c.note = "intercept of t = latency + bytes / bandwidth fitted to the medians of " +
             std::to_string(fit->points) + " pinned copies of " + format_bytes(fit->min_bytes) +
             " to " + format_bytes(fit->max_bytes) +
             " (relative residuals); fitted bandwidth " + format("%.1f GB/s", fit->bandwidth_gbps) +
             "; min and max: the smallest copy's samples less its time at that bandwidth; " +
             link_note;
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(), [](const core::Ceiling& a, const core::Ceiling& b) {
    return core::figure_rank(a.name) < core::figure_rank(b.name);
  });
  return out;
}

std::vector<core::Ceiling> launch_figures(const std::vector<core::SweepPoint>& sweeps,
                                          const std::string& where,
                                          std::vector<std::string>* skipped) {
  std::vector<core::Ceiling> out;
  const auto sync = points_of(sweeps, "launch:sync");
  // The first point of each: the smallest kernel, and the fence with nothing outstanding.
  const struct {
    const char* figure;
    const char* sweep;
    const char* what;
  } firsts[] = {
      {"launch_latency", "launch:sync", "work item(s) of one 8-byte write, launched and fenced"},
      {"launch_interval", "launch",
       "work item(s) of one 8-byte write, launched back to back with one fence after them all"},
      {"fence", "fence", "kernels outstanding: a fence of the execution space instance alone"},
  };
  for (const auto& f : firsts) {
    const auto points = points_of(sweeps, f.sweep);
    if (points.empty()) {
      skip(skipped, std::string(f.figure) + ": no " + f.sweep + " point");
      continue;
    }
    core::Ceiling c = figure_from(f.figure, *points.front());
    c.note = format("%.0f ", points.front()->x) + f.what + ", per " +
             (std::string(f.sweep) == "fence" ? "fence" : "launch") + " (" + where + ")";
    out.push_back(std::move(c));
  }

  // The crossing of the points' medians, and of their fastest and slowest samples for
  // the spread.
  std::vector<double> items, times, fastest, slowest;
  int samples = 0;
  for (const core::SweepPoint* p : sync) {
    const core::Summary s = core::summarize(p->values);
    items.push_back(p->x);
    times.push_back(s.median);
    fastest.push_back(s.min);
    slowest.push_back(s.max);
    samples = samples == 0 ? s.count : std::min(samples, s.count);
  }
  if (const std::optional<Breakeven> b = launch_breakeven(items, times)) {
    // The size is what a user can act on: below it a kernel spends most of its time being
    // launched.
    core::Ceiling c = figure_from("launch_breakeven", *sync.front());
    c.value = c.median = c.min = c.max = 8.0 * b->items;
    for (const auto& bound : {launch_breakeven(items, fastest), launch_breakeven(items, slowest)}) {
      if (!bound) continue;
      c.min = std::min(c.min, 8.0 * bound->items);
      c.max = std::max(c.max, 8.0 * bound->items);
    }
    c.samples = samples;
    c.working_set_bytes = static_cast<std::uint64_t>(std::llround(8.0 * b->items));
    c.note = format("a kernel of about %.0f work items of one 8-byte write takes %.3g us from "
                    "launch to completion, twice the smallest kernel's: its own run time equals "
                    "its launch cost (interpolated in log items between %.0f and %.0f)",
                    b->items, b->time, b->below, b->above) +
             "; min and max: the same crossing of each size's fastest and slowest samples (" +
             where + ")";
    out.push_back(std::move(c));
  } else {
    skip(skipped, sync.size() < 2 ? "launch_breakeven: fewer than two launch:sync sizes"
                                  : "launch_breakeven: no launch:sync kernel took twice the "
                                    "smallest's time");
  }
  return out;
}

}  // namespace rooftop::ceilings
