// rooftop_ceilings for a GPU: theoretical peaks by compute capability, and device levels
// named by their kernels ("dram:triad"), never by working-set windows.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rooftop/ceilings/compare.hpp"
#include "rooftop/ceilings/device_peaks.hpp"
#include "rooftop/ceilings/extract.hpp"
#include "support.hpp"

namespace rooftop::ceilings {
namespace {

core::Machine h100_sxm() {
  core::Machine m;
  m.execution_space = "Cuda";
  m.gpu_name = "NVIDIA H100 80GB HBM3";
  m.compute_capability = "9.0";
  m.cores = 132;
  m.clock_ghz = 1.98;
  m.memory_clock_ghz = 2.619;
  m.memory_bus_bits = 5120;
  m.caches = {{"l2", 50u * 1024 * 1024, 270336}};
  return m;
}

core::BandwidthPoint point(const std::string& pattern, std::vector<double> rates) {
  core::BandwidthPoint p;
  p.pattern = pattern;
  p.working_set_bytes = 1024;
  p.values = rates;
  p.seconds.assign(rates.size(), 0.1);
  return p;
}

core::ComputePoint compute(const std::string& precision, const std::string& mode, double rate) {
  core::ComputePoint p;
  p.precision = precision;
  p.mode = mode;
  p.values = {rate, rate};
  p.seconds = {0.1, 0.1};
  return p;
}

TEST(DevicePeaks, LanesByComputeCapability) {
  EXPECT_EQ(device_fp_lanes("9.0", "fp64"), 64);
  EXPECT_EQ(device_fp_lanes("9.0", "fp32"), 128);
  EXPECT_EQ(device_fp_lanes("8.0", "fp32"), 64);
  EXPECT_EQ(device_fp_lanes("8.9", "fp64"), 2);
  EXPECT_FALSE(device_fp_lanes("6.1", "fp64").has_value());
  EXPECT_FALSE(device_fp_lanes("9.0", "fp16").has_value());
}

TEST(DevicePeaks, SplitsLevelAndPattern) {
  EXPECT_EQ(split_device_pattern("dram:triad"),
            (std::pair<std::string, std::string>{"dram", "triad"}));
  EXPECT_EQ(split_device_pattern("triad"), (std::pair<std::string, std::string>{"", "triad"}));
}

TEST(DevicePeaks, TheoreticalFromSmsLanesClocksAndBus) {
  const core::Machine m = h100_sxm();
  core::Sweeps s;
  s.compute = {compute("fp64", "fma", 30000), compute("fp64", "nofma", 16000),
               compute("fp32", "fma", 60000), compute("fp32", "nofma", 32000)};
  s.bandwidth = {point("l1:read", {30000}),  point("shared:read", {31000}),
                 point("l2:read", {9500}),   point("l2-far:read", {7000}),
                 point("dram:read", {3100}), point("dram:triad", {3000})};
  std::vector<std::string> skipped;
  const std::vector<core::Ceiling> cs = extract_ceilings(m, s, &skipped);
  EXPECT_TRUE(skipped.empty());
  ASSERT_EQ(cs.size(), 8u);
  const auto find = [&](const std::string& name) -> const core::Ceiling& {
    for (const core::Ceiling& c : cs)
      if (c.name == name) return c;
    throw std::runtime_error("no " + name);
  };
  EXPECT_NEAR(*find("fp64_fma").theoretical, 132 * 64 * 2 * 1.98, 1e-6);  // 33454.08
  EXPECT_NEAR(*find("fp64_nofma").theoretical, 132 * 64 * 1.98, 1e-6);
  EXPECT_NEAR(*find("fp32_fma").theoretical, 132 * 128 * 2 * 1.98, 1e-6);
  EXPECT_NEAR(*find("l1").theoretical, 132 * 128 * 1.98, 1e-6);
  EXPECT_NEAR(*find("shared").theoretical, 132 * 128 * 1.98, 1e-6);
  EXPECT_NEAR(*find("dram").theoretical, 2 * 2.619 * 5120 / 8.0, 1e-6);  // 3352.32 GB/s
  EXPECT_FALSE(find("l2").theoretical.has_value());
  EXPECT_NE(find("l2").note.find("B/clock/SM"), std::string::npos);
  EXPECT_EQ(find("dram").pattern, "read");  // the best pattern, without its level
  EXPECT_EQ(find("shared").value, 31000);
  EXPECT_FALSE(find("fp64_fma").above_theoretical());
}

TEST(DevicePeaks, CrossPartitionPointNeverSetsTheL2Ceiling) {
  core::Sweeps s;
  s.bandwidth = {point("l2:read", {5000}), point("l2-far:read", {9000})};
  std::vector<std::string> skipped;
  const std::vector<core::Ceiling> cs = extract_ceilings(h100_sxm(), s, &skipped);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].name, "l2");
  EXPECT_EQ(cs[0].value, 5000);
  EXPECT_EQ(skipped.size(), 4u + 3u);  // four compute ceilings, l1, shared, dram
}

TEST(DevicePeaks, AboveThePeakIsFlagged) {
  core::Sweeps s;
  s.bandwidth = {point("dram:write", {3500})};  // above 3352 GB/s
  const std::vector<core::Ceiling> cs = extract_ceilings(h100_sxm(), s);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_TRUE(cs[0].above_theoretical());
  EXPECT_NE(cs[0].note.find("ABOVE"), std::string::npos);
}

TEST(DevicePeaks, UnknownComputeCapabilityHasNoComputePeak) {
  core::Machine m = h100_sxm();
  m.compute_capability = "6.1";
  core::Sweeps s;
  s.compute = {compute("fp64", "fma", 100)};
  const std::vector<core::Ceiling> cs = extract_ceilings(m, s);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_FALSE(cs[0].theoretical.has_value());
}

// A power-throttled GPU looks perfect at its own clock: the bases of the clock-bound
// ceilings give the share of the peak at the nominal clock; dram's peak is no clock's.
TEST(DevicePeaks, ThrottledClockGetsTheFractionAtTheNominalClock) {
  core::Machine m = h100_sxm();
  m.nominal_clock_ghz = 1.98;
  m.clock_ghz = 1.4;  // below 0.9 x 1.98 = 1.782
  core::Sweeps s;
  s.compute = {compute("fp64", "fma", 23000)};  // 98 % of 132 x 64 x 2 x 1.4 = 23654
  s.bandwidth = {point("shared:read", {23000}), point("dram:read", {3100})};
  const std::vector<core::Ceiling> cs = extract_ceilings(m, s);
  ASSERT_EQ(cs.size(), 3u);
  EXPECT_NEAR(*cs[0].fraction_of_theoretical(), 23000 / (132 * 64 * 2 * 1.4), 1e-9);
  // 23000 / (132 x 64 x 2 x 1.98) = 68.8 %
  const std::string& basis = cs[0].theoretical_basis;
  EXPECT_NE(basis.find("x 1.400 GHz"), std::string::npos) << basis;  // the peak's own clock
  EXPECT_NE(basis.find("THROTTLED"), std::string::npos) << basis;
  EXPECT_NE(basis.find("68.8 % of the peak at the nominal clock (33454.1 GFLOP/s)"),
            std::string::npos)
      << basis;
  EXPECT_NE(cs[1].theoretical_basis.find("THROTTLED"), std::string::npos);  // shared
  EXPECT_EQ(cs[2].theoretical_basis.find("THROTTLED"), std::string::npos);  // dram
  // At 0.9 x nominal or above, or with no nominal clock known: nothing said.
  m.clock_ghz = 1.8;
  EXPECT_EQ(extract_ceilings(m, s)[0].theoretical_basis.find("THROTTLED"), std::string::npos);
  m.clock_ghz = 1.4;
  m.nominal_clock_ghz = 0.0;
  EXPECT_EQ(extract_ceilings(m, s)[0].theoretical_basis.find("THROTTLED"), std::string::npos);
  EXPECT_TRUE(device_clock_throttled(1.7, 1.98));
  EXPECT_FALSE(device_clock_throttled(1.79, 1.98));
  EXPECT_FALSE(device_clock_throttled(0.0, 1.98));
}

// A MIG slice: its SMs are its own, its memory clock, bus and L2 are the whole GPU's.
TEST(DevicePeaks, MigSliceHasNoDramPeak) {
  core::Machine m = h100_sxm();
  m.gpu_name = "NVIDIA H100 80GB HBM3 MIG 1g.10gb";
  m.cores = 16;
  EXPECT_TRUE(is_mig_slice(m));
  core::Sweeps s;
  s.compute = {compute("fp64", "fma", 3900)};
  s.bandwidth = {point("l2:read", {1000}), point("dram:read", {400})};
  const std::vector<core::Ceiling> cs = extract_ceilings(m, s);
  ASSERT_EQ(cs.size(), 3u);
  EXPECT_NEAR(*cs[0].theoretical, 16 * 64 * 2 * 1.98, 1e-6);  // the slice's SMs
  EXPECT_EQ(cs[1].name, "l2");
  EXPECT_NE(cs[1].note.find("MIG slice"), std::string::npos) << cs[1].note;
  EXPECT_EQ(cs[2].name, "dram");
  EXPECT_FALSE(cs[2].theoretical.has_value());
  EXPECT_NE(cs[2].note.find("MIG slice: no theoretical peak"), std::string::npos);
  EXPECT_FALSE(is_mig_slice(h100_sxm()));
}

// A CPU file against a GPU file: the ceilings they share side by side, the others empty.
TEST(DevicePeaks, CompareOfACpuFileWithAGpuFile) {
  const core::CeilingsFile cpu = testing::sample_ceilings_file();  // fp64_fma and dram
  core::CeilingsFile gpu;
  gpu.machine = h100_sxm();
  gpu.sweeps.compute = {compute("fp64", "fma", 30000)};
  gpu.sweeps.bandwidth = {point("shared:read", {31000}), point("dram:read", {3100})};
  gpu.ceilings = extract_ceilings(gpu.machine, gpu.sweeps);
  const Comparison c = compare({cpu, gpu}, {"cpu.h5", "gpu.h5"});
  std::vector<std::string> names;
  for (const ComparedCeiling& cc : c.ceilings) {
    names.push_back(cc.name);
    ASSERT_EQ(cc.ceilings.size(), 2u);
    if (cc.name == "fp64_fma" || cc.name == "dram") {
      EXPECT_TRUE(cc.ceilings[0] && cc.ceilings[1]) << cc.name;
      ASSERT_TRUE(cc.ratios[1].has_value());
      EXPECT_GT(*cc.ratios[1], 1.0) << cc.name;
    }
    if (cc.name == "shared") {
      EXPECT_FALSE(cc.ceilings[0].has_value());
    }
  }
  EXPECT_NE(std::find(names.begin(), names.end(), "shared"), names.end());
}

}  // namespace
}  // namespace rooftop::ceilings
