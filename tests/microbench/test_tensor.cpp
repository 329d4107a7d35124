// The tensor-core sweeps. Their arithmetic needs tensor cores: under the host space
// (label unit) the units are reported absent and the answer check is tested on its own
// (operand encodings, accumulator decoding, the expected value); under the device space
// (label device, ROOFTOP_TEST_ON_DEVICE) every figure runs at a small size, checked.

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <string>

#include "rooftop/ceilings/tensor_peaks.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/microbench/tensor.hpp"

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
        // Only a unit the GPU's build lacks may be missing, never a wrong answer.
        EXPECT_NE(std::string(e.what()).find("in the code built for this GPU"), std::string::npos)
            << e.what();
      }
    }
}
#endif

}  // namespace
}  // namespace rooftop::microbench
