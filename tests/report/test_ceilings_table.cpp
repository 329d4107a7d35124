// rooftop_report: the ceilings file's table and JSON (show, measure).

#include <gtest/gtest.h>

#include <string>

#include "rooftop/ceilings/io.hpp"
#include "rooftop/report/ceilings_table.hpp"
#include "support.hpp"

namespace rooftop::report {
namespace {

using rooftop::testing::MiB;

TEST(CeilingsJson, HasTheKeysTheDesignPromises) {
  const nlohmann::json j = ceilings_json(rooftop::testing::sample_ceilings_file());
  ASSERT_TRUE(j.contains("schema_version"));
  EXPECT_TRUE(j["schema_version"].is_string());
  ASSERT_TRUE(j.contains("machine"));
  EXPECT_TRUE(j["machine"].is_object());
  ASSERT_TRUE(j.contains("ceilings"));
  ASSERT_TRUE(j["ceilings"].is_array());
  ASSERT_EQ(j["ceilings"].size(), 2u);
  for (const nlohmann::json& c : j["ceilings"]) {
    for (const char* key : {"name", "kind", "value", "units", "median", "min", "max", "samples",
                            "measured", "theoretical", "fraction_of_theoretical"})
      EXPECT_TRUE(c.contains(key)) << "missing key " << key << " in " << c.dump();
  }
  const nlohmann::json& fma = j["ceilings"][0];
  EXPECT_EQ(fma["name"], "fp64_fma");
  EXPECT_EQ(fma["kind"], "compute");
  EXPECT_EQ(fma["units"], "GFLOP/s");
  EXPECT_DOUBLE_EQ(fma["value"].get<double>(), 101.5);
  EXPECT_EQ(fma["samples"], 5);
}

TEST(CeilingsJson, TheoreticalAndFractionAreNumbersWhereKnownAndNullWhereNot) {
  const nlohmann::json j = ceilings_json(rooftop::testing::sample_ceilings_file());
  const nlohmann::json& known = j["ceilings"][0];
  const nlohmann::json& unknown = j["ceilings"][1];
  ASSERT_TRUE(known["theoretical"].is_number());
  EXPECT_DOUBLE_EQ(known["theoretical"].get<double>(), 136.0);
  ASSERT_TRUE(known["fraction_of_theoretical"].is_number());
  EXPECT_DOUBLE_EQ(known["fraction_of_theoretical"].get<double>(), 101.5 / 136.0);
  EXPECT_TRUE(unknown["theoretical"].is_null());
  EXPECT_TRUE(unknown["fraction_of_theoretical"].is_null());
}

TEST(CeilingsJson, MachineListsCachesWithSizesAndSharing) {
  const nlohmann::json j = ceilings_json(rooftop::testing::sample_ceilings_file());
  const nlohmann::json& m = j["machine"];
  EXPECT_EQ(m["cpu_model"], "Test CPU 9000");
  EXPECT_EQ(m["threads"], 4);
  ASSERT_TRUE(m["caches"].is_array());
  ASSERT_EQ(m["caches"].size(), 3u);
  EXPECT_EQ(m["caches"][2]["level"], "l3");
  EXPECT_EQ(m["caches"][2]["bytes"], 105 * MiB);
  EXPECT_EQ(m["caches"][2]["shared_by"], 4);
}

TEST(CeilingsTable, MeasuredMachineLineCachesClockAndNotes) {
  const std::string text = ceilings_table(rooftop::testing::sample_ceilings_file());
  EXPECT_NE(text.find("machine: Test GPU on node017; OpenMP, 4 threads on 2 SMs\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("caches: l1 48 KiB"), std::string::npos) << text;
  EXPECT_NE(text.find("clock: 2.125 GHz"), std::string::npos) << text;
  EXPECT_NE(text.find("notes:\n  dram: measured with another job running\n"), std::string::npos)
      << text;
}

// A name from a file that holds a line break once split the machine line in two.
TEST(CeilingsTable, NamesWithLineBreaksKeepTheHeaderLinesWhole) {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  f.machine.gpu_name = "x\ny";
  f.machine.hostname = "node\r\t017";
  f.machine.caches[0].name = "l1\nl2";
  const std::string text = ceilings_table(f);
  EXPECT_NE(text.find("machine: x\\ny on node\\r\\t017; OpenMP, 4 threads on 2 SMs\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("caches: l1\\nl2 48 KiB"), std::string::npos) << text;
}

TEST(CeilingsTable, AHostSaysWhereItsPipesComeFromOrWhyThereAreNone) {
  core::CeilingsFile f;
  f.machine.cpu_model = "12th Gen Intel(R) Core(TM) i9-12900K";
  f.machine.hardware_model = "unknown core (GenuineIntel family 0x6 model 0x97): no theoretical peak";
  const std::string text = ceilings_table(f);
  EXPECT_NE(text.find("vector units: unknown core (GenuineIntel family 0x6 model 0x97): no "
                      "theoretical peak\n"),
            std::string::npos)
      << text;
  f.machine.gpu_name = "NVIDIA H100";  // a device file's pipes are not the host's
  EXPECT_EQ(ceilings_table(f).find("vector units:"), std::string::npos);
}

TEST(CeilingsTable, FactsAFileDoesNotHaveAreLeftOut) {
  core::CeilingsFile f;
  f.machine.gpu_name = "Imported GPU";
  f.ceilings = {rooftop::testing::make_ceiling("dram", 800.0, 800.0, 800.0, 1)};
  const std::string text = ceilings_table(f);
  EXPECT_NE(text.find("machine: Imported GPU\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("caches:"), std::string::npos) << text;
  EXPECT_EQ(text.find("clock:"), std::string::npos) << text;
  EXPECT_EQ(text.find("notes:"), std::string::npos) << text;
}

// A GPU file lists every bandwidth point by pattern and working set (what each ceiling was
// chosen from); the first H200 run's file, as measure wrote it.
TEST(CeilingsTable, AGpuFileListsItsBandwidthPoints) {
  const std::string text = ceilings_table(
      ceilings::read_file(std::string(ROOFTOP_TEST_FIXTURES) + "/h5/h200-ceilings.h5"));
  const auto points =
      text.find("\nbandwidth points (GB/s, median of each point, by working set):\n");
  ASSERT_NE(points, std::string::npos) << text;
  for (const char* line : {"  l1:read: 32 KiB: 32,575\n", "  l2:read: 15 MiB: 9,722\n",
                           "  l2-far:read: 48 MiB: 7,385\n", "  dram:triad: 6 GiB: 3,911\n"})
    EXPECT_NE(text.find(line, points), std::string::npos) << line << text;
  // A host's points are its chart's.
  core::CeilingsFile host = rooftop::testing::sample_ceilings_file();
  host.machine.gpu_name.clear();
  ASSERT_FALSE(host.sweeps.bandwidth.empty());
  EXPECT_EQ(ceilings_table(host).find("bandwidth points"), std::string::npos);
}

// Schema 1.7: each group of figures gets its table, the label and notes of each figure,
// and its sweeps' medians by parameter; the JSON carries both groups, empty or not.
core::CeilingsFile file_with_costs() {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  core::Ceiling latency;
  latency.name = "launch_latency";
  latency.kind = "latency";
  latency.units = "us";
  latency.value = latency.median = 4.25;
  latency.min = 4.0;
  latency.max = 5.0;
  latency.samples = 3;
  latency.note = "an empty kernel";
  f.costs.figures = {latency};
  core::SweepPoint small{{{1e-5, 1e-5}, {4.0, 4.5}, {}, {}}, "launch:sync", 1};
  core::SweepPoint large{{{2e-5, 2e-5}, {20.0, 21.0}, {}, {}}, "launch:sync", 1 << 20};
  f.costs.sweeps = {small, large};
  return f;
}

TEST(CeilingsTable, FiguresAndTheirSweepsFollowTheCeilings) {
  const std::string text = ceilings_table(file_with_costs());
  const auto costs = text.find("\ncosts:\n");
  ASSERT_NE(costs, std::string::npos) << text;
  EXPECT_GT(costs, text.find("fp64_fma"));
  EXPECT_NE(text.find("launch_latency", costs), std::string::npos);
  EXPECT_NE(text.find("launch_latency: empty kernel, launch to completion; an empty kernel"),
            std::string::npos) << text;
  EXPECT_NE(text.find("launch:sync (us by work items per kernel): 1: 4.250 1.04858e+06: 20.50"),
            std::string::npos) << text;
  EXPECT_EQ(text.find("matrix:"), std::string::npos) << "an empty group is left out";
}

TEST(CeilingsJson, FiguresAndSweepsOfBothGroups) {
  const nlohmann::json j = ceilings_json(file_with_costs());
  ASSERT_EQ(j["costs"]["figures"].size(), 1u);
  EXPECT_EQ(j["costs"]["figures"][0]["name"], "launch_latency");
  EXPECT_EQ(j["costs"]["figures"][0]["units"], "us");
  ASSERT_EQ(j["costs"]["sweeps"].size(), 2u);
  EXPECT_EQ(j["costs"]["sweeps"][1]["x"], 1 << 20);
  EXPECT_EQ(j["costs"]["sweeps"][1]["median"], 20.5);
  EXPECT_EQ(j["costs"]["sweeps"][1]["units"], "us");
  EXPECT_TRUE(j["matrix"]["figures"].empty());
  EXPECT_TRUE(j["matrix"]["sweeps"].empty());
}

}  // namespace
}  // namespace rooftop::report
