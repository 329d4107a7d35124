#include "rooftop/ceilings/extract.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

#include "rooftop/ceilings/device_peaks.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/core/vocabulary.hpp"

namespace rooftop::ceilings {
namespace {

// Margins keep a window clear of the transition between levels: a working set must
// be at most half the level's capacity (room for code, stack, other arrays) and at
// least twice the capacity of the level below (so that level cannot hold it).
constexpr double kFitFraction = 0.5;
constexpr double kSpillFactor = 2.0;
// DRAM needs the working set far beyond the last-level cache: on a virtual machine the
// host's caches can be larger than the guest is told (seen: a read-modify-write at 4x
// the guest's L3 still ran 1.5x faster than at 8x).
constexpr double kDramFactor = 8.0;

void note(std::vector<std::string>* skipped, const std::string& why) {
  if (skipped) skipped->push_back(why);
}

// Arrays read and written per element by each access pattern of the sweep.
std::pair<int, int> loads_and_stores(const std::string& pattern) {
  const core::Pattern* p = core::find_pattern(pattern);
  return p ? std::pair{p->loads, p->stores} : std::pair{0, 0};
}

// Index of the point with the highest median rate among those `accept` takes.
template <class Point, class Accept>
std::optional<std::size_t> best_point(const std::vector<Point>& points, Accept accept) {
  std::optional<std::size_t> best;
  double best_median = 0.0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    if (p.values.empty() || !accept(p)) continue;
    const double median = core::summarize(p.values).median;
    if (!best || median > best_median) {
      best = i;
      best_median = median;
    }
  }
  return best;
}

// A ceiling is the sustained (median) rate of its best point, with that point's spread.
template <class Point>
core::Ceiling ceiling_from(const std::string& name, const char* kind, const char* units,
                           const Point& p) {
  const core::Summary s = core::summarize(p.values);
  core::Ceiling c;
  c.name = name;
  c.kind = kind;
  c.units = units;
  c.value = c.median = s.median;
  c.min = s.min;
  c.max = s.max;
  c.samples = s.count;
  c.working_set_bytes = p.working_set_bytes;
  c.disturbance = disturbance_of(p);
  return c;
}

}  // namespace

template <class Point>
std::optional<double> disturbance_of(const Point& p) {
  if (p.disturbance.empty() || p.disturbance.size() != p.seconds.size()) return std::nullopt;
  return core::median_disturbance(p.disturbance);
}
template std::optional<double> disturbance_of(const core::ComputePoint&);
template std::optional<double> disturbance_of(const core::BandwidthPoint&);

std::uint64_t capacity_for_threads(const core::CacheLevel& level, int threads,
                                   int hardware_threads) {
  const int shared_by = std::max(1, level.shared_by);
  threads = std::max(1, threads);
  int instances = (threads + shared_by - 1) / shared_by;
  if (hardware_threads > 0)
    instances = std::min(threads, std::max(1, hardware_threads / shared_by));
  return level.bytes * static_cast<std::uint64_t>(std::max(1, instances));
}

std::vector<LevelWindow> level_windows(const core::Machine& machine,
                                       std::vector<std::string>* skipped) {
  std::vector<LevelWindow> windows;
  std::uint64_t below = 0;  // capacity of the level below, for all threads
  for (const core::CacheLevel& level : machine.caches) {
    LevelWindow w;
    w.name = level.name;
    w.capacity = capacity_for_threads(level, machine.threads, machine.hardware_threads);
    w.lo = static_cast<std::uint64_t>(kSpillFactor * static_cast<double>(below));
    w.hi = static_cast<std::uint64_t>(kFitFraction * static_cast<double>(w.capacity));
    if (w.lo >= w.hi) {
      note(skipped, level.name + ": no working set fits it but not the level below");
    } else {
      windows.push_back(w);
    }
    below = std::max(below, w.capacity);
  }
  LevelWindow dram;
  dram.name = "dram";
  dram.lo = static_cast<std::uint64_t>(kDramFactor * static_cast<double>(below));
  windows.push_back(dram);
  return windows;
}

namespace {

struct PeakClock {
  double ghz = 0.0;
  const char* basis = "";  // how it was chosen, for the theoretical basis
};

PeakClock peak_clock(const core::Machine& m, const std::vector<double>& sample_clocks) {
  if (sample_clocks.empty())
    return {m.clock_ghz, is_device(m) ? "the measured SM clock" : "the measured clock"};
  return {*std::max_element(sample_clocks.begin(), sample_clocks.end()),
          "the highest clock read around this ceiling's samples"};
}

}  // namespace

void attach_theoretical(const core::Machine& m, core::Ceiling& c,
                        const std::vector<double>& sample_clocks) {
  const PeakClock clock = peak_clock(m, sample_clocks);
  if (is_device(m)) return attach_device_theoretical(m, c, clock.ghz, clock.basis);
  c.theoretical.reset();
  c.theoretical_basis.clear();
  if (clock.ghz <= 0.0 || m.cores <= 0 || m.simd_bits <= 0) return;
  char buf[512];
  if (c.kind == "compute" && m.fma_pipes > 0) {
    const core::Precision* precision = core::find_precision(c.name.substr(0, c.name.find('_')));
    const int bits = 8 * (precision ? precision->bytes : 4);
    const int lanes = m.simd_bits / bits;
    const bool fma = c.name.find("nofma") == std::string::npos;
    // With FMA every pipe retires 2 FLOPs per lane per cycle. Without it, a 1:1 mix
    // of multiplies and adds: multiplies need FMA-capable pipes, adds can use either.
    const double ops_per_cycle =
        fma ? 2.0 * m.fma_pipes
            : 2.0 * std::min<double>(m.fma_pipes, 0.5 * (m.fma_pipes + m.add_pipes));
    c.theoretical = m.cores * lanes * ops_per_cycle * clock.ghz;
    std::snprintf(buf, sizeof buf,
                  "%d cores x %d lanes x %g FLOP/cycle/lane (%d FMA + %d add pipes%s) x "
                  "%.3f GHz (%s)",
                  m.cores, lanes, ops_per_cycle, m.fma_pipes, m.add_pipes,
                  fma ? "" : ", 1:1 mul:add", clock.ghz, clock.basis);
    c.theoretical_basis = buf;
  } else if (c.kind == "bandwidth" && c.name == "l1" && m.load_ports > 0 &&
             m.store_bytes_per_cycle > 0) {
    // L1: an element of the pattern needs its loads on the load ports and its stores
    // on the store port; the busier of the two sets the pace.
    const auto [loads, stores] = loads_and_stores(c.pattern);
    const double load_bytes = m.load_ports * (m.simd_bits / 8.0);
    const double cycles = std::max(8.0 * loads / load_bytes, 8.0 * stores / m.store_bytes_per_cycle);
    if (cycles <= 0.0) return;
    const double bytes_per_cycle = 8.0 * (loads + stores) / cycles;
    c.theoretical = m.cores * bytes_per_cycle * clock.ghz;
    std::snprintf(buf, sizeof buf,
                  "%d cores x %.0f B/cycle (%s: %d load + %d store streams; %g B/cycle loads, "
                  "%g B/cycle stores) x %.3f GHz (%s)",
                  m.cores, bytes_per_cycle, c.pattern.c_str(), loads, stores, load_bytes,
                  m.store_bytes_per_cycle, clock.ghz, clock.basis);
    c.theoretical_basis = buf;
  }
}

namespace {

// The last-level cache's capacity for all threads, which the DRAM window starts at
// kDramFactor times (level_windows).
double last_level_bytes(const LevelWindow& dram) {
  return static_cast<double>(dram.lo) / kDramFactor;
}

// A sweep whose working sets stop short of the DRAM window (`measure --quick` bounds them):
// the best point at its largest working set, where that is still twice the last-level
// cache, so that the level below cannot hold it.
std::optional<std::size_t> short_dram_point(const LevelWindow& dram, const core::Sweeps& sweeps) {
  std::uint64_t largest = 0;
  for (const core::BandwidthPoint& p : sweeps.bandwidth)
    largest = std::max(largest, p.working_set_bytes);
  if (static_cast<double>(largest) < kSpillFactor * last_level_bytes(dram)) return std::nullopt;
  return best_point(sweeps.bandwidth, [&](const core::BandwidthPoint& p) {
    return p.working_set_bytes == largest;
  });
}

std::string short_dram_note(const LevelWindow& dram, const core::BandwidthPoint& p) {
  const double mib = 1024.0 * 1024.0;
  const double last_level = last_level_bytes(dram);
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "working sets bounded at %.0f MiB, %.1fx the last-level cache's %.0f MiB, short "
                "of the %.0f MiB (%gx) a full measure starts DRAM at: cache hits may raise it",
                static_cast<double>(p.working_set_bytes) / mib,
                static_cast<double>(p.working_set_bytes) / last_level, last_level / mib,
                static_cast<double>(dram.lo) / mib, kDramFactor);
  return buf;
}

}  // namespace

std::vector<CeilingSource> ceiling_sources(const core::Machine& machine, const core::Sweeps& sweeps,
                                           std::vector<std::string>* skipped) {
  std::vector<CeilingSource> out;
  // Compute: the best sustained point of each precision and mode, at any ILP.
  for (const core::Precision& precision : core::kPrecisions) {
    if (!precision.ceilings) continue;
    for (const core::ComputeMode& mode : core::kComputeModes) {
      const std::string name = core::compute_ceiling_name(precision.name, mode.name);
      const auto best = best_point(sweeps.compute, [&](const core::ComputePoint& p) {
        return p.precision == precision.name && p.mode == mode.name;
      });
      if (best)
        out.push_back({name, true, *best, ""});
      else
        note(skipped, name + ": not measured");
    }
  }
  // A GPU's levels are named by the kernels that target them ("dram:triad"): per level,
  // its best sustained pattern.
  if (is_device(machine)) {
    for (const char* level : {"l1", "shared", "l2", "dram"}) {
      const auto best = best_point(sweeps.bandwidth, [&](const core::BandwidthPoint& p) {
        return split_device_pattern(p.pattern).first == level;
      });
      if (best)
        out.push_back({level, false, *best, ""});
      else
        note(skipped, std::string(level) + ": not measured");
    }
    return out;
  }
  // Bandwidth: per level, the best sustained point of any pattern inside the level's
  // window.
  for (const LevelWindow& w : level_windows(machine, skipped)) {
    const auto best = best_point(sweeps.bandwidth, [&](const core::BandwidthPoint& p) {
      return p.working_set_bytes >= w.lo && p.working_set_bytes <= w.hi;
    });
    const auto short_dram = w.name == "dram" && !best ? short_dram_point(w, sweeps) : std::nullopt;
    if (best) {
      out.push_back({w.name, false, *best, ""});
    } else if (short_dram) {
      out.push_back({w.name, false, *short_dram,
                     short_dram_note(w, sweeps.bandwidth[*short_dram])});
    } else {
      note(skipped, w.name + ": no sweep point inside its working-set window");
    }
  }
  return out;
}

namespace {

// Which of the chain counts measured for a compute ceiling made it: "ILP 12 of 8, 12,
// 16, 24". Empty where the points record no ILP (older files, imported values).
std::string ilp_note(const core::Sweeps& sweeps, const core::ComputePoint& best) {
  if (best.ilp <= 0) return "";
  std::vector<int> measured;
  for (const core::ComputePoint& p : sweeps.compute)
    if (p.precision == best.precision && p.mode == best.mode &&
        p.flops_per_element == best.flops_per_element && p.ilp > 0 &&
        std::find(measured.begin(), measured.end(), p.ilp) == measured.end())
      measured.push_back(p.ilp);
  std::sort(measured.begin(), measured.end());
  std::string s = "ILP " + std::to_string(best.ilp);
  if (measured.size() > 1) {
    s += " of";
    for (std::size_t i = 0; i < measured.size(); ++i)
      s += (i ? ", " : " ") + std::to_string(measured[i]);
  }
  return s;
}

}  // namespace

std::vector<core::Ceiling> extract_ceilings(const core::Machine& machine,
                                            const core::Sweeps& sweeps,
                                            std::vector<std::string>* skipped) {
  std::vector<core::Ceiling> out;
  for (const CeilingSource& source : ceiling_sources(machine, sweeps, skipped)) {
    core::Ceiling c;
    if (source.compute) {
      const core::ComputePoint& p = sweeps.compute[source.point];
      c = ceiling_from(source.name, "compute", "GFLOP/s", p);
      const core::ComputeMode* mode = core::find_compute_mode(p.mode);
      c.pattern = mode ? std::string(mode->pattern) : "";
      c.flops_per_element = p.flops_per_element;
      attach_theoretical(machine, c, p.clock_ghz);
      if (const std::string ilp = ilp_note(sweeps, p); !ilp.empty())
        c.note += (c.note.empty() ? "" : "; ") + ilp;
    } else {
      const core::BandwidthPoint& p = sweeps.bandwidth[source.point];
      c = ceiling_from(source.name, "bandwidth", "GB/s", p);
      c.pattern = split_device_pattern(p.pattern).second;
      attach_theoretical(machine, c, p.clock_ghz);
      if (!source.note.empty()) c.note += (c.note.empty() ? "" : "; ") + source.note;
    }
    if (c.above_theoretical())
      c.note = "ABOVE THEORETICAL PEAK: the measurement or the hardware model is wrong" +
               (c.note.empty() ? "" : "; " + c.note);
    out.push_back(c);
  }
  return out;
}

}  // namespace rooftop::ceilings
