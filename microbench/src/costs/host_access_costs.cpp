// The access-pattern costs on the host (access_costs.hpp): strides against cache lines,
// a matrix along its rows or down its columns, and DRAM reads against threads. One
// launch per sample, each item sweeping its chunk `reps` times (bandwidth.cpp's shape).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <string>

#include "costs/access_kernels.hpp"
#include "rooftop/ceilings/extract.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/microbench/costs/access_costs.hpp"
#include "rooftop/microbench/sweep.hpp"

namespace rooftop::microbench {
namespace {

using namespace access;
using Index = Kokkos::IndexType<std::int64_t>;
using Word = std::uint64_t;

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;
// Every stride of the sweep divides a chunk into whole steps of the accumulators.
constexpr std::int64_t kChunkQuantum = kHostAccumulators * 32;

template <class Space>
Kokkos::View<Word*, typename Space::memory_space> index_words(std::int64_t n) {
  Kokkos::View<Word*, typename Space::memory_space> w(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rooftop::access_words")), n);
  // First touch by the threads that read them (each its own chunk): pages land near them.
  Kokkos::parallel_for(
      "rooftop::access_fill", Kokkos::RangePolicy<Space, Index>(0, n),
      KOKKOS_LAMBDA(const std::int64_t e) { w(e) = static_cast<Word>(e); });
  Space().fence();
  return w;
}

// `items` items, each reading every stride-th word of its own chunk of the footprint.
template <class Space>
core::SweepPoint measure_stride(const std::string& sweep, double x, const Word* words,
                                std::int64_t footprint, std::int64_t items, std::int64_t stride,
                                const core::Sampling& sampling) {
  using Memory = typename Space::memory_space;
  using Kernel = HostStrideKernel<Space>;
  Kernel k;
  k.chunk = items > 0 ? footprint / items / kChunkQuantum * kChunkQuantum : 0;
  if (k.chunk <= 0 || stride <= 0 || kChunkQuantum % (kHostAccumulators * stride) != 0)
    throw Error(sweep + ": no whole chunk of " + std::to_string(footprint) + " words for " +
                std::to_string(items) + " items at stride " + std::to_string(stride));
  k.stride = stride;
  k.words = Kokkos::View<const Word*, Memory>(words, k.chunk * items);
  k.sums = Kokkos::View<Word*, Memory>("rooftop::access_stride_sums", items);
  const std::string label = "rooftop::host_access_stride<" + sweep + ">";
  const core::SampleSet s = core::sample(sampling, 1, [&](std::int64_t reps) {
    k.reps = reps;
    Kokkos::parallel_for(label, Kokkos::RangePolicy<Space, Index>(0, items), k);
    Space().fence();
  });
  auto sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.sums);
  for (std::int64_t i = 0; i < items; ++i) {
    const Word want = Kernel::expected(i, k.chunk, stride, s.reps);
    if (sums(i) != want) fail(label, i, static_cast<double>(sums(i)), static_cast<double>(want));
  }
  return core::rate_point(sweep, x, static_cast<double>(items * (k.chunk / stride)) * sizeof(Word), s);
}

template <class Space, bool kColumns>
core::SweepPoint measure_matrix(const Word* words, std::int64_t side,
                                const core::Sampling& sampling) {
  using Memory = typename Space::memory_space;
  using Kernel = HostMatrixKernel<Space, kColumns>;
  const std::string sweep = kColumns ? "columns:dram" : "rows:dram";
  Kernel k;
  k.side = side;
  k.items = std::min<std::int64_t>(side, Space().concurrency());  // one block per thread
  k.words = Kokkos::View<const Word*, Memory>(words, side * side);
  k.sums = Kokkos::View<Word*, Memory>("rooftop::access_matrix_sums", k.items);
  const std::string label = "rooftop::host_access_matrix<" + sweep + ">";
  const core::SampleSet s = core::sample(sampling, 1, [&](std::int64_t reps) {
    k.reps = reps;
    Kokkos::parallel_for(label, Kokkos::RangePolicy<Space, Index>(0, k.items), k);
    Space().fence();
  });
  auto sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), k.sums);
  for (std::int64_t i = 0; i < k.items; ++i) {
    const Word want = Kernel::expected(i, side, k.items, s.reps);
    if (sums(i) != want) fail(label, i, static_cast<double>(sums(i)), static_cast<double>(want));
  }
  return core::rate_point(sweep, static_cast<double>(side),
                     static_cast<double>(side * side) * sizeof(Word), s);
}

}  // namespace

HostAccessPlan make_host_access_plan(const core::Machine& m, bool quick) {
  HostAccessPlan plan;
  plan.sampling.samples = 3;
  plan.sampling.min_sample_seconds = quick ? 0.01 : 0.02;
  plan.strides = quick ? std::vector<int>{1, 8, 32} : std::vector<int>{1, 2, 4, 8, 16, 32};
  const auto windows = ceilings::level_windows(m);
  // L2: the middle of its window (sweep.cpp's point), for all threads together.
  plan.l2_bytes = 256 * KiB * static_cast<std::uint64_t>(std::max(1, m.threads));
  for (const auto& w : windows)
    if (w.name == "l2")
      plan.l2_bytes = static_cast<std::uint64_t>(
          std::sqrt(static_cast<double>(std::max<std::uint64_t>(w.lo, 4 * KiB)) *
                    static_cast<double>(w.hi)));
  // DRAM: the smallest working set that counts as DRAM (128 MiB where unknown); the
  // matrix at least half of it, far beyond the last cache still: its columns cross a
  // page per word, and a larger one would take seconds. --quick: half its DRAM bound.
  std::uint64_t dram_lo = windows.empty() || windows.back().lo == 0 ? 128 * MiB
                                                                    : windows.back().lo;
  if (quick) dram_lo = std::min(dram_lo, kQuickDramBytes / 2);
  plan.dram_bytes = dram_lo;
  std::int64_t side = 64;
  while (static_cast<std::uint64_t>(side * side) * sizeof(Word) < dram_lo / 2) side *= 2;
  plan.sides = {side};
  const int threads = std::max(1, m.threads);
  for (int t = 1; t < threads; t *= 2) plan.thread_counts.push_back(t);
  plan.thread_counts.push_back(threads);
  return plan;
}

template <class Space>
std::vector<core::SweepPoint> run_host_access_costs(const HostAccessPlan& plan,
                                                    const Progress& progress) {
  std::vector<core::SweepPoint> out;
  const std::size_t total =
      2 * plan.strides.size() + 2 * plan.sides.size() + plan.thread_counts.size();
  std::size_t done = 0;
  const auto tick = [&](const std::string& what) {
    if (progress) progress(done, total, what);
    ++done;
  };
  // One buffer for every sweep: the L2 footprint is its first words, a matrix its first
  // side x side.
  std::int64_t words = static_cast<std::int64_t>(plan.dram_bytes / sizeof(Word));
  for (std::int64_t side : plan.sides) words = std::max(words, side * side);
  const auto buffer = index_words<Space>(words);
  const Word* const data = buffer.data();
  const std::int64_t threads = Space().concurrency();

  for (const char* level : {"l2", "dram"}) {
    const std::string name = std::string("stride:") + level;
    const std::int64_t footprint =
        name == "stride:l2"
            ? std::min<std::int64_t>(words, static_cast<std::int64_t>(plan.l2_bytes / sizeof(Word)))
            : words;
    for (int stride : plan.strides) {
      tick(name + " " + std::to_string(stride));
      out.push_back(measure_stride<Space>(name, stride, data, footprint, threads, stride,
                                          plan.sampling));
    }
  }
  for (std::int64_t side : plan.sides) {
    tick("rows:dram " + std::to_string(side));
    out.push_back(measure_matrix<Space, false>(data, side, plan.sampling));
    tick("columns:dram " + std::to_string(side));
    out.push_back(measure_matrix<Space, true>(data, side, plan.sampling));
  }
  // One item per thread (a static schedule gives each of the first t threads one chunk).
  for (int t : plan.thread_counts) {
    tick("threads:dram " + std::to_string(t));
    out.push_back(measure_stride<Space>("threads:dram", t, data, words, t, 1, plan.sampling));
  }
  if (progress) progress(total, total, "done");
  return out;
}

template std::vector<core::SweepPoint> run_host_access_costs<Kokkos::DefaultHostExecutionSpace>(
    const HostAccessPlan&, const Progress&);

}  // namespace rooftop::microbench
