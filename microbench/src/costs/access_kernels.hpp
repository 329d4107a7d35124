#pragma once
// The access-pattern costs' kernels: coalescing (strided reads, a matrix read along its
// rows or down its columns), latency hiding (reads at a chosen residency) and warp
// divergence. Kokkos templates on the execution space like device/kernels.hpp: written
// for a GPU, run under the host space at tiny sizes by the tests; the Host* kernels are
// the host's own (each thread sweeps a contiguous chunk).
//
// Cost model (useful bytes: what the program reads; a sector or line fetched around a
// word nobody reads is not counted, which is the cost being measured):
//   StrideKernel        4 B per word, kStrideLoads words per item at `stride` words between
//                       neighbouring items; one pass reads words / stride of the footprint
//   MatrixKernel        4 B per word, kMatrixRun words per item along a row (neighbouring
//                       items `side` words apart) or down a column (neighbours adjacent)
//   OccupancyKernel     16 B per load, kOccupancyLoads loads in flight per thread, every
//                       pack of the buffer once per launch
//   DivergenceKernel    FLOPs per active item = kComputeChains x kComputeSteps x 2 x inner;
//                       an inactive item (lane >= active) does none
//   HostStrideKernel    8 B per word, every stride-th word of the item's chunk, `reps` times
//   HostMatrixKernel    8 B per word, side x side / items words per item along its rows or
//                       down its columns
// Each read kernel writes one 4- or 8-byte sum per item: under 1% of what it reads.
// Words hold their own index (mod 2^32 or 2^64), so every sum has a closed form.

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>

#include "device/kernels.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/model.hpp"
#include "rooftop/core/sampling.hpp"

namespace rooftop::microbench::access {

using device::Pack16;

// Scalar 4-byte loads through inline assembly (__ldcg, __ldg), which no compiler merges
// into wider ones: the strided reads must stay one word per thread per instruction.
// Cached in L2 only (ld.global.cg): with L1 the L2 sweep would see L1 hits.
KOKKOS_INLINE_FUNCTION std::uint32_t load_word_l2(const std::uint32_t* p) {
  KOKKOS_IF_ON_DEVICE((return __ldcg(p);))
  KOKKOS_IF_ON_HOST((return *p;))
}
// Through the read-only path (ld.global.nc): the matrix's rows may hit L1, as they do in
// the textbook's kernel.
KOKKOS_INLINE_FUNCTION std::uint32_t load_word(const std::uint32_t* p) {
  KOKKOS_IF_ON_DEVICE((return __ldg(p);))
  KOKKOS_IF_ON_HOST((return *p;))
}

// ---------------------------------------------------------------------------------------
// Coalescing, strided: item j of a pass reads the useful words u = (j / 256) x
// kStrideChunk + k x 256 + j % 256 (k < kStrideLoads) at word u x stride. Neighbouring
// items (lanes of a warp) are `stride` words apart at every load; one item's loads are
// 256 x stride words apart (no reuse within a thread). At stride 32, each 128-byte line
// gives one word. Items i >= items_per_pass run the next pass.
inline constexpr int kStrideUnroll = 16;  // independent loads in flight per thread
inline constexpr int kStrideGroups = 8;
inline constexpr int kStrideLoads = kStrideUnroll * kStrideGroups;
inline constexpr int kStrideItemsPerChunk = 256;
inline constexpr std::int64_t kStrideChunk = kStrideItemsPerChunk * kStrideLoads;

KOKKOS_INLINE_FUNCTION std::int64_t stride_useful(std::int64_t j, int k) {
  return (j / kStrideItemsPerChunk) * kStrideChunk + k * kStrideItemsPerChunk +
         j % kStrideItemsPerChunk;
}

template <class Space>
struct StrideKernel {
  Kokkos::View<const std::uint32_t*, typename Space::memory_space> words;
  Kokkos::View<std::uint32_t*, typename Space::memory_space> sums;  // one per item of a pass
  std::int64_t items_per_pass = 1;
  std::int64_t stride = 1;  // runtime: nothing can turn the loads into contiguous ones

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    const std::int64_t j = item % items_per_pass;
    const std::uint32_t* const q = words.data();
    std::uint32_t s0 = 0, s1 = 0;
    for (int g = 0; g < kStrideGroups; ++g) {
      std::uint32_t v[kStrideUnroll];
      ROOFTOP_UNROLL
      for (int u = 0; u < kStrideUnroll; ++u)
        v[u] = load_word_l2(q + stride_useful(j, g * kStrideUnroll + u) * stride);
      ROOFTOP_UNROLL
      for (int u = 0; u < kStrideUnroll; u += 2) {
        s0 += v[u];
        s1 += v[u + 1];
      }
    }
    sums(j) = s0 + s1;  // every pass writes the same value: passes may race
  }

  // sum over k of (u_k x stride) mod 2^32.
  static std::uint32_t expected(std::int64_t j, std::int64_t stride) {
    const auto c = static_cast<std::uint64_t>(j / kStrideItemsPerChunk);
    const auto w = static_cast<std::uint64_t>(j % kStrideItemsPerChunk);
    const std::uint64_t n = kStrideLoads;
    const std::uint64_t u = n * (c * kStrideChunk + w) + kStrideItemsPerChunk * n * (n - 1) / 2;
    return static_cast<std::uint32_t>(u * static_cast<std::uint64_t>(stride));
  }
};

// ---------------------------------------------------------------------------------------
// The textbook's 2-D example: a side x side array of 4-byte words, row-major. Item
// (p, t), t = item % side: rows reads words t x side + p x kMatrixRun + k (along row t:
// neighbouring items a row apart), columns reads (p x kMatrixRun + k) x side + t (down
// column t: neighbouring items adjacent), k < kMatrixRun.
inline constexpr int kMatrixRun = kStrideLoads;

template <class Space, bool kColumns>
struct MatrixKernel {
  Kokkos::View<const std::uint32_t*, typename Space::memory_space> words;  // side x side
  Kokkos::View<std::uint32_t*, typename Space::memory_space> sums;         // one per item
  std::int64_t side = kMatrixRun;

  KOKKOS_INLINE_FUNCTION std::int64_t word(std::int64_t item, int k) const {
    const std::int64_t t = item % side, p = item / side;
    return kColumns ? (p * kMatrixRun + k) * side + t : t * side + p * kMatrixRun + k;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    const std::uint32_t* const q = words.data();
    std::uint32_t s0 = 0, s1 = 0;
    for (int g = 0; g < kMatrixRun / kStrideUnroll; ++g) {
      std::uint32_t v[kStrideUnroll];
      ROOFTOP_UNROLL
      for (int u = 0; u < kStrideUnroll; ++u) v[u] = load_word(q + word(item, g * kStrideUnroll + u));
      ROOFTOP_UNROLL
      for (int u = 0; u < kStrideUnroll; u += 2) {
        s0 += v[u];
        s1 += v[u + 1];
      }
    }
    sums(item) = s0 + s1;
  }

  static std::uint32_t expected(std::int64_t item, std::int64_t side) {
    const auto t = static_cast<std::uint64_t>(item % side);
    const auto p = static_cast<std::uint64_t>(item / side);
    const auto n = static_cast<std::uint64_t>(side);
    const std::uint64_t r = kMatrixRun, run_sum = r * (r - 1) / 2;  // sum of k
    const std::uint64_t s = kColumns ? n * (p * r * r + run_sum) + r * t
                                     : r * (t * n + p * r) + run_sum;
    return static_cast<std::uint32_t>(s);
  }
};

// ---------------------------------------------------------------------------------------
// Latency hiding: a TeamPolicy whose league is one wave, SMs x teams per SM, so that
// every team stays resident for the whole launch and the resident warps per SM are the
// launch's own (teams per SM x team size / 32); the block scheduler spreads a league
// that fits in one wave breadth-first, one team per SM before a second. No scratch
// request: the launch bounds (1024 threads, 2 blocks per SM: 32 registers) let every
// shape up to 2048 threads per SM be resident, so the grid alone sets residency. Thread
// g of T reads packs g + i x T (kOccupancyLoads independent loads per step), so a warp
// reads 512 contiguous bytes per load and each thread has 64 bytes in flight.
inline constexpr int kOccupancyLoads = 4;
inline constexpr int kOccupancyBoundThreads = 1024;
inline constexpr int kOccupancyBoundBlocks = 2;

template <class Space>
struct OccupancyKernel {
  using Policy = Kokkos::TeamPolicy<
      Space, Kokkos::LaunchBounds<kOccupancyBoundThreads, kOccupancyBoundBlocks>>;
  using Member = typename Policy::member_type;
  Kokkos::View<const Pack16*, typename Space::memory_space> packs;
  Kokkos::View<std::uint32_t*, typename Space::memory_space> sums;  // one per thread
  std::int64_t steps = 1;  // packs read per thread = steps x kOccupancyLoads

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int64_t size = team.team_size();
    const std::int64_t g = team.league_rank() * size + team.team_rank();
    const std::int64_t threads = team.league_size() * size;
    const Pack16* const q = packs.data();
    std::uint32_t s0 = 0, s1 = 0;
    for (std::int64_t step = 0; step < steps; ++step) {
      Pack16 v[kOccupancyLoads];
      ROOFTOP_UNROLL
      for (int u = 0; u < kOccupancyLoads; ++u)
        v[u] = device::load_readonly(q + g + (step * kOccupancyLoads + u) * threads);
      ROOFTOP_UNROLL
      for (int u = 0; u < kOccupancyLoads; ++u) {
        s0 += v[u].x + v[u].y;
        s1 += v[u].z + v[u].w;
      }
    }
    sums(g) = s0 + s1;
  }

  // sum of pack_sum(g + i x threads) over i < steps x kOccupancyLoads (mod 2^32).
  static std::uint32_t expected(std::int64_t g, std::int64_t threads, std::int64_t steps) {
    const auto m = static_cast<std::uint64_t>(steps * kOccupancyLoads);
    const auto t = static_cast<std::uint64_t>(threads);
    const std::uint64_t packs = m * static_cast<std::uint64_t>(g) + t * (m * (m - 1) / 2);
    return static_cast<std::uint32_t>(16 * packs + 6 * m);
  }
};

// ---------------------------------------------------------------------------------------
// Divergence: one full wave of the fp32 FMA chains of DeviceComputeKernel; only items
// whose lane (item % 32: a Kokkos block is whole warps and starts at a multiple of 32)
// is below `active` run them. The branch holds a loop of runtime length, which no
// compiler can turn into a select: the inactive lanes of a warp wait while it runs.
inline constexpr int kWarpLanes = 32;

template <class Space>
struct DivergenceKernel {
  Kokkos::View<float*, typename Space::memory_space> x;  // kComputeChains per item
  std::int64_t inner = 1;
  int active = kWarpLanes;
  float alpha = 0.5f, beta = 0.25f;  // runtime, so nothing folds

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    if (static_cast<int>(item % kWarpLanes) >= active) return;
    float acc[device::kComputeChains];
    ROOFTOP_UNROLL
    for (int c = 0; c < device::kComputeChains; ++c) acc[c] = x(item * device::kComputeChains + c);
    for (std::int64_t r = 0; r < inner; ++r) {
      ROOFTOP_UNROLL
      for (int s = 0; s < device::kComputeSteps; ++s) {
        ROOFTOP_UNROLL
        for (int c = 0; c < device::kComputeChains; ++c)
          acc[c] = device::fma_rn(acc[c], alpha, beta);
      }
    }
    ROOFTOP_UNROLL
    for (int c = 0; c < device::kComputeChains; ++c) x(item * device::kComputeChains + c) = acc[c];
  }

  // Items of `threads` whose lane is below `active`.
  static std::int64_t active_items(std::int64_t threads, int active) {
    const std::int64_t whole = threads / kWarpLanes * active;
    return whole + std::min<std::int64_t>(threads % kWarpLanes, active);
  }
};

// ---------------------------------------------------------------------------------------
// Host kernels: 8-byte words holding their index; item i owns words [i x chunk,
// (i + 1) x chunk) and reads every stride-th of them, `reps` times, into eight
// accumulators (independent adds: the loads, not the add latency, set the pace). At
// stride 8 every 64-byte line gives one word. The loads are scalar at every stride (GCC
// keeps the runtime stride's loop scalar), so the sweep changes only the lines fetched
// per useful word; at stride 1 the load ports may bound an L2-resident chunk first.
inline constexpr int kHostAccumulators = 8;

template <class Space>
struct HostStrideKernel {
  Kokkos::View<const std::uint64_t*, typename Space::memory_space> words;
  Kokkos::View<std::uint64_t*, typename Space::memory_space> sums;  // one per item
  std::int64_t chunk = kHostAccumulators;  // words per item, a multiple of stride x 8
  std::int64_t stride = 1;
  std::int64_t reps = 1;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    const std::uint64_t* const q = words.data() + item * chunk;
    const std::int64_t step = kHostAccumulators * stride;
    std::uint64_t acc[kHostAccumulators] = {};
    for (std::int64_t r = 0; r < reps; ++r)
      for (std::int64_t i = 0; i < chunk; i += step)
        for (int l = 0; l < kHostAccumulators; ++l) acc[l] += q[i + l * stride];
    std::uint64_t total = 0;
    for (int l = 0; l < kHostAccumulators; ++l) total += acc[l];
    sums(item) = total;
  }

  static std::uint64_t expected(std::int64_t item, std::int64_t chunk, std::int64_t stride,
                                std::int64_t reps) {
    const auto m = static_cast<std::uint64_t>(chunk / stride);  // words read per pass
    const auto base = static_cast<std::uint64_t>(item * chunk);
    const std::uint64_t pass = m * base + static_cast<std::uint64_t>(stride) * (m * (m - 1) / 2);
    return pass * static_cast<std::uint64_t>(reps);
  }
};

// Item i of `items` owns rows (or columns) [i x side / items, (i + 1) x side / items) and
// reads each along its row (words r x side + k) or down its column (words k x side + c),
// k < side, once per repetition: a repetition sweeps the item's whole block before
// coming back, so a row is never re-read from cache.
template <class Space, bool kColumns>
struct HostMatrixKernel {
  Kokkos::View<const std::uint64_t*, typename Space::memory_space> words;
  Kokkos::View<std::uint64_t*, typename Space::memory_space> sums;  // one per item
  std::int64_t side = kHostAccumulators;  // a multiple of kHostAccumulators
  std::int64_t items = 1;
  std::int64_t reps = 1;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    const std::uint64_t* const q = words.data();
    const std::int64_t step = kColumns ? side : 1;
    std::uint64_t acc[kHostAccumulators] = {};
    for (std::int64_t r = 0; r < reps; ++r)
      for (std::int64_t line = item * side / items; line < (item + 1) * side / items; ++line) {
        const std::int64_t first = kColumns ? line : line * side;
        for (std::int64_t k = 0; k < side; k += kHostAccumulators)
          for (int l = 0; l < kHostAccumulators; ++l) acc[l] += q[first + (k + l) * step];
      }
    std::uint64_t total = 0;
    for (int l = 0; l < kHostAccumulators; ++l) total += acc[l];
    sums(item) = total;
  }

  static std::uint64_t expected(std::int64_t item, std::int64_t side, std::int64_t items,
                                std::int64_t reps) {
    const auto n = static_cast<std::uint64_t>(side);
    const auto b = static_cast<std::uint64_t>(item * side / items);
    const auto e = static_cast<std::uint64_t>((item + 1) * side / items);
    const std::uint64_t lines = e - b, line_sum = (b + e - 1) * lines / 2;  // sum of b ... e-1
    const std::uint64_t k_sum = n * (n - 1) / 2;
    const std::uint64_t pass = kColumns ? lines * n * k_sum + n * line_sum
                                        : n * n * line_sum + lines * k_sum;
    return pass * static_cast<std::uint64_t>(reps);
  }
};

// ---------------------------------------------------------------------------------------
// Shared by the device and host measurements.

[[noreturn]] inline void fail(const std::string& label, std::int64_t i, double got, double want) {
  throw Error(label + ": wrong result at " + std::to_string(i) + ": " + std::to_string(got) +
              " (expected " + std::to_string(want) + ")");
}

}  // namespace rooftop::microbench::access
