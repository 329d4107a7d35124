// The tensor-core peaks table against the whitepapers' totals, and the figures made from
// synthetic sweep points.
#include <gtest/gtest.h>

#include "rooftop/ceilings/tensor_peaks.hpp"

namespace rooftop::ceilings {
namespace {

// A whitepaper total (TFLOP/s or TOP/s, dense) of `sms` SMs at `ghz`.
struct Total {
  const char* cc;
  const char* figure;
  int sms;
  double ghz, tera, tolerance;
};

TEST(TensorPeaks, ReproduceTheWhitepapersTotals) {
  constexpr Total kTotals[] = {
      // H100 SXM5, 132 SMs: the tensor totals are at 1.83 GHz, FP64 at 1.98 GHz.
      {"9.0", "tc_fp16", 132, 1.83, 989.4, 0.5},
      {"9.0", "tc_bf16", 132, 1.83, 989.4, 0.5},
      {"9.0", "tc_fp16_acc16", 132, 1.83, 989.4, 0.5},
      {"9.0", "tc_tf32", 132, 1.83, 494.7, 0.5},
      {"9.0", "tc_fp8_e4m3", 132, 1.83, 1978.9, 0.5},
      {"9.0", "tc_fp8_e5m2", 132, 1.83, 1978.9, 0.5},
      {"9.0", "tc_int8", 132, 1.83, 1978.9, 0.5},
      {"9.0", "tc_fp64", 132, 1.98, 66.9, 0.1},
      // A100 SXM4: 108 SMs at 1.41 GHz.
      {"8.0", "tc_fp64", 108, 1.41, 19.5, 0.1},
      {"8.0", "tc_tf32", 108, 1.41, 156.0, 0.5},
      {"8.0", "tc_fp16", 108, 1.41, 312.0, 0.5},
      {"8.0", "tc_int8", 108, 1.41, 624.0, 1.0},
      // RTX 4090: 128 SMs at 2.52 GHz.
      {"8.9", "tc_tf32", 128, 2.52, 82.6, 0.1},
      {"8.9", "tc_fp16_acc16", 128, 2.52, 330.3, 0.2},
      {"8.9", "tc_fp8_e4m3", 128, 2.52, 660.6, 0.3},
      {"8.9", "tc_int8", 128, 2.52, 660.6, 0.3},
  };
  for (const Total& t : kTotals) {
    const auto per = tensor_peak_per_sm_per_clock(t.cc, t.figure);
    ASSERT_TRUE(per.has_value()) << t.cc << " " << t.figure;
    EXPECT_NEAR(*per * t.sms * t.ghz * 1e-3, t.tera, t.tolerance) << t.cc << " " << t.figure;
  }
  // Tensor FP64 on 9.0 is twice the FMA pipes' 64 lanes x 2 FLOP.
  EXPECT_EQ(*tensor_peak_per_sm_per_clock("9.0", "tc_fp64"), 2.0 * 64 * 2);
}

TEST(TensorPeaks, UnknownWhereThePartHasNoSuchUnit) {
  EXPECT_FALSE(tensor_peak_per_sm_per_clock("8.0", "tc_fp8_e4m3"));  // FP8 came with 8.9
  EXPECT_FALSE(tensor_peak_per_sm_per_clock("8.9", "tc_fp64"));
  EXPECT_FALSE(tensor_peak_per_sm_per_clock("7.5", "tc_fp16"));
  EXPECT_FALSE(tensor_peak_per_sm_per_clock("9.0", "fp64_fma"));
  EXPECT_FALSE(tensor_peak_per_sm_per_clock("", "tc_fp16"));
}

core::SweepPoint point(const char* sweep, double x, std::vector<double> values,
                       std::vector<double> clocks) {
  core::SweepPoint p;
  p.sweep = sweep;
  p.x = x;
  p.values = std::move(values);
  p.seconds.assign(p.values.size(), 0.01);
  p.clock_ghz = std::move(clocks);
  return p;
}

core::Machine h100() {
  core::Machine m;
  m.execution_space = "Cuda";
  m.compute_capability = "9.0";
  m.cores = 132;
  return m;
}

TEST(TensorFigures, BestPointPerSweepWithItsOwnClock) {
  const std::vector<core::SweepPoint> points = {
      point("tc_fp16", 1, {100e3, 110e3, 105e3}, {1.7, 1.75, 1.7}),
      point("tc_fp16", 4, {600e3, 650e3, 640e3}, {1.6, 1.65, 1.62}),
      point("tc_fp16", 8, {620e3, 630e3, 500e3}, {1.98, 1.98, 1.98}),  // lower median
      point("tc_fp64", 2, {50e3, 52e3, 51e3}, {1.98, 1.9, 1.95}),
      point("h2d:pinned", 1, {25.0}, {}),  // not a tensor sweep
  };
  const auto figures = tensor_figures(points, h100());
  ASSERT_EQ(figures.size(), 2u);
  // kFigures order: tc_fp64 first.
  EXPECT_EQ(figures[0].name, "tc_fp64");
  EXPECT_EQ(figures[0].pattern, "mma.sync.m8n8k4");
  ASSERT_TRUE(figures[0].theoretical);
  EXPECT_NEAR(*figures[0].theoretical, 256.0 * 132 * 1.98, 1e-6);
  const core::Ceiling& fp16 = figures[1];
  EXPECT_EQ(fp16.name, "tc_fp16");
  EXPECT_EQ(fp16.kind, "compute");
  EXPECT_EQ(fp16.units, "GFLOP/s");
  EXPECT_EQ(fp16.pattern, "mma.sync.m16n8k16");
  EXPECT_DOUBLE_EQ(fp16.value, 640e3);
  EXPECT_DOUBLE_EQ(fp16.min, 600e3);
  EXPECT_DOUBLE_EQ(fp16.max, 650e3);
  EXPECT_EQ(fp16.samples, 3);
  ASSERT_TRUE(fp16.theoretical);
  // The highest clock of the best point's samples.
  EXPECT_NEAR(*fp16.theoretical, 4096.0 * 132 * 1.65, 1e-6);
  EXPECT_NEAR(*fp16.fraction_of_theoretical(), 640e3 / (4096.0 * 132 * 1.65), 1e-12);
  EXPECT_FALSE(fp16.above_theoretical());
  EXPECT_NE(fp16.note.find("4 accumulators"), std::string::npos) << fp16.note;
  EXPECT_NE(fp16.note.find("not wgmma"), std::string::npos) << fp16.note;
}

TEST(TensorFigures, AboveThePeakIsFlaggedAndUnknownPeaksStayEmpty) {
  // 1.1 x the peak at the samples' clock: a measurement bug, flagged.
  const double peak = 8192.0 * 132 * 1.5;
  auto figures = tensor_figures({point("tc_int8", 8, {1.1 * peak}, {1.5})}, h100());
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_EQ(figures[0].units, "GOP/s");
  EXPECT_TRUE(figures[0].above_theoretical());

  core::Machine unknown = h100();
  unknown.compute_capability = "7.5";
  figures = tensor_figures({point("tc_fp16", 2, {1e3}, {1.5})}, unknown);
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_FALSE(figures[0].theoretical);
  EXPECT_EQ(figures[0].note.find("wgmma"), std::string::npos);  // a Hopper note only
  // No clock recorded: no peak either.
  figures = tensor_figures({point("tc_fp16", 2, {1e3}, {})}, h100());
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_FALSE(figures[0].theoretical);
  EXPECT_TRUE(tensor_figures({}, h100()).empty());
}

}  // namespace
}  // namespace rooftop::ceilings
