// Hostile profiler reports: parsing stays linear in the input, and counts that cannot
// be measurements are refused.

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "rooftop/counters/import.hpp"
#include "support.hpp"

namespace rooftop::counters {
namespace {

using rooftop::testing::error_of;

const std::string kImport = std::string(ROOFTOP_TEST_FIXTURES) + "/import/";

std::string nvprof_report(const std::string& throughput) {
  return "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\","
         "\"Min\",\"Max\",\"Avg\"\n"
         "\"GPU (0)\",\"k\",1,\"flop_count_dp\",\"FLOPs\",100,100,100\n"
         "\"GPU (0)\",\"k\",1,\"dram_read_throughput\",\"read\",\"" +
         throughput + "\",\"" + throughput + "\",\"" + throughput + "\"\n";
}

// One field of a million digits took minutes: every prefix was parsed again.
TEST(HostileImport, AMillionDigitFieldIsParsedInLinearTime) {
  const std::string digits = "0." + std::string(1000000, '0') + "5GB/s";
  const auto t0 = std::chrono::steady_clock::now();
  try {
    parse_report(nvprof_report(digits), "long.csv");
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}

TEST(HostileImport, UnitsStillSplitFromTheLongestNumber) {
  const ImportResult r = parse_report(nvprof_report("1,024.5GB/s"), "units.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].flops_fp64, 100.0);
}

TEST(HostileImport, ZeroInvocationsAreRefused) {
  const std::string name = kImport + "nvprof-zero-invocations.csv";
  const std::string msg = error_of([&] { parse_report(rooftop::testing::read_bytes(name), name); });
  EXPECT_NE(msg.find("Invocations \"0\" is not a positive whole number"), std::string::npos) << msg;
}

TEST(HostileImport, AnEmptyTimingFileIsAnErrorNotNoTiming) {
  const std::string name = kImport + "nvprof-metrics-interval-dp.csv";
  const std::string msg = error_of(
      [&] { parse_report(rooftop::testing::read_bytes(name), name, "", "empty-trace.csv"); });
  EXPECT_NE(msg.find("empty-trace.csv"), std::string::npos) << msg;
}

}  // namespace
}  // namespace rooftop::counters
