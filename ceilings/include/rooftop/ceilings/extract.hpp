#pragma once
// From raw sweeps to named ceilings. Levels are named from the hardware's cache
// sizes, never by counting plateaus: each level owns a window of working-set sizes
// that fit in it (with margin) and no smaller level, and its ceiling is the best
// sustained pattern inside that window.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

struct LevelWindow {
  std::string name;          // "l1", "l2", "l3", "dram"
  std::uint64_t capacity = 0;  // bytes available to all threads of the run (0 for dram)
  std::uint64_t lo = 0;      // smallest working set (bytes, all threads) that counts
  std::uint64_t hi = std::numeric_limits<std::uint64_t>::max();  // largest
};

// Bytes of one cache level available to `threads` threads spread over the machine
// (OMP_PROC_BIND=spread: each thread lands on a distinct instance while there are
// free ones). `hardware_threads` bounds the instances that exist; 0 means unknown.
std::uint64_t capacity_for_threads(const core::CacheLevel& level, int threads,
                                   int hardware_threads = 0);

// Windows for every cache level and dram. A level whose window is empty (too close in
// size to the level below it) is left out and named in `skipped` with the reason.
std::vector<LevelWindow> level_windows(const core::Machine& machine,
                                       std::vector<std::string>* skipped = nullptr);

// Theoretical peaks where the hardware model knows enough (zero/empty otherwise), at the
// highest clock in `sample_clocks` (read around the samples of the point behind the
// ceiling: the peak is then an upper bound for every sample, at the clock the samples
// really ran at), or at the machine's clock where the point recorded none.
void attach_theoretical(const core::Machine& machine, core::Ceiling& ceiling,
                        const std::vector<double>& sample_clocks = {});

// Where a ceiling comes from: the sweep point with the highest median rate among those
// that may set it (its precision and mode, or its level's window).
struct CeilingSource {
  std::string name;       // "fp64_fma", ..., "l1", ..., "dram"
  bool compute = false;   // point indexes sweeps.compute, else sweeps.bandwidth
  std::size_t point = 0;
  std::string note;       // what the ceiling's note must say of its point (or empty)
};

// The source of every ceiling the sweeps support; reasons for missing ones go to
// `skipped`.
std::vector<CeilingSource> ceiling_sources(const core::Machine& machine, const core::Sweeps& sweeps,
                                           std::vector<std::string>* skipped = nullptr);

// Extract every ceiling the sweeps support (the median of each source point);
// reasons for missing ones go to `skipped`.
// The share of its time the point's median sample lost to others
// (core::Ceiling::disturbance); empty where its samples carry no disturbance.
template <class Point>
std::optional<double> disturbance_of(const Point& p);

std::vector<core::Ceiling> extract_ceilings(const core::Machine& machine,
                                            const core::Sweeps& sweeps,
                                            std::vector<std::string>* skipped = nullptr);

}  // namespace rooftop::ceilings
