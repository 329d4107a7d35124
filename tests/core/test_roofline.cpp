// Roofline math against hand-computed cases: arithmetic intensity, the ridge point,
// each limiter, the FMA-mix-adjusted compute roof, efficiency, points above a roof, and the
// roof of each precision (tensor-core figures for FP16, BF16, FP8 and TF32).

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "rooftop/core/roofline.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "support.hpp"

namespace rooftop::core {
namespace {

using core::CeilingsFile;
using core::KernelRecord;
using rooftop::testing::make_ceiling;

// fp64: 100 GFLOP/s with FMA, 60 without; L1 400, L2 200, DRAM 50 GB/s.
// Ridge points: DRAM 100 / 50 = 2 FLOP/byte, L2 0.5, L1 0.25.
CeilingsFile machine() {
  CeilingsFile f;
  f.ceilings = {make_ceiling("fp64_fma", 100, 99, 101, 5),
                make_ceiling("fp64_nofma", 60, 59, 61, 5), make_ceiling("l1", 400, 390, 410, 3),
                make_ceiling("l2", 200, 190, 210, 3), make_ceiling("dram", 50, 49, 51, 3)};
  return f;
}

// `gflops` GFLOP/s over one second, with the bytes given per level.
KernelRecord kernel(double gflops, std::vector<core::LevelBytes> bytes, double fma = -1.0) {
  KernelRecord k;
  k.name = "k";
  k.precision = "fp64";
  k.flops_fp64 = gflops * 1e9;
  k.time_s = 1.0;
  k.fma_fraction = fma;
  k.bytes = std::move(bytes);
  return k;
}

TEST(Roofline, ArithmeticIntensityPerLevel) {
  const KernelRecord k = kernel(10, {{"l1", 40e9}, {"dram", 5e9}});
  EXPECT_DOUBLE_EQ(*arithmetic_intensity(k, "l1"), 0.25);
  EXPECT_DOUBLE_EQ(*arithmetic_intensity(k, "dram"), 2.0);
  EXPECT_FALSE(arithmetic_intensity(k, "l2").has_value()) << "no count, no AI";
  EXPECT_FALSE(arithmetic_intensity(kernel(10, {{"l2", 0.0}}), "l2").has_value());
}

TEST(Roofline, MemoryBoundBelowTheRidge) {
  // AI 1 at DRAM: roof 50 GFLOP/s; 25 achieved is half of it.
  const Placement p = place(kernel(25, {{"dram", 25e9}}), machine());
  EXPECT_EQ(p.limiter, "dram");
  EXPECT_DOUBLE_EQ(p.attainable_gflop_per_s, 50.0);
  EXPECT_DOUBLE_EQ(p.fraction_of_roof, 0.5);
  EXPECT_TRUE(p.above.empty());
}

TEST(Roofline, ComputeBoundAboveTheRidge) {
  // AI 4 at DRAM: roof min(100, 200) = 100.
  const Placement p = place(kernel(80, {{"dram", 20e9}}), machine());
  EXPECT_EQ(p.limiter, "fp64_fma");
  EXPECT_DOUBLE_EQ(p.attainable_gflop_per_s, 100.0);
  EXPECT_DOUBLE_EQ(p.fraction_of_roof, 0.8);
}

TEST(Roofline, AtTheRidgeBothRoofsMeet) {
  const Placement p = place(kernel(100, {{"dram", 50e9}}), machine());
  EXPECT_DOUBLE_EQ(p.attainable_gflop_per_s, 100.0);
  EXPECT_DOUBLE_EQ(p.fraction_of_roof, 1.0);
  EXPECT_TRUE(p.above.empty());
}

TEST(Roofline, TheLowestLevelRoofBinds) {
  // L1 AI 0.1 -> 40; L2 AI 0.5 -> 100; DRAM AI 10 -> 500: L1 binds.
  const Placement p = place(kernel(20, {{"l1", 200e9}, {"l2", 40e9}, {"dram", 2e9}}), machine());
  EXPECT_EQ(p.limiter, "l1");
  EXPECT_DOUBLE_EQ(p.attainable_gflop_per_s, 40.0);
  ASSERT_EQ(p.levels.size(), 3u);
  EXPECT_DOUBLE_EQ(p.levels[1].roof_gflop_per_s, 100.0);
  // L2 binds when its traffic is the larger burden.
  EXPECT_EQ(place(kernel(20, {{"l1", 20e9}, {"l2", 200e9}}), machine()).limiter, "l2");
}

TEST(Roofline, FmaMixScalesTheUnfusedCeiling) {
  // f = 0.25: 60 x 1.25 = 75 < 100.
  auto roof = compute_roof(machine(), "fp64", 0.25);
  ASSERT_TRUE(roof);
  EXPECT_DOUBLE_EQ(roof->gflop_per_s, 75.0);
  EXPECT_EQ(roof->ceiling, "fp64_fma_mix");
  // f = 0: the unfused ceiling; f = 1: 120 > 100, capped by the FMA ceiling.
  EXPECT_EQ(compute_roof(machine(), "fp64", 0.0)->ceiling, "fp64_nofma");
  EXPECT_DOUBLE_EQ(compute_roof(machine(), "fp64", 0.0)->gflop_per_s, 60.0);
  EXPECT_EQ(compute_roof(machine(), "fp64", 1.0)->ceiling, "fp64_fma");
  EXPECT_DOUBLE_EQ(compute_roof(machine(), "fp64", 1.0)->gflop_per_s, 100.0);
  // Unknown mix: the FMA ceiling; unknown precision: none.
  EXPECT_EQ(compute_roof(machine(), "fp64", -1.0)->ceiling, "fp64_fma");
  EXPECT_FALSE(compute_roof(machine(), "fp32", 0.5).has_value());

  const Placement p = place(kernel(60, {{"dram", 1e9}}, 0.25), machine());
  EXPECT_EQ(p.limiter, "fp64_fma_mix");
  EXPECT_DOUBLE_EQ(p.fraction_of_roof, 0.8);
}

TEST(Roofline, PointsAboveARoofAreFlagged) {
  // AI 1 at DRAM -> roof 50; 60 achieved is 20% above.
  Placement p = place(kernel(60, {{"dram", 60e9}}), machine());
  ASSERT_EQ(p.above.size(), 1u);
  EXPECT_EQ(p.above[0], "dram");
  EXPECT_DOUBLE_EQ(p.fraction_of_roof, 1.2);
  // Within the tolerance (1%, default 2%) nothing is flagged.
  EXPECT_TRUE(place(kernel(50.5, {{"dram", 50.5e9}}), machine()).above.empty());
  // Above the compute ceiling too.
  p = place(kernel(150, {{"dram", 1e9}}), machine());
  EXPECT_EQ(p.above, std::vector<std::string>{"fp64_fma"});

  KernelRecord k = kernel(60, {{"dram", 60e9}, {"l2", 60e9}});
  apply(place(k, machine()), k);
  EXPECT_EQ(k.above, "dram");  // l2's roof is 200
  EXPECT_EQ(k.limiter, "dram");
  EXPECT_DOUBLE_EQ(k.attainable_gflop_per_s, 50.0);
}

TEST(Roofline, LevelsWithoutACeilingAreSkipped) {
  // l3 has bytes but the machine has no l3 ceiling: it neither binds nor crashes.
  const Placement p = place(kernel(10, {{"l3", 1e9}, {"dram", 10e9}}), machine());
  ASSERT_EQ(p.levels.size(), 1u);
  EXPECT_EQ(p.levels[0].level, "dram");
  EXPECT_EQ(p.limiter, "dram");
}

TEST(Roofline, NoTimeMeansNoFraction) {
  KernelRecord k = kernel(10, {{"dram", 1e9}});
  k.time_s = 0.0;
  const Placement p = place(k, machine());
  EXPECT_DOUBLE_EQ(p.gflop_per_s, 0.0);
  EXPECT_DOUBLE_EQ(p.fraction_of_roof, 0.0);
  EXPECT_TRUE(p.above.empty());
  EXPECT_DOUBLE_EQ(p.attainable_gflop_per_s, 100.0);  // AI 10 -> compute-bound
}

// A matrix unit's figure beside the machine's ceilings: tensor cores, FP16 with FP32
// accumulate, at 1000 GFLOP/s (group "matrix", as measure writes it).
CeilingsFile machine_with_tensor_cores() {
  CeilingsFile f = machine();
  core::Ceiling tc = make_ceiling("tc_fp16", 1000, 990, 1010, 5);
  tc.units = "GFLOP/s";
  tc.pattern = "mma.sync.m16n8k16";
  f.matrix.figures.push_back(tc);
  return f;
}

// `gflops` GFLOP/s over one second of which `tensor` GFLOP are tc_fp16 ops, the rest
// FP64 FMAs, with `dram` bytes.
KernelRecord tensor_kernel(double gflops, double tensor, double dram) {
  KernelRecord k = kernel(gflops - tensor, {{"dram", dram}}, 1.0);
  k.tensor_ops = {{"tc_fp16", tensor * 1e9}};
  return k;
}

TEST(Roofline, TensorOpsCountAsOperations) {
  const KernelRecord k = tensor_kernel(500, 480, 1e9);
  EXPECT_DOUBLE_EQ(k.flops(), 500e9);
  EXPECT_DOUBLE_EQ(k.tensor_flops(), 480e9);
  EXPECT_DOUBLE_EQ(*arithmetic_intensity(k, "dram"), 500.0);
  ASSERT_NE(k.tensor_unit(), nullptr);
  EXPECT_EQ(k.tensor_unit()->figure, "tc_fp16");
}

TEST(Roofline, MostlyTensorOpsArePlacedAgainstTheUnitsFigure) {
  // AI 500 at DRAM: roof min(1000, 25000) = 1000, the tc_fp16 figure, not fp64_fma's 100.
  const Placement p = place(tensor_kernel(500, 480, 1e9), machine_with_tensor_cores());
  EXPECT_TRUE(p.tensor);
  ASSERT_TRUE(p.compute.has_value());
  EXPECT_EQ(p.compute->ceiling, "tc_fp16");
  EXPECT_EQ(p.limiter, "tc_fp16");
  EXPECT_DOUBLE_EQ(p.attainable_gflop_per_s, 1000.0);
  EXPECT_DOUBLE_EQ(p.fraction_of_roof, 0.5);
  EXPECT_TRUE(p.above.empty()) << "500 is above fp64_fma's 100, not above its own roof";
  EXPECT_TRUE(p.note.empty());
  KernelRecord k = tensor_kernel(500, 480, 1e9);
  apply(p, k);
  EXPECT_EQ(k.limiter, "tc_fp16");
  EXPECT_TRUE(k.note.empty());
}

TEST(Roofline, FP8OpsSayBothFormatsAreOneCount) {
  // The tensor path counts FP8 ops of both formats on one metric: placed against
  // tc_fp8_e4m3, with a note that says so; no other unit gets that note.
  CeilingsFile f = machine();
  core::Ceiling tc = make_ceiling("tc_fp8_e4m3", 4000, 3990, 4010, 5);
  tc.units = "GFLOP/s";
  f.matrix.figures.push_back(tc);
  KernelRecord k = kernel(20, {{"dram", 1e9}}, 1.0);
  k.tensor_ops = {{"tc_fp8_e4m3", 2000e9}};
  const Placement p = place(k, f);
  EXPECT_TRUE(p.tensor);
  EXPECT_EQ(p.limiter, "tc_fp8_e4m3");
  EXPECT_NE(p.note.find("E4M3 and E5M2 alike"), std::string::npos) << p.note;
  EXPECT_TRUE(place(tensor_kernel(500, 480, 1e9), machine_with_tensor_cores()).note.empty());
}

TEST(Roofline, MemoryBoundTensorKernelIsLimitedByItsLevel) {
  // AI 5 at DRAM: 250 < 1000.
  const Placement p = place(tensor_kernel(200, 190, 40e9), machine_with_tensor_cores());
  EXPECT_TRUE(p.tensor);
  EXPECT_EQ(p.limiter, "dram");
  EXPECT_DOUBLE_EQ(p.attainable_gflop_per_s, 250.0);
}

TEST(Roofline, TensorKernelAboveItsFigureIsFlaggedByName) {
  const Placement p = place(tensor_kernel(1100, 1090, 1e9), machine_with_tensor_cores());
  ASSERT_EQ(p.above.size(), 1u);
  EXPECT_EQ(p.above[0], "tc_fp16");
}

TEST(Roofline, WithoutTheFigureATensorKernelFallsBackAndSaysSo) {
  // The file has no tc_fp16 figure: placed against fp64 as before, with a note.
  const KernelRecord k = tensor_kernel(500, 480, 1e9);
  const Placement p = place(k, machine());
  EXPECT_FALSE(p.tensor);
  EXPECT_EQ(p.limiter, "fp64_fma");
  EXPECT_DOUBLE_EQ(p.attainable_gflop_per_s, 100.0);
  EXPECT_EQ(p.note,
            "96% of its operations are tc_fp16 ops, and the file has no tc_fp16 figure "
            "(/matrix): placed against the CUDA cores' roofs");
  KernelRecord applied = k;
  applied.note = "imported";
  apply(p, applied);
  apply(p, applied);  // once only
  EXPECT_EQ(applied.note, "imported; " + p.note);
}

TEST(Roofline, AMinorityOfTensorOpsLeavesThePlacementAsBefore) {
  // 40 of 100 GFLOP on the tensor cores: the FP64 roofs hold, and nothing is said.
  const Placement with = place(tensor_kernel(100, 40, 1e9), machine_with_tensor_cores());
  KernelRecord plain = kernel(100, {{"dram", 1e9}}, 1.0);
  const Placement without = place(plain, machine_with_tensor_cores());
  EXPECT_FALSE(with.tensor);
  EXPECT_EQ(with.limiter, without.limiter);
  EXPECT_EQ(with.attainable_gflop_per_s, without.attainable_gflop_per_s);
  EXPECT_TRUE(with.note.empty());
}

TEST(Roofline, TheFigureOfTheUnitWithMostOpsIsTheRoof) {
  CeilingsFile f = machine_with_tensor_cores();
  core::Ceiling int8 = make_ceiling("tc_int8", 4000, 3990, 4010, 5);
  int8.units = "GOP/s";
  f.matrix.figures.push_back(int8);
  // 100 FP64, 300 tc_fp16 and 650 tc_int8 GOP: int8 is more than half of the 1050.
  KernelRecord k = tensor_kernel(400, 300, 1e9);
  k.tensor_ops.push_back({"tc_int8", 650e9});
  const Placement p = place(k, f);
  EXPECT_TRUE(p.tensor);
  EXPECT_EQ(p.limiter, "tc_int8");
  EXPECT_DOUBLE_EQ(p.attainable_gflop_per_s, 4000.0);
}

}  // namespace
}  // namespace rooftop::core

namespace rooftop::core {
namespace {

// `gflops` GFLOP/s over one second, all in `precision`, with no bytes.
KernelRecord precision_kernel(const char* precision, double gflops) {
  KernelRecord k;
  k.name = "k";
  k.precision = precision;
  k.*find_precision(precision)->flops = gflops * 1e9;
  k.time_s = 1.0;
  return k;
}

CeilingsFile machine_with_figures(std::vector<std::pair<const char*, double>> figures) {
  CeilingsFile f;
  f.ceilings = {rooftop::testing::make_ceiling("fp32_fma", 100, 99, 101, 5)};
  for (const auto& [name, value] : figures) {
    Ceiling c = figure_row(name);
    c.value = c.median = c.min = c.max = value;
    c.samples = 3;
    f.matrix.figures.push_back(c);
  }
  return f;
}

TEST(RooflinePrecisions, EachPrecisionWithoutCudaCoreCeilingsHasItsTensorFigure) {
  const CeilingsFile f =
      machine_with_figures({{"tc_fp16", 1000}, {"tc_bf16", 990}, {"tc_fp8_e4m3", 2000}});
  for (const auto& [precision, figure] : {std::pair{"fp16", "tc_fp16"},
                                          std::pair{"bf16", "tc_bf16"},
                                          std::pair{"fp8", "tc_fp8_e4m3"}}) {
    SCOPED_TRACE(precision);
    const Placement p = place(precision_kernel(precision, 500), f);
    EXPECT_TRUE(p.tensor);
    EXPECT_EQ(p.limiter, figure);
    EXPECT_DOUBLE_EQ(p.attainable_gflop_per_s, f.matrix.find(figure)->value);
    EXPECT_NE(p.note.find(std::string("placed against ") + figure), std::string::npos) << p.note;
  }
}

TEST(RooflinePrecisions, WithoutItsFigureABf16KernelHasNoRoofAndSaysSo) {
  const Placement p = place(precision_kernel("bf16", 500), machine_with_figures({}));
  EXPECT_FALSE(p.compute.has_value());
  EXPECT_TRUE(p.limiter.empty());
  EXPECT_EQ(p.note, "BF16 FLOPs and the file has no tc_bf16 figure (/matrix): no compute roof");
}

TEST(RooflinePrecisions, Fp32GoesToTf32ByItsNameOrByARateOnlyTf32Explains) {
  const CeilingsFile f = machine_with_figures({{"tc_tf32", 400}});
  KernelRecord named = precision_kernel("fp32", 50);
  named.name = "sm80_xmma_gemm_tf32f32_tf32f32_f32_nn_n_tilesize128x128x16";
  Placement p = place(named, f);
  EXPECT_EQ(p.limiter, "tc_tf32");
  EXPECT_NE(p.note.find("its kernel's name says tf32"), std::string::npos) << p.note;
  // By rate: 300 GFLOP/s is above fp32_fma's 100 and within tc_tf32's 400.
  p = place(precision_kernel("fp32", 300), f);
  EXPECT_EQ(p.limiter, "tc_tf32");
  EXPECT_TRUE(p.above.empty());
  EXPECT_NE(p.note.find("its 300 GFLOP/s lies above fp32_fma and within tc_tf32"),
            std::string::npos)
      << p.note;
  // Below the FP32 roof, or above every figure: the FP32 roof, and above it is flagged.
  EXPECT_EQ(place(precision_kernel("fp32", 80), f).limiter, "fp32_fma");
  p = place(precision_kernel("fp32", 500), f);
  EXPECT_EQ(p.limiter, "fp32_fma");
  ASSERT_EQ(p.above.size(), 1u);
  EXPECT_TRUE(p.note.empty());
  // Without tc_tf32 in the file, the rate stays above fp32_fma.
  EXPECT_EQ(place(precision_kernel("fp32", 300), machine_with_figures({})).above.size(), 1u);
}

// The machine() above with caches: L1 32 KiB per thread, L2 1 MiB shared by 2, measured
// with 2 threads (64 KiB of L1 and 1 MiB of L2 in all).
CeilingsFile machine_with_caches() {
  CeilingsFile f = machine();
  f.machine.threads = 2;
  f.machine.caches = {{"l1", 32 << 10, 1}, {"l2", 1 << 20, 2}, {"l3", 32 << 20, 2}};
  return f;
}

// An operator of `calls` calls moving `bytes` compulsory bytes in all.
KernelRecord compulsory(double gflops, double bytes, int calls) {
  KernelRecord k = kernel(gflops, {{"dram", bytes, kCompulsory}});
  k.invocations = calls;
  return k;
}

TEST(Roofline, CompulsoryBytesGoToTheLevelTheirWorkingSetFits) {
  const CeilingsFile f = machine_with_caches();
  KernelRecord small = compulsory(1, 10.0 * (48 << 10), 10);  // 48 KiB a call: the two L1s
  settle_compulsory_bytes(small, f);
  EXPECT_EQ(small.bytes.front().level, "l1");
  EXPECT_NE(small.note.find("fit l1"), std::string::npos) << small.note;
  KernelRecord mid = compulsory(1, 4.0 * (512 << 10), 4);  // 512 KiB: L2
  settle_compulsory_bytes(mid, f);
  EXPECT_EQ(mid.bytes.front().level, "l2");
  // 4 MiB a call would fit L3, but the file has no l3 bandwidth ceiling: DRAM.
  KernelRecord large = compulsory(1, 4.0 * (4 << 20), 1);
  settle_compulsory_bytes(large, f);
  EXPECT_EQ(large.bytes.front().level, "dram");
  EXPECT_TRUE(large.note.empty());
  // Bytes of any other kind stay where they were counted.
  KernelRecord counted = kernel(1, {{"dram", 100.0}});
  settle_compulsory_bytes(counted, f);
  EXPECT_EQ(counted.bytes.front().level, "dram");
}

TEST(Roofline, AnOperatorFarBelowItsRoofGetsOneLineWithTheRoofAndTheRate) {
  const CeilingsFile f = machine_with_caches();
  // Memory-bound at DRAM: AI 0.1, roof 5 GFLOP/s; 1 achieved is 0.2 of it, 10 GB/s of 50.
  KernelRecord gemv = compulsory(1, 10e9, 1);
  gemv.name = "aten::mv (2048x8192, 8192)";
  apply(place(gemv, f), gemv);
  EXPECT_EQ(below_roof_line(gemv, f),
            "aten::mv (2048x8192, 8192): 10.00 GB/s of compulsory traffic, 0.200 of this "
            "machine's dram (50.00 GB/s)");
  // Compute-bound: AI 100, roof the FMA ceiling; 20 GFLOP/s is 0.2 of 100.
  KernelRecord gemm = compulsory(20, 0.2e9, 1);
  gemm.name = "aten::mm";
  apply(place(gemm, f), gemm);
  EXPECT_EQ(below_roof_line(gemm, f),
            "aten::mm: 20.00 GFLOP/s fp64, 0.200 of this machine's fp64_fma (100.0 GFLOP/s)");
  // At 0.3 of its roof or above, or without compulsory bytes: no line.
  KernelRecord fine = compulsory(40, 0.2e9, 1);
  apply(place(fine, f), fine);
  EXPECT_EQ(below_roof_line(fine, f), "");
  KernelRecord counted = kernel(1, {{"dram", 10e9}});
  apply(place(counted, f), counted);
  EXPECT_EQ(below_roof_line(counted, f), "");
}

}  // namespace
}  // namespace rooftop::core
