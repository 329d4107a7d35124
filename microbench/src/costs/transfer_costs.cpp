// Copies between host and device memory, swept by size: pinned and pageable host
// memory in both directions, and device to device.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <type_traits>

#include "costs/cost_checks.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/microbench/costs/transfer_costs.hpp"

namespace rooftop::microbench {
namespace {

using namespace costs;

constexpr std::uint64_t kSmallestCopy = 4096;

// Page-locked host memory where the space is a GPU; plain host memory under the host
// space (the tests), where "pinned" and "pageable" are the same memory.
template <class Space>
struct HostMemories {
  using Pinned = Kokkos::HostSpace;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct HostMemories<Kokkos::Cuda> {
  using Pinned = Kokkos::CudaHostPinnedSpace;
};
#endif

// The source's words before one point's samples: never zero, and different for every
// point, so a copy that did not happen cannot pass for one that did.
KOKKOS_INLINE_FUNCTION Word pattern(std::int64_t i, std::uint64_t stamp) {
  return ((static_cast<Word>(i) * 0x9E3779B97F4A7C15ull) ^ (stamp << 40)) | 1u;
}

template <class Memory>
using Buffer = Kokkos::View<Word*, Memory>;
template <class Memory>
using Span = Kokkos::View<Word*, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <class Memory>
Buffer<Memory> allocate(const char* name, std::uint64_t bytes) {
  return Buffer<Memory>(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)),
                        static_cast<std::size_t>(bytes / sizeof(Word)));
}

template <class Space, class Memory>
void fill(const Buffer<Memory>& v, std::int64_t n, std::uint64_t stamp) {
  using Exec = Toucher<Space, Memory>;
  Kokkos::parallel_for(
      "rooftop::transfer_fill", Kokkos::RangePolicy<Exec, Index>(0, n),
      KOKKOS_LAMBDA(const std::int64_t i) { v(i) = pattern(i, stamp); });
  Exec().fence();
}

// One size: the source written, one copy untimed, copies timed on one instance of the
// space (fenced after the sample's repetitions), the destination checked.
template <class Space, class Dst, class Src>
core::SweepPoint copy_point(const std::string& sweep, const Buffer<Dst>& dst,
                            const Buffer<Src>& src, std::uint64_t bytes, std::uint64_t stamp,
                            const core::Sampling& sampling) {
  const auto n = static_cast<std::int64_t>(bytes / sizeof(Word));
  fill<Space>(src, n, stamp);
  const Span<Dst> to(dst.data(), static_cast<std::size_t>(n));
  const Span<Src> from(src.data(), static_cast<std::size_t>(n));
  const Space exec;
  // One copy untimed: the first into a buffer faults its pages in (host memory), and the
  // driver sets up its staging for pageable copies; the sampling loop would keep a
  // lone long first copy as a sample.
  Kokkos::deep_copy(exec, to, from);
  exec.fence();
  const core::SampleSet s = core::sample(sampling, 1, [&](std::int64_t reps) {
    for (std::int64_t r = 0; r < reps; ++r) Kokkos::deep_copy(exec, to, from);
    exec.fence();
  });
  check_words<Space>(dst, n, "rooftop::" + sweep,
                     [stamp](std::int64_t i) { return pattern(i, stamp); });
  const double b = static_cast<double>(bytes);
  return core::sweep_point(sweep, b, s, [b](double t) { return b / t * 1e-9; });
}

// "4 KiB", "256 MiB", "1 GiB" (the plan's sizes are powers of two). Not
// ceilings::format_bytes: its header brings JSON into a file nvcc compiles.
std::string size_label(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (bytes >= 1024 && bytes % 1024 == 0 && u < 3) {
    bytes /= 1024;
    ++u;
  }
  return std::to_string(bytes) + " " + units[u];
}

}  // namespace

TransferPlan make_transfer_plan(std::uint64_t device_free, std::uint64_t host_available,
                                bool quick) {
  TransferPlan plan;
  const std::uint64_t step = quick ? 16 : 4;
  std::uint64_t top = quick ? kTransferTopBytes / 4 : kTransferTopBytes;
  // Two device buffers of the largest copy (d2d), a pinned and a pageable one on the
  // host: a quarter of either memory leaves room for everything else.
  const auto bound = [&](std::uint64_t available, const char* what) {
    if (available == 0 || top <= available / 4) return;
    while (top > kSmallestCopy && top > available / 4) top /= step;
    char buf[160];
    std::snprintf(buf, sizeof buf, "copies above %s left out: a quarter of the %s (%.1f GiB)",
                  size_label(top).c_str(), what, static_cast<double>(available) / (1u << 30));
    plan.top_note = buf;
  };
  bound(device_free, "free device memory");
  bound(host_available, "host memory available");
  for (std::uint64_t bytes = kSmallestCopy; bytes <= top; bytes *= step) plan.sizes.push_back(bytes);
  plan.sampling.samples = 3;
  plan.sampling.min_sample_seconds = quick ? 0.004 : 0.01;
  // The largest pageable copies last a tenth of a second or more: two samples then.
  plan.sampling.budget_seconds = quick ? 0.2 : 0.5;
  plan.sweep_seconds = quick ? 0.6 : 2.0;
  return plan;
}

std::uint64_t host_available_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string key;
    std::uint64_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

template <class Space>
std::vector<core::SweepPoint> run_transfer_costs(const TransferPlan& plan,
                                                 const core::Progress& progress,
                                                 std::vector<std::string>* skipped) {
  using Device = typename Space::memory_space;
  using Pinned = typename HostMemories<Space>::Pinned;
  using Pageable = Kokkos::HostSpace;
  std::vector<core::SweepPoint> out;
  const auto note = [&](const std::string& line) {
    if (!skipped) throw Error(line);
    skipped->push_back(line);
  };
  // A smaller top is a note, not a failure: it never throws.
  if (!plan.top_note.empty() && skipped) skipped->push_back("transfers: " + plan.top_note);
  std::vector<std::uint64_t> sizes = plan.sizes;
  if (sizes.empty()) return out;

  // The largest copy that fits: two device buffers and a pageable one of it.
  Buffer<Device> a, b;
  Buffer<Pageable> pageable;
  for (;;) {
    try {
      a = allocate<Device>("rooftop::transfer_device_a", sizes.back());
      b = allocate<Device>("rooftop::transfer_device_b", sizes.back());
      pageable = allocate<Pageable>("rooftop::transfer_pageable", sizes.back());
      break;
    } catch (const std::exception& e) {
      a = {};
      b = {};
      pageable = {};
      const std::uint64_t failed = sizes.back();
      sizes.pop_back();
      if (sizes.empty()) {
        note("transfers: no buffers of " + size_label(failed) + " (" + e.what() + ")");
        return out;
      }
      note("transfers: copies above " + size_label(sizes.back()) + " left out: three buffers of " +
           size_label(failed) + " could not be allocated (" + e.what() + ")");
    }
  }
  Buffer<Pinned> pinned;
  std::string pinned_failure;
  try {
    pinned = allocate<Pinned>("rooftop::transfer_pinned", sizes.back());
  } catch (const std::exception& e) {
    pinned_failure = std::string("pinned host memory of ") + size_label(sizes.back()) +
                     " could not be allocated (" + e.what() + ")";
  }

  std::uint64_t stamp = 0;
  const char* sweeps[] = {"h2d:pinned", "h2d:pageable", "d2h:pinned", "d2h:pageable", "d2d"};
  const std::size_t total = std::size(sweeps);
  for (std::size_t k = 0; k < total; ++k) {
    const std::string sweep = sweeps[k];
    if (progress) progress(k, total, "transfers " + sweep);
    const bool uses_pinned = sweep.find(":pinned") != std::string::npos;
    if (uses_pinned && !pinned_failure.empty()) {
      note(sweep + ": " + pinned_failure);
      continue;
    }
    try {
      const auto start = std::chrono::steady_clock::now();
      for (std::size_t i = 0; i < sizes.size(); ++i) {
        const std::uint64_t bytes = sizes[i];
        ++stamp;
        if (sweep == "h2d:pinned")
          out.push_back(copy_point<Space>(sweep, a, pinned, bytes, stamp, plan.sampling));
        else if (sweep == "h2d:pageable")
          out.push_back(copy_point<Space>(sweep, a, pageable, bytes, stamp, plan.sampling));
        else if (sweep == "d2h:pinned")
          out.push_back(copy_point<Space>(sweep, pinned, a, bytes, stamp, plan.sampling));
        else if (sweep == "d2h:pageable")
          out.push_back(copy_point<Space>(sweep, pageable, a, bytes, stamp, plan.sampling));
        else
          out.push_back(copy_point<Space>(sweep, b, a, bytes, stamp, plan.sampling));
        const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start;
        if (i + 1 < sizes.size() && spent.count() > plan.sweep_seconds) {
          char line[160];
          std::snprintf(line, sizeof line, ": copies of %s and more left out: %.1f s spent",
                        size_label(sizes[i + 1]).c_str(), spent.count());
          if (skipped) skipped->push_back(sweep + line);
          break;
        }
      }
    } catch (const Interrupted&) {
      throw;
    } catch (const std::exception& e) {
      // The sizes measured before stay: each was checked.
      note(sweep + ": " + e.what());
    }
  }
  if (progress) progress(total, total, "");
  return out;
}

template std::vector<core::SweepPoint> run_transfer_costs<Kokkos::DefaultHostExecutionSpace>(
    const TransferPlan&, const core::Progress&, std::vector<std::string>*);
#if defined(KOKKOS_ENABLE_CUDA)
template std::vector<core::SweepPoint> run_transfer_costs<Kokkos::Cuda>(
    const TransferPlan&, const core::Progress&, std::vector<std::string>*);
#endif

}  // namespace rooftop::microbench
