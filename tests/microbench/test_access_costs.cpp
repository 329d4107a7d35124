// The access-pattern costs' kernels under the host space at tiny sizes: each answer
// against its closed form and a brute-force sum, the address pattern each cost model
// names, and the sweeps end to end on a tiny plan (device and host).

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "costs/access_kernels.hpp"
#include "rooftop/ceilings/access_figures.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/microbench/costs/access_costs.hpp"
#include "rooftop/microbench/host.hpp"

namespace rooftop::microbench {
namespace {

using Space = Kokkos::DefaultHostExecutionSpace;
using Memory = Space::memory_space;
using Index = Kokkos::IndexType<std::int64_t>;
using namespace access;

template <class T>
Kokkos::View<T*, Memory> index_view(std::int64_t n) {
  Kokkos::View<T*, Memory> v("words", n);
  for (std::int64_t e = 0; e < n; ++e) v(e) = static_cast<T>(e);
  return v;
}

core::Sampling tiny() {
  core::Sampling t;
  t.samples = 2;
  t.min_sample_seconds = 0.001;
  return t;
}

// ---- coalescing --------------------------------------------------------------------

TEST(AccessStride, NeighbouringItemsAreOneStrideApartAndAPassReadsEveryUsefulWordOnce) {
  // Within a chunk, item j + 1 reads the word after item j's at every load.
  for (int k : {0, 1, kStrideLoads - 1})
    EXPECT_EQ(stride_useful(5, k) + 1, stride_useful(6, k));
  // One item's loads are 256 useful words apart: no reuse within a thread.
  EXPECT_EQ(stride_useful(5, 1) - stride_useful(5, 0), kStrideItemsPerChunk);
  std::set<std::int64_t> seen;
  const std::int64_t items = 2 * kStrideItemsPerChunk;
  for (std::int64_t j = 0; j < items; ++j)
    for (int k = 0; k < kStrideLoads; ++k) seen.insert(stride_useful(j, k));
  EXPECT_EQ(static_cast<std::int64_t>(seen.size()), items * kStrideLoads);
  EXPECT_EQ(*seen.rbegin(), items * kStrideLoads - 1);
}

TEST(AccessStride, SumsMatchTheClosedFormAndTheWordsRead) {
  for (std::int64_t stride : {1, 2, 32}) {
    SCOPED_TRACE(stride);
    const std::int64_t useful = 2 * kStrideChunk;
    StrideKernel<Space> k;
    auto words = index_view<std::uint32_t>(useful * stride);
    k.words = words;
    k.items_per_pass = useful / kStrideLoads;
    k.stride = stride;
    k.sums = Kokkos::View<std::uint32_t*, Memory>("sums", k.items_per_pass);
    // Two passes in one launch write the same sums.
    Kokkos::parallel_for(Kokkos::RangePolicy<Space, Index>(0, 2 * k.items_per_pass), k);
    Space().fence();
    for (std::int64_t j : {std::int64_t{0}, std::int64_t{1}, k.items_per_pass - 1}) {
      std::uint32_t brute = 0;
      for (int l = 0; l < kStrideLoads; ++l) brute += words(stride_useful(j, l) * stride);
      EXPECT_EQ(k.sums(j), brute);
    }
    for (std::int64_t j = 0; j < k.items_per_pass; ++j)
      ASSERT_EQ(k.sums(j), StrideKernel<Space>::expected(j, stride)) << j;
  }
}

TEST(AccessMatrix, RowsPutNeighboursASideApartColumnsNextToEachOther) {
  MatrixKernel<Space, false> rows;
  MatrixKernel<Space, true> columns;
  rows.side = columns.side = 4 * kMatrixRun;
  EXPECT_EQ(rows.word(8, 3) - rows.word(7, 3), rows.side);
  EXPECT_EQ(rows.word(7, 4) - rows.word(7, 3), 1);
  EXPECT_EQ(columns.word(8, 3) - columns.word(7, 3), 1);
  EXPECT_EQ(columns.word(7, 4) - columns.word(7, 3), columns.side);
}

template <bool kColumns>
void check_matrix() {
  MatrixKernel<Space, kColumns> k;
  k.side = 2 * kMatrixRun;
  auto words = index_view<std::uint32_t>(k.side * k.side);
  k.words = words;
  const std::int64_t items = k.side * k.side / kMatrixRun;
  k.sums = Kokkos::View<std::uint32_t*, Memory>("sums", items);
  Kokkos::parallel_for(Kokkos::RangePolicy<Space, Index>(0, items), k);
  Space().fence();
  std::vector<int> reads(static_cast<std::size_t>(k.side * k.side), 0);
  for (std::int64_t i = 0; i < items; ++i) {
    std::uint32_t brute = 0;
    for (int l = 0; l < kMatrixRun; ++l) {
      brute += words(k.word(i, l));
      ++reads[static_cast<std::size_t>(k.word(i, l))];
    }
    ASSERT_EQ(k.sums(i), brute) << i;
    ASSERT_EQ(k.sums(i), (MatrixKernel<Space, kColumns>::expected(i, k.side))) << i;
  }
  // Every word of the matrix once per launch.
  EXPECT_TRUE(std::all_of(reads.begin(), reads.end(), [](int n) { return n == 1; }));
}

TEST(AccessMatrix, RowsSumTheirClosedForm) { check_matrix<false>(); }
TEST(AccessMatrix, ColumnsSumTheirClosedForm) { check_matrix<true>(); }

// ---- occupancy ---------------------------------------------------------------------

TEST(AccessOccupancy, EveryThreadSumsItsPacksAndTheLaunchReadsEachOnce) {
  using Kernel = OccupancyKernel<Space>;
  const int teams = 3, team_size = 1;
  const std::int64_t threads = teams * team_size, steps = 5;
  const std::int64_t packs = steps * kOccupancyLoads * threads;
  auto words = index_view<std::uint32_t>(4 * packs);  // words 4p ... 4p + 3 = pack_value(p)
  Kernel k;
  k.packs = Kokkos::View<const Pack16*, Memory>(reinterpret_cast<const Pack16*>(words.data()),
                                                packs);
  k.sums = Kokkos::View<std::uint32_t*, Memory>("sums", threads);
  k.steps = steps;
  Kokkos::parallel_for(typename Kernel::Policy(teams, team_size), k);
  Space().fence();
  std::uint32_t all = 0, want_all = 0;
  for (std::int64_t g = 0; g < threads; ++g) {
    EXPECT_EQ(k.sums(g), Kernel::expected(g, threads, steps)) << g;
    all += k.sums(g);
  }
  for (std::int64_t p = 0; p < packs; ++p) want_all += device::pack_sum(static_cast<std::uint64_t>(p));
  EXPECT_EQ(all, want_all);
}

// ---- divergence --------------------------------------------------------------------

TEST(AccessDivergence, OnlyLanesBelowActiveWork) {
  const std::int64_t threads = 2 * kWarpLanes + 5;
  for (int active : {1, 4, 32}) {
    SCOPED_TRACE(active);
    DivergenceKernel<Space> k;
    k.active = active;
    k.inner = 1;
    k.alpha = 1.0f;  // each step adds beta: x0 + steps x beta
    k.x = Kokkos::View<float*, Memory>("x", threads * device::kComputeChains);
    Kokkos::parallel_for(Kokkos::RangePolicy<Space, Index>(0, threads), k);
    Space().fence();
    std::int64_t working = 0;
    for (std::int64_t item = 0; item < threads; ++item) {
      const bool works = item % kWarpLanes < active;
      working += works;
      for (int c = 0; c < device::kComputeChains; ++c)
        ASSERT_FLOAT_EQ(k.x(item * device::kComputeChains + c),
                        works ? device::kComputeSteps * 0.25f : 0.0f)
            << item;
    }
    EXPECT_EQ(DivergenceKernel<Space>::active_items(threads, active), working);
  }
}

// ---- host kernels ------------------------------------------------------------------

TEST(HostAccess, StrideKernelReadsEveryStrideThWordOfItsChunk) {
  for (std::int64_t stride : {1, 8, 32}) {
    SCOPED_TRACE(stride);
    HostStrideKernel<Space> k;
    const std::int64_t items = 3;
    k.chunk = 2 * kHostAccumulators * 32;
    auto words = index_view<std::uint64_t>(items * k.chunk);
    k.words = words;
    k.stride = stride;
    k.reps = 3;
    k.sums = Kokkos::View<std::uint64_t*, Memory>("sums", items);
    Kokkos::parallel_for(Kokkos::RangePolicy<Space, Index>(0, items), k);
    Space().fence();
    for (std::int64_t i = 0; i < items; ++i) {
      std::uint64_t brute = 0;
      for (std::int64_t e = i * k.chunk; e < (i + 1) * k.chunk; e += stride) brute += words(e);
      EXPECT_EQ(k.sums(i), 3 * brute);
      EXPECT_EQ(k.sums(i), HostStrideKernel<Space>::expected(i, k.chunk, stride, 3));
    }
  }
}

template <bool kColumns>
void check_host_matrix() {
  for (std::int64_t items : {1, 3, 24}) {
    SCOPED_TRACE(items);
    HostMatrixKernel<Space, kColumns> k;
    k.side = 3 * kHostAccumulators;
    k.items = items;
    k.reps = 2;
    auto words = index_view<std::uint64_t>(k.side * k.side);
    k.words = words;
    k.sums = Kokkos::View<std::uint64_t*, Memory>("sums", items);
    Kokkos::parallel_for(Kokkos::RangePolicy<Space, Index>(0, items), k);
    Space().fence();
    std::vector<int> reads(static_cast<std::size_t>(k.side * k.side), 0);
    for (std::int64_t i = 0; i < items; ++i) {
      std::uint64_t brute = 0;
      for (std::int64_t line = i * k.side / items; line < (i + 1) * k.side / items; ++line)
        for (std::int64_t j = 0; j < k.side; ++j) {
          const std::int64_t e = kColumns ? j * k.side + line : line * k.side + j;
          brute += words(e);
          ++reads[static_cast<std::size_t>(e)];
        }
      EXPECT_EQ(k.sums(i), 2 * brute) << i;
      EXPECT_EQ(k.sums(i), (HostMatrixKernel<Space, kColumns>::expected(i, k.side, items, 2))) << i;
    }
    // The items' blocks cover the matrix once per repetition.
    EXPECT_TRUE(std::all_of(reads.begin(), reads.end(), [](int n) { return n == 1; }));
  }
}

TEST(HostAccess, MatrixRowsSumTheirClosedForm) { check_host_matrix<false>(); }
TEST(HostAccess, MatrixColumnsSumTheirClosedForm) { check_host_matrix<true>(); }

// ---- plans and sweeps --------------------------------------------------------------

std::map<std::string, std::vector<double>> xs_by_sweep(const std::vector<core::SweepPoint>& pts) {
  std::map<std::string, std::vector<double>> out;
  for (const auto& p : pts) {
    out[p.sweep].push_back(p.x);
    EXPECT_FALSE(p.values.empty()) << p.sweep;
    EXPECT_EQ(p.values.size(), p.seconds.size()) << p.sweep;
    for (double v : p.values) EXPECT_GT(v, 0.0) << p.sweep << " " << p.x;
  }
  return out;
}

TEST(AccessPlan, DeviceResidenciesAreOneWaveOfWholeWarps) {
  core::Machine gpu;
  gpu.cores = 132;
  gpu.compute_capability = "9.0";
  gpu.nominal_clock_ghz = 1.98;
  gpu.caches = {{"l2", 50 * 1024 * 1024, 1}};
  DeviceLimits limits;
  limits.threads_per_sm = 2048;
  const auto plan = make_device_access_plan(gpu, limits, 132 * 2048, 80ull << 30, false);
  std::vector<int> warps;
  for (const Residency& r : plan.residencies) {
    warps.push_back(r.warps_per_sm);
    EXPECT_EQ(r.teams_per_sm * r.team_size, 32 * r.warps_per_sm);
    EXPECT_LE(r.team_size, kOccupancyBoundThreads);
    EXPECT_LE(r.teams_per_sm * r.team_size, kOccupancyBoundThreads * kOccupancyBoundBlocks);
    EXPECT_EQ(r.team_size % 32, 0);
  }
  EXPECT_EQ(warps, (std::vector<int>{1, 2, 4, 8, 16, 32, 64}));
  EXPECT_EQ(plan.strides.front(), 1);
  EXPECT_EQ(plan.strides.back(), 32);
  EXPECT_EQ(plan.lanes.front(), 1);
  EXPECT_EQ(plan.lanes.back(), 32);
  EXPECT_GE(plan.dram_bytes, 16u * 50 * 1024 * 1024);
  EXPECT_EQ(plan.sides, (std::vector<std::int64_t>{8192, 16384}));  // 64 MiB < 2 x L2
  EXPECT_GT(plan.divergence_inner, 1);
  // A 1536-thread SM ends at 48 warps: 3 teams of 512; no team is wider than two fit
  // on the SM (Kokkos's check against the launch bounds).
  limits.threads_per_sm = 1536;
  const auto small = make_device_access_plan(gpu, limits, 132 * 1536, 80ull << 30, true);
  EXPECT_EQ(small.residencies.back().warps_per_sm, 48);
  EXPECT_EQ(small.residencies.back().team_size, 512);
  for (const Residency& r : small.residencies) {
    EXPECT_LE(r.team_size * kOccupancyBoundBlocks, 1536) << r.warps_per_sm;
    EXPECT_EQ(r.teams_per_sm * r.team_size, 32 * r.warps_per_sm);
  }
  EXPECT_EQ(small.sides.size(), 1u);
  // One line per sweep's kernel.
  const std::string geometry = access_launch_geometry(plan);
  EXPECT_EQ(std::count(geometry.begin(), geometry.end(), '\n'), 3);
  EXPECT_NE(geometry.find("64 (2 x 1024)"), std::string::npos) << geometry;
}

TEST(AccessSweeps, TinyDevicePlanGivesEverySweep) {
  DeviceAccessPlan plan;
  plan.sms = 2;
  plan.strides = {1, 32};
  plan.l2_bytes = plan.dram_bytes = kStrideChunk * 32 * sizeof(std::uint32_t);
  plan.sides = {kMatrixRun};
  plan.residencies = {{1, 1, 1}, {2, 2, 1}};
  plan.threads = 2 * kWarpLanes;
  plan.lanes = {1, 32};
  plan.launch_seconds = 1e-4;
  plan.sampling = tiny();
  std::vector<std::string> skipped;
  std::size_t calls = 0;
  const auto points = run_device_access_costs<Space>(
      plan, [&](std::size_t, std::size_t, const std::string&) { ++calls; }, &skipped);
  EXPECT_TRUE(skipped.empty()) << skipped.front();
  const auto xs = xs_by_sweep(points);
  EXPECT_EQ(xs.at("stride:l2"), (std::vector<double>{1, 32}));
  EXPECT_EQ(xs.at("stride:dram"), (std::vector<double>{1, 32}));
  EXPECT_EQ(xs.at("rows:dram"), (std::vector<double>{kMatrixRun}));
  EXPECT_EQ(xs.at("columns:dram"), (std::vector<double>{kMatrixRun}));
  EXPECT_EQ(xs.at("occupancy:dram"), (std::vector<double>{1, 2}));
  EXPECT_EQ(xs.at("divergence:fp32"), (std::vector<double>{1, 32}));
  for (const auto& p : points) EXPECT_EQ(p.clock_ghz.size(), p.values.size()) << p.sweep;
  EXPECT_EQ(calls, points.size() + 1);

  // A footprint too small for stride 32 skips its sweep, not the others.
  plan.l2_bytes = 1024;
  skipped.clear();
  const auto rest = run_device_access_costs<Space>(plan, {}, &skipped);
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].rfind("stride:l2: ", 0), 0u) << skipped[0];
  EXPECT_EQ(rest.size(), points.size() - 2);
  EXPECT_THROW(run_device_access_costs<Space>(plan, {}), Error);
}

TEST(AccessSweeps, TinyHostPlanGivesEverySweep) {
  core::Machine host;
  host.threads = Space().concurrency();
  auto plan = make_host_access_plan(host, true);
  EXPECT_EQ(plan.thread_counts.back(), host.threads);
  EXPECT_EQ(plan.thread_counts.front(), 1);
  plan.strides = {1, 8};
  plan.l2_bytes = 64 * 1024;
  plan.dram_bytes = 1024 * 1024;
  plan.sides = {64};
  plan.thread_counts = {1, host.threads};
  plan.sampling = tiny();
  const auto points = run_host_access_costs<Space>(plan, {});
  const auto xs = xs_by_sweep(points);
  EXPECT_EQ(xs.at("stride:l2"), (std::vector<double>{1, 8}));
  EXPECT_EQ(xs.at("stride:dram"), (std::vector<double>{1, 8}));
  EXPECT_EQ(xs.at("rows:dram"), (std::vector<double>{64}));
  EXPECT_EQ(xs.at("columns:dram"), (std::vector<double>{64}));
  EXPECT_EQ(xs.at("threads:dram").front(), 1);
}

// The full host plan on this machine, printed (disabled: it takes seconds and its rates
// depend on the machine; run with --gtest_also_run_disabled_tests).
TEST(AccessSweeps, DISABLED_HostPlanOnThisMachine) {
  core::Machine host = describe_host();
  host.threads = static_cast<int>(Space().concurrency());
  const bool quick = std::getenv("ROOFTOP_QUICK") != nullptr;
  HostAccessPlan plan = make_host_access_plan(host, quick);
  plan.sampling.watch = &host_watch();
  const auto t0 = std::chrono::steady_clock::now();
  const auto points = run_host_access_costs<Space>(plan, {});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s, %d threads, l2 footprint %llu B, dram %llu B, %.2f s%s\n",
              host.cpu_model.c_str(), host.threads,
              static_cast<unsigned long long>(plan.l2_bytes),
              static_cast<unsigned long long>(plan.dram_bytes), seconds, quick ? " (quick)" : "");
  for (const auto& p : points) {
    std::vector<double> v = p.values;
    std::sort(v.begin(), v.end());
    std::printf("%-14s x %6g  median %8.2f GB/s  (min %.2f max %.2f, n %zu, lost %.1f%%)\n",
                p.sweep.c_str(), p.x, v[v.size() / 2], v.front(), v.back(), v.size(),
                100.0 * core::median_disturbance(p.disturbance));
  }
  for (const auto& f : ceilings::access_figures(points))
    std::printf("%-18s %8.4f %-8s %s\n", f.name.c_str(), f.value, f.units.c_str(), f.note.c_str());
}

}  // namespace
}  // namespace rooftop::microbench

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
