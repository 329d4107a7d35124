// rooftop_analyze: counts side by side (compare-counts). The pairing rules on records built
// here; then the real pair of the first H200 run: rooftop's CUPTI counts of the GPP ladder
// at the small size beside Nsight Compute's raw page of the same kernels.

#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <string>
#include <vector>

#include "rooftop/analyze/count_comparison.hpp"
#include "support.hpp"

namespace rooftop::analyze {
namespace {

using core::CountComparison;
using core::CountedQuantity;
using core::CountPair;
using core::KernelRecord;
using rooftop::testing::error_of;

using rooftop::testing::kFixtures;

// How Nsight Compute names a Kokkos launch: the functor's type inside Kokkos's template.
std::string device_name(const std::string& functor) {
  return "void Kokkos::Impl::cuda_parallel_launch_local_memory<Kokkos::Impl::ParallelFor<" +
         functor + ", Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<long>>, Kokkos::Cuda>>(T1)";
}

KernelRecord record(const std::string& id, const std::string& name, double scale) {
  KernelRecord k;
  k.id = id;
  k.name = name;
  k.flops_fp64 = 2e9 * scale;
  k.bytes = {{"l1", 4e9 * scale}, {"l2", 2e9 * scale}, {"dram", 1e9 * scale}};
  k.time_s = 1e-3 * scale;
  k.time_source = "test";
  return k;
}

// rooftop's record of a kernel whose run launches `launches` kernels, as the cupti backend
// notes them.
KernelRecord rooftop_record(const std::string& id, const std::string& name, int launches) {
  KernelRecord k = record(id, name, launches);
  k.source = "cupti";
  k.note = "8 replay passes; declared 6e+09 FLOPs; Kokkos kernels per run: " + name + " x" +
           std::to_string(launches) + "; newer Nsight Compute byte definitions: l1 1 B";
  return k;
}

// An Nsight Compute record of `launches` launches of `functor`.
KernelRecord ncu_record(const std::string& id, const std::string& functor, int launches) {
  KernelRecord k = record(id, device_name(functor), launches);
  k.source = "ncu-import";
  k.invocations = launches;
  return k;
}

KernelCounts counts(std::vector<KernelRecord> kernels) {
  KernelCounts c;
  c.kernels = std::move(kernels);
  c.source.kernels = static_cast<int>(c.kernels.size());
  return c;
}

const CountedQuantity& quantity(const CountPair& p, const std::string& name) {
  for (const CountedQuantity& q : p.quantities)
    if (q.name == name) return q;
  ADD_FAILURE() << "no quantity " << name;
  return p.quantities.front();
}

const core::QuantityVerdict& verdict(const CountComparison& c, const std::string& name) {
  for (const core::QuantityVerdict& v : c.verdicts)
    if (v.quantity == name) return v;
  ADD_FAILURE() << "no verdict on " << name;
  return c.verdicts.front();
}

const std::string kLadderV4 =
    "rooftop::kernels::gpp::Ladder<Kokkos::Cuda, rooftop::kernels::gpp::v4_frequency_outside>";

TEST(CompareCounts, LaunchesOfOneRunAreReadFromTheCuptiNote) {
  EXPECT_EQ(launches_covered(rooftop_record("v4", "gpp::v4_frequency_outside", 3)), 3);
  KernelRecord k;
  k.note = "Kokkos kernels per run: a x2, Kokkos::View::initialization [x] via memset x1";
  EXPECT_EQ(launches_covered(k), 3);
  k.note = "Kokkos kernels per run: my x-ray x4; later x9";  // " x-" is a label's, "; " ends it
  EXPECT_EQ(launches_covered(k), 4);
  k.note = "no such note";
  k.invocations = 7;
  EXPECT_EQ(launches_covered(k), 7);
}

TEST(CompareCounts, ADeviceKernelJoinsTheRooftopKernelWhoseNameItsNameContains) {
  // The three launches of one run of GPP v4, all profiled: equal, compared whole.
  const CountComparison c =
      compare_counts(counts({rooftop_record("triad", "reference::triad", 1),
                             rooftop_record("v4", "gpp::v4_frequency_outside", 3)}),
                     counts({ncu_record("k1", kLadderV4, 3),
                             ncu_record("k2", "rooftop::kernels::reference::triad", 1)}));
  EXPECT_FALSE(c.by_order);
  ASSERT_EQ(c.pairs.size(), 2u);
  EXPECT_EQ(c.pairs[0].label, "triad");  // in A's order
  ASSERT_EQ(c.pairs[0].b.size(), 1u);
  EXPECT_EQ(c.pairs[0].b[0].id, "k2");
  const CountPair& v4 = c.pairs[1];
  EXPECT_TRUE(v4.by_name);
  EXPECT_EQ(v4.launches_a, 3);
  EXPECT_EQ(v4.launches_b, 3);
  EXPECT_FALSE(v4.per_launch);
  EXPECT_EQ(quantity(v4, "fp64 FLOPs").a, 6e9);
  EXPECT_EQ(quantity(v4, "fp64 FLOPs").relative_difference, 0.0);
  EXPECT_TRUE(c.unpaired_a.empty() && c.unpaired_b.empty());
  const std::vector<std::string> rows = {"fp64 FLOPs", "l1 bytes", "l2 bytes", "dram bytes",
                                         "time s"};
  ASSERT_EQ(c.verdicts.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(c.verdicts[i].quantity, rows[i]);
    EXPECT_EQ(c.verdicts[i].compared, 2);
    if (c.verdicts[i].tolerance) {
      EXPECT_EQ(c.verdicts[i].met, 2) << rows[i];
    }
  }
  EXPECT_FALSE(verdict(c, "time s").tolerance) << "time has no target";
}

TEST(CompareCounts, AProfilerThatTookOneLaunchOfARunIsComparedPerLaunch) {
  const CountComparison c =
      compare_counts(counts({rooftop_record("v4", "gpp::v4_frequency_outside", 3)}),
                     counts({ncu_record("k1", kLadderV4, 1)}));
  ASSERT_EQ(c.pairs.size(), 1u);
  const CountPair& p = c.pairs[0];
  EXPECT_TRUE(p.per_launch);
  EXPECT_EQ(p.launches_a, 3);
  EXPECT_EQ(p.launches_b, 1);
  const CountedQuantity& f = quantity(p, "fp64 FLOPs");
  EXPECT_DOUBLE_EQ(*f.a, 2e9);  // 6e9 over the run's 3 launches
  EXPECT_DOUBLE_EQ(*f.b, 2e9);
  EXPECT_EQ(verdict(c, "fp64 FLOPs").met, 1) << "not a factor 3";
}

TEST(CompareCounts, SeveralDeviceKernelsOfOneRooftopKernelAreSummed) {
  // Two instantiations under the longer name; "reference::poly" owns neither of them.
  KernelRecord whole = rooftop_record("poly", "reference::polynomial16", 2);
  const CountComparison c = compare_counts(
      counts({rooftop_record("p", "reference::poly", 1), whole}),
      counts({ncu_record("k1", "rooftop::kernels::reference::polynomial16<float>", 1),
              ncu_record("k2", "rooftop::kernels::reference::polynomial16<double>", 1)}));
  ASSERT_EQ(c.pairs.size(), 1u);
  EXPECT_EQ(c.pairs[0].label, "poly");
  ASSERT_EQ(c.pairs[0].b.size(), 2u);
  EXPECT_EQ(c.pairs[0].launches_b, 2);
  EXPECT_FALSE(c.pairs[0].per_launch);
  EXPECT_EQ(quantity(c.pairs[0], "dram bytes").b, 2e9);
  EXPECT_EQ(quantity(c.pairs[0], "dram bytes").relative_difference, 0.0);
  ASSERT_EQ(c.unpaired_a.size(), 1u);
  EXPECT_EQ(c.unpaired_a[0].id, "p");
}

TEST(CompareCounts, EitherFileMayHoldTheShortNames) {
  // The Nsight Compute report first: its kernels join rooftop's, labelled by its own ids.
  const CountComparison c =
      compare_counts(counts({ncu_record("k1", kLadderV4, 1)}),
                     counts({rooftop_record("v4", "gpp::v4_frequency_outside", 3)}));
  ASSERT_EQ(c.pairs.size(), 1u);
  EXPECT_EQ(c.pairs[0].label, "k1");
  EXPECT_EQ(c.pairs[0].launches_a, 1);
  EXPECT_EQ(c.pairs[0].launches_b, 3);
  EXPECT_TRUE(c.pairs[0].per_launch);
}

TEST(CompareCounts, WhereNoNameJoinsTheKernelsArePairedInOrder) {
  const CountComparison c =
      compare_counts(counts({rooftop_record("v1", "gpp::v1_collapse_all", 1)}),
                     counts({ncu_record("k1", "rooftop::kernels::gpp::CollapseAll<Kokkos::Cuda>", 1),
                             ncu_record("k2", "rooftop::kernels::gpp::CollapseTwo<Kokkos::Cuda>", 1)}));
  EXPECT_TRUE(c.by_order);
  ASSERT_EQ(c.pairs.size(), 1u);
  EXPECT_FALSE(c.pairs[0].by_name);
  EXPECT_EQ(c.pairs[0].b[0].id, "k1");
  ASSERT_EQ(c.unpaired_b.size(), 1u);
  EXPECT_EQ(c.unpaired_b[0].id, "k2");
}

TEST(CompareCounts, WhatAFileDoesNotCountIsNoValueAndNoVerdict) {
  KernelCounts b = counts({ncu_record("k1", "rooftop::kernels::reference::triad", 1)});
  b.kernels[0].bytes = {{"dram", 1e9}};  // no L1 or L2 metric
  b.kernels[0].flops_fp32 = 5.0;
  b.flops_short = {{"fp64", "without dadd, dmul"}};
  KernelRecord a = rooftop_record("triad", "reference::triad", 1);
  a.flops_fp32 = 0.0;
  const CountComparison c = compare_counts(counts({a}), b);
  ASSERT_EQ(c.pairs.size(), 1u);
  const CountPair& p = c.pairs[0];
  EXPECT_FALSE(quantity(p, "l1 bytes").b.has_value());
  EXPECT_FALSE(quantity(p, "l1 bytes").relative_difference.has_value());
  EXPECT_EQ(verdict(c, "l1 bytes").absent, 1);
  EXPECT_EQ(verdict(c, "l1 bytes").compared, 0);
  EXPECT_EQ(quantity(p, "fp64 FLOPs").b_short, "without dadd, dmul");
  EXPECT_EQ(verdict(c, "fp64 FLOPs").b_short, "without dadd, dmul");
  // A's 0 against B's count: no relative difference, and not equal.
  const core::QuantityVerdict& fp32 = verdict(c, "fp32 FLOPs");
  EXPECT_EQ(fp32.compared, 1);
  EXPECT_EQ(fp32.met, 0);
  ASSERT_EQ(fp32.missed.size(), 1u);
  EXPECT_TRUE(std::isnan(fp32.missed[0].second));
  // A precision a report has no metric for is no value, not 0.
  b.flops_short = {{"fp64", "not counted"}};
  EXPECT_FALSE(quantity(compare_counts(counts({a}), b).pairs[0], "fp64 FLOPs").b.has_value());
}

// ---------------------------------------------------------------------------------------
// The first H200 run (fixtures/README.md): rooftop analyze --kernels gpp --size small with
// CUPTI (A), and ncu --csv --page raw of the same 12 kernels at the same size (B), which
// profiled the first launch of each distinct kernel only: one of the three of v4 to v9.

TEST(CompareCountsH200, TheGppLadderBesideNsightComputesRawPage) {
  const KernelCounts a = read_kernel_counts(kFixtures + "/h5/h200-gpp-small-cupti.h5");
  const KernelCounts b = read_kernel_counts(kFixtures + "/import/ncu-raw-h200-gpp-small.csv");
  EXPECT_EQ(a.source.kind, "rooftop kernels file (cupti)");
  EXPECT_EQ(b.source.kind, "Nsight Compute CSV (ncu-wide)");
  const CountComparison c = compare_counts(a, b);

  // The ncu page is of a build whose functors were named CollapseAll, CollapseTwo and
  // TeamKernel<...>, and the reference kernels' lambdas: no name joins, so the pairs are by
  // order, and ncu's triad, polynomial and stencil are left over.
  EXPECT_TRUE(c.by_order);
  ASSERT_EQ(c.pairs.size(), 9u);
  EXPECT_TRUE(c.unpaired_a.empty());
  ASSERT_EQ(c.unpaired_b.size(), 3u);
  EXPECT_EQ(c.unpaired_b[0].id, "k10");
  EXPECT_NE(c.unpaired_b[0].name.find("Triad::run()"), std::string::npos);
  for (std::size_t i = 0; i < 9; ++i) {
    const CountPair& p = c.pairs[i];
    SCOPED_TRACE(p.label);
    EXPECT_EQ(p.label, "v" + std::to_string(i + 1));
    EXPECT_EQ(p.b[0].id, "k" + std::to_string(i + 1));
    // v1 to v3 launch one kernel a run; v4 to v9 one per frequency, 3, of which ncu took one.
    EXPECT_EQ(p.launches_a, i < 3 ? 1 : 3);
    EXPECT_EQ(p.launches_b, 1);
    EXPECT_EQ(p.per_launch, i >= 3);
  }

  // FLOPs: not comparable as they stand. The ncu step collected
  // sm__sass_thread_inst_executed_op_dfma_pred_on.sum alone (no dadd or dmul, no FP32 or
  // FP16): its FP64 FLOPs are 2 x DFMA, 17% to 34% below rooftop's, which count DADD and
  // DMUL too.
  const core::QuantityVerdict& fp64 = verdict(c, "fp64 FLOPs");
  EXPECT_EQ(fp64.b_short, "without dadd, dmul");
  EXPECT_NEAR(*fp64.lowest, -0.344, 0.001);   // v9
  EXPECT_NEAR(*fp64.highest, -0.173, 0.001);  // v1
  EXPECT_EQ(verdict(c, "fp32 FLOPs").b_short, "not counted");
  EXPECT_EQ(verdict(c, "fp16 FLOPs").b_short, "not counted");
  // What can be compared agrees to the last bit: rooftop's FMA share of its FLOPs, less its
  // FP32 and FP16 FLOPs (all FMAs: the classic-size raw page shows fadd, fmul, hadd and
  // hmul at 0 for v1), gives its FP64 FMA FLOPs, equal to ncu's 2 x DFMA in all 9 pairs
  // (v4 to v9 per launch).
  for (std::size_t i = 0; i < 9; ++i) {
    const KernelRecord& k = a.kernels[i];
    const double fma = (k.fma_fraction * k.flops() - k.flops_fp32 - k.flops_fp16) /
                       c.pairs[i].launches_a;
    EXPECT_DOUBLE_EQ(fma, *quantity(c.pairs[i], "fp64 FLOPs").b) << k.name;
  }

  // Bytes: L1 equal in every pair; L2 within 2% (-0.73% to +0.79%); DRAM within 2% for v1
  // alone (-1.6%): ncu reads 3.6% less for v2, 17.7% less for v3, and 4.3% to 5.3% less for
  // the one launch of v4 to v9 than a third of rooftop's run.
  const core::QuantityVerdict& l1 = verdict(c, "l1 bytes");
  EXPECT_EQ(l1.met, 9);
  EXPECT_EQ(*l1.lowest, 0.0);
  EXPECT_EQ(*l1.highest, 0.0);
  const core::QuantityVerdict& l2 = verdict(c, "l2 bytes");
  EXPECT_EQ(l2.met, 9);
  EXPECT_NEAR(*l2.lowest, -0.0073, 0.0001);   // v5
  EXPECT_NEAR(*l2.highest, 0.0079, 0.0001);   // v3
  const core::QuantityVerdict& dram = verdict(c, "dram bytes");
  EXPECT_EQ(dram.compared, 9);
  EXPECT_EQ(dram.met, 1);
  EXPECT_NEAR(*quantity(c.pairs[0], "dram bytes").relative_difference, -0.0161, 0.0001);
  ASSERT_EQ(dram.missed.size(), 8u);
  EXPECT_EQ(dram.missed[0].first, "v2");
  EXPECT_NEAR(dram.missed[0].second, -0.0355, 0.0001);
  EXPECT_EQ(dram.missed[1].first, "v3");
  EXPECT_NEAR(dram.missed[1].second, -0.1766, 0.0001);
  for (std::size_t i = 2; i < 8; ++i) {
    EXPECT_GT(dram.missed[i].second, -0.053) << dram.missed[i].first;
    EXPECT_LT(dram.missed[i].second, -0.043) << dram.missed[i].first;
  }

  // Time: rooftop's un-instrumented runs (wall clock) against ncu's gpu__time_duration:
  // ncu 0.1% to 0.9% shorter.
  const core::QuantityVerdict& time = verdict(c, "time s");
  EXPECT_EQ(time.compared, 9);
  EXPECT_NEAR(*time.lowest, -0.0088, 0.0001);
  EXPECT_NEAR(*time.highest, -0.0012, 0.0001);
}

// The kernels of torch_model.py as CUPTI names them (its torch.profiler trace, which a
// profile of the CUDA injection library names alike) beside Nsight Compute's log of the
// same program: the names that differ only in spelling pair by their words.
TEST(CompareCountsH200, PyTorchsKernelsPairAsCuptiAndNsightComputeSpellThem) {
  const KernelCounts a =
      read_kernel_counts(kFixtures + "/import/pytorch-h200-torch-model.json.gz");
  const KernelCounts b = read_kernel_counts(kFixtures + "/import/ncu-text-h200-torch.txt");
  const CountComparison c = compare_counts(a, b);
  EXPECT_FALSE(c.by_order);
  std::vector<std::string> paired;
  for (const CountPair& p : c.pairs)
    for (const auto& k : p.b) paired.push_back(k.id);
  std::sort(paired.begin(), paired.end(), [](const std::string& x, const std::string& y) {
    return std::stoi(x.substr(1)) < std::stoi(y.substr(1));
  });
  // k1 and k2 set the inputs up before the trace's steps; k8 and k11 are spelled apart
  // inside their template arguments.
  EXPECT_EQ(paired, (std::vector<std::string>{"k3", "k4", "k5", "k6", "k7", "k9", "k10", "k12",
                                              "k13", "k14", "k15", "k16", "k17", "k18"}));
  for (const CountPair& p : c.pairs) {
    ASSERT_EQ(p.a.size(), 1u);
    ASSERT_EQ(p.b.size(), 1u);
    if (p.b[0].id == "k4") {
      EXPECT_NE(p.a[0].name.find("at::native::GeluCUDAKernelImpl"), std::string::npos)
          << p.a[0].name;
    }
  }
}

TEST(CompareCountsH200, AFileWithoutKernelsOrInNoFormatIsOneError) {
  const std::string e =
      error_of([] { read_kernel_counts(kFixtures + "/h5/h200-ceilings.h5"); });
  EXPECT_NE(e.find("h200-ceilings.h5: a ceilings file without kernels"), std::string::npos) << e;
  const std::string n =
      error_of([] { read_kernel_counts(kFixtures + "/import/ncu-errors-only-h200.log"); });
  EXPECT_NE(n.find("Nsight Compute profiled no kernel: ==ERROR== Failed to profile"),
            std::string::npos)
      << n;
}

}  // namespace
}  // namespace rooftop::analyze
