// The tensor-core sweeps. Their arithmetic needs tensor cores: under the host space
// (label unit) the units are reported absent and the answer check is tested on its own
// (operand encodings, accumulator decoding, the expected value); under the device space
// (label device, ROOFTOP_TEST_ON_DEVICE) every figure runs at a small size, checked, and
// on Hopper every wgmma sweep point too.

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <string>

#include "rooftop/ceilings/tensor_peaks.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/microbench/matrix/tensor.hpp"
#if ROOFTOP_TEST_ON_DEVICE
#include "matrix/wgmma.hpp"
#endif

namespace rooftop::microbench {
namespace {

#if ROOFTOP_TEST_ON_DEVICE
using Space = Kokkos::DefaultExecutionSpace;
#else
using Space = Kokkos::DefaultHostExecutionSpace;
#endif

TEST(Tensor, FiguresAndSweepsAreInTheVocabulary) {
  for (const char* name : kTensorFigures) {
    const core::Figure* f = core::find_figure(name);
    const core::Sweep* s = core::find_sweep(name);
    ASSERT_NE(f, nullptr) << name;
    ASSERT_NE(s, nullptr) << name;
    EXPECT_EQ(f->group, "matrix");
    EXPECT_EQ(s->units, f->units);
    EXPECT_FALSE(ceilings::tensor_instruction(name).empty());
  }
}

TEST(Tensor, OperandWordsHoldTheValueInEveryElement) {
  EXPECT_EQ(tensor_operand_word("tc_fp16", 1.0), 0x3C003C00u);
  EXPECT_EQ(tensor_operand_word("tc_fp16", -1.0), 0xBC00BC00u);
  EXPECT_EQ(tensor_operand_word("tc_fp16_acc16", 0.5), 0x38003800u);
  EXPECT_EQ(tensor_operand_word("tc_bf16", 1.0), 0x3F803F80u);
  EXPECT_EQ(tensor_operand_word("tc_bf16", 0.5), 0x3F003F00u);
  EXPECT_EQ(tensor_operand_word("tc_tf32", 1.0), 0x3F800000u);
  EXPECT_EQ(tensor_operand_word("tc_tf32", -0.5), 0xBF000000u);
  EXPECT_EQ(tensor_operand_word("tc_fp8_e4m3", 1.0), 0x38383838u);
  EXPECT_EQ(tensor_operand_word("tc_fp8_e4m3", -1.0), 0xB8B8B8B8u);
  EXPECT_EQ(tensor_operand_word("tc_fp8_e5m2", 0.5), 0x38383838u);
  EXPECT_EQ(tensor_operand_word("tc_fp8_e5m2", 1.0), 0x3C3C3C3Cu);
  EXPECT_EQ(tensor_operand_word("tc_int8", -1.0), 0xFFFFFFFFu);
  EXPECT_EQ(tensor_operand_word("tc_int8", 2.0), 0x02020202u);
  // Only exact values: a non-power of two, or out of the format's range, is refused.
  EXPECT_THROW(tensor_operand_word("tc_fp16", 3.0), Error);
  EXPECT_THROW(tensor_operand_word("tc_fp8_e4m3", 1024.0), Error);
  EXPECT_THROW(tensor_operand_word("tc_int8", 0.5), Error);
  EXPECT_THROW(tensor_operand_word("tc_fp64", 1.0), Error);
}

TEST(Tensor, AccumulatorRegistersDecode) {
  EXPECT_EQ(tensor_accumulator_values("tc_fp16", 0x41880000u), std::vector<double>{17.0});
  EXPECT_EQ(tensor_accumulator_values("tc_int8", 0xFFFFFFBFu), std::vector<double>{-65.0});
  // Two halves, low first: 9 and -2.
  EXPECT_EQ(tensor_accumulator_values("tc_fp16_acc16", 0xC0004880u),
            (std::vector<double>{9.0, -2.0}));
  EXPECT_EQ(tensor_accumulator_values("tc_fp64", 0x4008000000000000u), std::vector<double>{3.0});
  EXPECT_THROW(tensor_accumulator_values("fp32_fma", 0), Error);
}

TEST(Tensor, ExpectedAccumulatorIsExactInEveryPrecision) {
  for (const char* name : kTensorFigures) {
    const TensorShape s = tensor_shape(name);
    EXPECT_EQ(tensor_ops_per_mma(name), 2.0 * s.m * s.n * s.k);
    // Every step pair cancels: one more +a step leaves c0 + k a b, however many pairs.
    const double one = s.c0 + s.k * s.a * s.b;
    EXPECT_EQ(tensor_expected_accumulator(name, 1, 0), one) << name;
    EXPECT_EQ(tensor_expected_accumulator(name, 1000001, 1000000), one) << name;
    EXPECT_EQ(tensor_expected_accumulator(name, 8, 8), s.c0) << name;
    // The accumulator's format holds every partial sum exactly (FP16: 11 bits).
    EXPECT_LE(one, 2048.0) << name;
    EXPECT_EQ(one, static_cast<double>(static_cast<float>(one)));
  }
  EXPECT_EQ(tensor_ops_per_mma("tc_fp16"), 4096.0);  // m16n8k16
  EXPECT_EQ(tensor_ops_per_mma("tc_fp64"), 512.0);   // m8n8k4
  EXPECT_THROW(tensor_shape("tc_fp4"), Error);
}

// tc_fp64 is sm_90's m16n8k16 in a build for sm_90 (Hopper's FP64 tensor rate; m8n8k4
// issues at half of it there), Ampere's m8n8k4 in any other; every other figure has one
// shape. The shape is the instruction the figure names.
TEST(Tensor, Fp64IsM16n8k16InABuildForSm90) {
  const TensorShape k16 = tensor_shape("tc_fp64", "sm_90");
  EXPECT_EQ(k16.m, 16);
  EXPECT_EQ(k16.n, 8);
  EXPECT_EQ(k16.k, 16);
  // Per thread: 8 A, 4 B and 4 C/D doubles (16 x 16 / 32, 16 x 8 / 32, 16 x 8 / 32).
  EXPECT_EQ(k16.a_regs, 8);
  EXPECT_EQ(k16.b_regs, 4);
  EXPECT_EQ(k16.c_regs, 4);
  EXPECT_EQ(k16.c_values, 4);
  EXPECT_EQ(k16.a_regs * 32, k16.m * k16.k);
  EXPECT_EQ(k16.b_regs * 32, k16.k * k16.n);
  EXPECT_EQ(k16.c_values * 32, k16.m * k16.n);
  EXPECT_EQ(k16.min_arch, 900);
  EXPECT_EQ(tensor_ops_per_mma("tc_fp64", "sm_90"), 4096.0);  // 2 x 16 x 8 x 16
  // 1 + 16 x 1 x 0.5 after one more +a step than -a, back to 1 after as many of each.
  EXPECT_EQ(tensor_expected_accumulator("tc_fp64", 1, 0, "sm_90"), 9.0);
  EXPECT_EQ(tensor_expected_accumulator("tc_fp64", 1000001, 1000000, "sm_90"), 9.0);
  EXPECT_EQ(tensor_expected_accumulator("tc_fp64", 8, 8, "sm_90"), 1.0);
  EXPECT_EQ(tensor_accumulator_values("tc_fp64", 0x4022000000000000u), std::vector<double>{9.0});
  EXPECT_EQ(ceilings::tensor_instruction("tc_fp64", "sm_90"), "mma.sync.m16n8k16");
  EXPECT_EQ(tensor_shape("tc_fp64", "sm_100").k, 16);  // sm_90 on
  // Before sm_90 (or a build listing an older arch too, or none): m8n8k4, 1 + 4 x 0.5.
  for (const char* arch : {"", "sm_80", "sm_86", "sm_89", "sm_80,sm_90"}) {
    const TensorShape s = tensor_shape("tc_fp64", arch);
    EXPECT_EQ(s.m * 100 + s.n * 10 + s.k, 884) << arch;
    EXPECT_EQ(s.c_regs, 2) << arch;
    EXPECT_EQ(s.min_arch, 800) << arch;
    EXPECT_EQ(tensor_ops_per_mma("tc_fp64", arch), 512.0) << arch;
    EXPECT_EQ(tensor_expected_accumulator("tc_fp64", 3, 2, arch), 3.0) << arch;
    EXPECT_EQ(ceilings::tensor_instruction("tc_fp64", arch), "mma.sync.m8n8k4") << arch;
  }
  for (const char* name : kTensorFigures)
    for (const char* arch : {"", "sm_80", "sm_89", "sm_90"}) {
      const TensorShape s = tensor_shape(name, arch);
      EXPECT_EQ(ceilings::tensor_instruction(name, arch), "mma.sync.m" + std::to_string(s.m) + "n" +
                                                              std::to_string(s.n) + "k" +
                                                              std::to_string(s.k))
          << name << " " << arch;
      EXPECT_EQ(tensor_expected_accumulator(name, 1, 0, arch), s.c0 + s.k * s.a * s.b);
      if (std::string(name) != "tc_fp64") {
        EXPECT_EQ(s.k, tensor_shape(name).k) << name << " " << arch;
        EXPECT_EQ(s.min_arch, tensor_shape(name).min_arch) << name << " " << arch;
      }
    }
}

// PTX ISA, "Matrix Descriptor Format" (asynchronous warpgroup-level matrix shared memory
// layout): start address in bits 0-13, leading-dimension byte offset in 16-29, stride-
// dimension byte offset in 32-45, each (bytes & 0x3FFFF) >> 4; swizzle mode in 62-63.
TEST(Tensor, WgmmaDescriptorFollowsThePtxLayout) {
  EXPECT_EQ(wgmma_descriptor(0, 0, 0, 0), 0u);
  EXPECT_EQ(wgmma_descriptor(0x400, 128, 256, 0),
            0x40u | std::uint64_t{8} << 16 | std::uint64_t{16} << 32);
  EXPECT_EQ(wgmma_descriptor(0x3FFF0, 0, 0, 0), 0x3FFFu);  // the highest address
  EXPECT_EQ(wgmma_descriptor(0, 0x3FFF0, 0, 0), std::uint64_t{0x3FFF} << 16);
  EXPECT_EQ(wgmma_descriptor(0, 0, 0x3FFF0, 0), std::uint64_t{0x3FFF} << 32);
  EXPECT_EQ(wgmma_descriptor(0, 0, 0, 1), std::uint64_t{1} << 62);  // 128-byte swizzle
  EXPECT_EQ(wgmma_descriptor(0, 0, 0, 3), std::uint64_t{3} << 62);  // 32-byte swizzle
  // The kernel adds its tile's shared address >> 4 to the one made at address 0.
  const std::uint64_t at0 = wgmma_descriptor(0, 128, 256, 0);
  for (std::uint32_t address : {16u, 0x800u, 0x4800u, 0x3FFF0u})
    EXPECT_EQ(wgmma_descriptor(address, 128, 256, 0), at0 + (address >> 4)) << address;
  EXPECT_THROW(wgmma_descriptor(8, 128, 256, 0), Error);         // not 16-byte aligned
  EXPECT_THROW(wgmma_descriptor(1u << 18, 128, 256, 0), Error);  // past 256 KiB
  EXPECT_THROW(wgmma_descriptor(0, 100, 256, 0), Error);
  EXPECT_THROW(wgmma_descriptor(0, 128, 256, 4), Error);
}

TEST(Tensor, WgmmaShapesSweepsAndInstructions) {
  for (const char* name : kTensorFigures) {
    const std::string sweep = wgmma_sweep(name);
    if (std::string(name) == "tc_fp64") {
      EXPECT_TRUE(sweep.empty());  // no FP64 wgmma
      EXPECT_THROW(wgmma_ops(name, 128), Error);
      EXPECT_EQ(ceilings::wgmma_instruction(name, 128), "");
      continue;
    }
    const core::Sweep* row = core::find_sweep(sweep);
    ASSERT_NE(row, nullptr) << sweep;
    EXPECT_EQ(row->group, "matrix");
    EXPECT_EQ(row->units, core::find_figure(name)->units);
    const TensorShape shape = tensor_shape(name);
    const int k = shape.k;  // the wgmma's k is the mma.sync shape's
    // The B tiles hold +b and -b (mma.sync alternates a instead): both exact.
    EXPECT_NE(tensor_operand_word(name, -shape.b), tensor_operand_word(name, shape.b)) << name;
    for (int n : kWgmmaN) {
      EXPECT_EQ(wgmma_ops(name, n), 2.0 * 64 * n * k) << name;
      EXPECT_EQ(ceilings::wgmma_instruction(name, n),
                "wgmma.mma_async.m64n" + std::to_string(n) + "k" + std::to_string(k));
    }
  }
  EXPECT_EQ(wgmma_ops("tc_fp16", 256), 524288.0);   // m64n256k16
  EXPECT_EQ(wgmma_ops("tc_tf32", 128), 131072.0);   // m64n128k8
  EXPECT_EQ(wgmma_ops("tc_int8", 256), 1048576.0);  // m64n256k32
  EXPECT_THROW(wgmma_sweep("tc_fp4"), Error);
}

TEST(Tensor, WgmmaSweepsOnlyForHopperBuildsOnHopper) {
  EXPECT_TRUE(wgmma_in_plan("sm_90", "9.0"));
  EXPECT_FALSE(wgmma_in_plan("sm_90", "10.0"));  // sm_90a code runs on no other GPU
  EXPECT_FALSE(wgmma_in_plan("sm_80", "9.0"));   // no sm_90a code in the build
  EXPECT_FALSE(wgmma_in_plan("sm_89", "8.9"));
  EXPECT_FALSE(wgmma_in_plan("", ""));  // a build without CUDA
}

TEST(Tensor, HoppersFp8MmaSyncIsNotMeasured) {
  // Hopper's FP8 mma.sync is FP16 HMMA plus FADDs in its SASS, the unchanging products
  // computed once per pass: its points would time FADDs (the H200 of 2026-11-27 recorded 1.63 PFLOP/s
  // for them, beside 0.58 for FP16's mma.sync).
  for (const char* fp8 : {"tc_fp8_e4m3", "tc_fp8_e5m2"}) {
    const std::string why = tensor_mma_unfit(fp8, "9.0");
    EXPECT_NE(why.find("no FP8 mma.sync unit"), std::string::npos) << why;
    EXPECT_NE(why.find("compute capability 9.0"), std::string::npos) << why;
    EXPECT_EQ(tensor_mma_unfit(fp8, "8.9"), "");  // Ada's FP8 mma.sync is its own unit
  }
  for (const char* name : kTensorFigures) {
    if (std::string(name).rfind("tc_fp8", 0) != 0) {
      EXPECT_EQ(tensor_mma_unfit(name, "9.0"), "");
    }
  }
  EXPECT_EQ(tensor_mma_unfit("tc_fp16", ""), "");  // no GPU: nothing to say
  EXPECT_THROW(tensor_mma_unfit("tc_fp4", "9.0"), Error);
}

core::SweepPoint rate_point(const std::string& sweep, double x, double value) {
  core::SweepPoint p;
  p.sweep = sweep;
  p.x = x;
  p.values = {value, value};
  p.seconds = {1e-3, 1e-3};
  p.clock_ghz = {1.755, 1.755};
  return p;
}

TEST(Tensor, TheFigureNamesTheInstructionOfItsBestPoint) {
  core::Machine h100;
  h100.compute_capability = "9.0";
  h100.cores = 132;
  // wgmma above mma.sync: the figure is wgmma's, with no mma.sync remark.
  auto figures = ceilings::tensor_figures(
      {rate_point("tc_fp16", 8, 5e5), rate_point("tc_fp16:wgmma", 128, 7e5),
       rate_point("tc_fp16:wgmma", 256, 9e5), rate_point("tc_int8", 4, 1e6)},
      h100);
  ASSERT_EQ(figures.size(), 2u);
  EXPECT_EQ(figures[0].name, "tc_fp16");
  EXPECT_EQ(figures[0].value, 9e5);
  EXPECT_EQ(figures[0].pattern, "wgmma.mma_async.m64n256k16");
  EXPECT_NE(figures[0].note.find("wgmma.mma_async.m64n256k16"), std::string::npos);
  EXPECT_EQ(figures[0].note.find("not wgmma"), std::string::npos) << figures[0].note;
  ASSERT_TRUE(figures[0].theoretical);  // the unit's peak, whichever instruction
  EXPECT_NEAR(*figures[0].theoretical, 4096.0 * 132 * 1.755, 1e-6);
  // mma.sync alone: its instruction, and on 9.0 the remark that it is not wgmma.
  EXPECT_EQ(figures[1].pattern, "mma.sync.m16n8k32");
  EXPECT_NE(figures[1].note.find("not wgmma"), std::string::npos) << figures[1].note;
  // mma.sync above wgmma (a wgmma sweep held back): mma.sync's figure.
  figures = ceilings::tensor_figures(
      {rate_point("tc_bf16", 2, 6e5), rate_point("tc_bf16:wgmma", 128, 1e5)}, h100);
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_EQ(figures[0].pattern, "mma.sync.m16n8k16");
  EXPECT_EQ(figures[0].value, 6e5);
}

TEST(Tensor, TheFp64FigureNamesItsBuildsShape) {
  core::Machine h100;
  h100.compute_capability = "9.0";
  h100.cores = 132;
  h100.device_arch = "sm_90";
  auto figures = ceilings::tensor_figures({rate_point("tc_fp64", 4, 6.5e4)}, h100);
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_EQ(figures[0].pattern, "mma.sync.m16n8k16");
  EXPECT_NE(figures[0].note.find("mma.sync.m16n8k16 at 4 accumulators"), std::string::npos)
      << figures[0].note;
  EXPECT_EQ(figures[0].note.find("below the dense peak"), std::string::npos) << figures[0].note;
  EXPECT_EQ(figures[0].note.find("wgmma"), std::string::npos) << figures[0].note;  // none for FP64
  ASSERT_TRUE(figures[0].theoretical);
  EXPECT_NEAR(*figures[0].theoretical, 256.0 * 132 * 1.755, 1e-6);
  // A build for sm_80 on the same GPU: m8n8k4, below the dense peak.
  h100.device_arch = "sm_80";
  figures = ceilings::tensor_figures({rate_point("tc_fp64", 4, 3.3e4)}, h100);
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_EQ(figures[0].pattern, "mma.sync.m8n8k4");
  EXPECT_NE(figures[0].note.find("below the dense peak"), std::string::npos) << figures[0].note;
  // Compute capability 8.0 (A100): m8n8k4 and no Hopper remark.
  core::Machine a100;
  a100.compute_capability = "8.0";
  a100.cores = 108;
  a100.device_arch = "sm_80";
  figures = ceilings::tensor_figures({rate_point("tc_fp64", 2, 1.9e4)}, a100);
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_EQ(figures[0].pattern, "mma.sync.m8n8k4");
  EXPECT_EQ(figures[0].note.find("below"), std::string::npos) << figures[0].note;
}

#if !ROOFTOP_TEST_ON_DEVICE
TEST(Tensor, TheHostSpaceReportsTheUnitsAbsent) {
  DevicePlan plan;
  plan.threads = 1024;
  std::vector<std::string> skipped;
  std::size_t progress_calls = 0;
  const auto points = run_tensor_sweeps<Space>(
      plan, [&](std::size_t, std::size_t, const std::string&) { ++progress_calls; }, &skipped);
  EXPECT_TRUE(points.empty());  // no faked rate
  ASSERT_EQ(skipped.size(), std::size(kTensorFigures));
  for (std::size_t i = 0; i < skipped.size(); ++i) {
    EXPECT_EQ(skipped[i].rfind(std::string(kTensorFigures[i]) + ": no tensor cores", 0), 0u)
        << skipped[i];
  }
  EXPECT_TRUE(run_tensor_sweeps<Space>(plan, nullptr).empty());
  core::Sampling sampling;
  EXPECT_THROW(measure_tensor<Space>("tc_fp16", 1, 256, 1, sampling), Error);
}
#else
TEST(Tensor, EveryFigureOnTheDevice) {
  core::Sampling sampling;
  sampling.samples = 2;
  sampling.min_sample_seconds = 0.001;
  for (const char* name : kTensorFigures)
    for (int acc : kTensorAccumulators) {
      try {
        const core::SweepPoint p = measure_tensor<Space>(name, acc, 1024, 4, sampling);
        EXPECT_EQ(p.sweep, name);
        EXPECT_EQ(p.x, acc);
        ASSERT_FALSE(p.values.empty());
        EXPECT_GT(p.values[0], 0.0);
        EXPECT_EQ(p.clock_ghz.size(), p.values.size());
      } catch (const Error& e) {
        // Only a unit the GPU's build lacks, or one its GPU emulates, may be missing,
        // never a wrong answer.
        const std::string what = e.what();
        if (tensor_mma_unfit(name, device::cuda_compute_capability()).empty())
          EXPECT_NE(what.find("in the code built for this GPU"), std::string::npos) << what;
        else
          EXPECT_NE(what.find("no FP8 mma.sync unit"), std::string::npos) << what;
      }
    }
}

TEST(Tensor, EveryWgmmaPointOnHopper) {
  if (device::cuda_compute_capability() != "9.0") GTEST_SKIP() << "not compute capability 9.0";
  core::Sampling sampling;
  sampling.samples = 2;
  sampling.min_sample_seconds = 0.001;
  for (const char* name : kTensorFigures) {
    if (wgmma_sweep(name).empty()) continue;
    for (int n : kWgmmaN) {
      try {
        const core::SweepPoint p = device::measure_wgmma(name, n, 4, sampling, nullptr);
        EXPECT_EQ(p.sweep, wgmma_sweep(name));
        EXPECT_EQ(p.x, n);
        ASSERT_FALSE(p.values.empty());
        EXPECT_GT(p.values[0], 0.0);
      } catch (const Error& e) {
        // Only a build without sm_90a code (or whose generic code was loaded) may not
        // run it, never a wrong answer.
        EXPECT_NE(std::string(e.what()).find("wgmma not run"), std::string::npos) << e.what();
      }
    }
  }
}
#endif

}  // namespace
}  // namespace rooftop::microbench
