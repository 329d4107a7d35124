// The chart of a GPU characterization: its levels by their names, no CPU cache windows.

#include <gtest/gtest.h>

#include <string>

#include "rooftop/report/chart.hpp"
#include "rooftop/ceilings/extract.hpp"

namespace rooftop::report {
namespace {

core::CeilingsFile device_file() {
  core::CeilingsFile f;
  core::Machine& m = f.machine;
  m.execution_space = "Cuda";
  m.gpu_name = "Test GPU";
  m.compute_capability = "9.0";
  m.cores = 132;
  m.threads = 270336;
  m.clock_ghz = 1.98;
  m.memory_clock_ghz = 2.619;
  m.memory_bus_bits = 5120;
  m.caches = {{"l2", 50u << 20, 270336}};
  const auto point = [](const std::string& pattern, std::uint64_t ws, double rate) {
    core::BandwidthPoint p;
    p.pattern = pattern;
    p.working_set_bytes = ws;
    p.values = {rate, rate};
    p.seconds = {0.1, 0.1};
    return p;
  };
  f.sweeps.bandwidth = {point("l1:read", 32 << 10, 31000),    point("shared:read", 16 << 10, 30500),
                        point("l2:read", 12800u << 10, 9600), point("l2-far:read", 40u << 20, 7100),
                        point("dram:read", 2u << 30, 3150),   point("dram:triad", 6u << 30, 3000)};
  core::ComputePoint c;
  c.precision = "fp64";
  c.mode = "fma";
  c.flops_per_element = 30976;
  c.working_set_bytes = 8u * 270336 * 8;
  c.values = {32000, 32000};
  c.seconds = {0.1, 0.1};
  f.sweeps.compute = {c};
  f.ceilings = ceilings::extract_ceilings(m, f.sweeps);
  return f;
}

TEST(DeviceChart, NamesTheGpuLevels) {
  const std::string svg = roofline_svg(device_file());
  for (const char* name : {"l1", "shared", "l2", "dram", "fp64_fma"})
    EXPECT_NE(svg.find(std::string(">") + name), std::string::npos) << name;
  // Every point of the sweep, named by its level and pattern.
  for (const char* pattern : {"l1:read", "shared:read", "l2-far:read", "dram:triad"})
    EXPECT_NE(svg.find(std::string(">") + pattern + " "), std::string::npos) << pattern;
  // No CPU cache window (the "l2 50 MiB" capacity line) and no FLOPs-per-element trace.
  EXPECT_EQ(svg.find("l2 50 MiB"), std::string::npos);
  EXPECT_EQ(svg.find("class='trace'"), std::string::npos);
}

}  // namespace
}  // namespace rooftop::report
