// Time lost to others while measuring (core::Ceiling::disturbance, schema 1.6): from the
// samples to the ceiling, through the file and back, and what compare and show make of it.

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <limits>
#include <string>

#include "rooftop/ceilings/compare.hpp"
#include "rooftop/ceilings/extract.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/ceilings/validate.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/report/ceilings_table.hpp"
#include "rooftop/report/chart.hpp"
#include "samples.hpp"
#include "support.hpp"

namespace rooftop::ceilings {
namespace {

using rooftop::testing::error_of;
using rooftop::testing::TempDir;

// Overwrites one double of one row of a table in place, through the HDF5 C API (a
// compound memory type of that member alone writes nothing else): what no writer of
// rooftop's would put there.
void poke_double(const std::string& path, const char* table, const char* column,
                 hsize_t row, double value) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  const hid_t set = H5Dopen2(file, table, H5P_DEFAULT);
  ASSERT_GE(set, 0);
  const hid_t member = H5Tcreate(H5T_COMPOUND, sizeof(double));
  H5Tinsert(member, column, 0, H5T_NATIVE_DOUBLE);
  const hid_t space = H5Dget_space(set);
  const hsize_t start[1] = {row}, count[1] = {1};
  H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr);
  const hid_t one = H5Screate_simple(1, count, nullptr);
  EXPECT_GE(H5Dwrite(set, member, one, space, H5P_DEFAULT, &value), 0);
  H5Sclose(one);
  H5Sclose(space);
  H5Tclose(member);
  H5Dclose(set);
  H5Fclose(file);
}

TEST(Disturbance, TheCeilingTakesItsMedianSamples) {
  core::ComputePoint p;
  p.seconds = {1.0, 1.0, 1.0};
  p.disturbance = {0.4, 0.0, 0.01};  // one slow sample does not move the median rate
  ASSERT_TRUE(disturbance_of(p));
  EXPECT_DOUBLE_EQ(*disturbance_of(p), 0.01);
  p.seconds.push_back(1.0);
  p.disturbance.push_back(0.3);
  EXPECT_DOUBLE_EQ(*disturbance_of(p), (0.01 + 0.3) / 2);
  p.disturbance.clear();  // a GPU's samples, or an older file's
  EXPECT_FALSE(disturbance_of(p));
}

TEST(Disturbance, AboveTheShareTheCeilingIsDisturbed) {
  core::Ceiling c;
  EXPECT_FALSE(c.disturbed()) << "unknown is not disturbed";
  c.disturbance = core::kDisturbedShare;
  EXPECT_FALSE(c.disturbed());
  c.disturbance = 0.14;
  EXPECT_TRUE(c.disturbed());
}

TEST(Disturbance, SamplesAndCeilingsKeepItThroughTheFile) {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  for (auto& p : f.sweeps.compute) p.disturbance.assign(p.seconds.size(), 0.25);
  f.sweeps.bandwidth[0].disturbance.assign(f.sweeps.bandwidth[0].seconds.size(), 0.0);
  f.ceilings[0].disturbance = 0.25;
  TempDir dir;
  const std::string path = dir.file("lost.h5");
  write_file(path, f);
  const core::CeilingsFile back = read_file(path);
  ASSERT_TRUE(back.ceilings[0].disturbance);
  EXPECT_DOUBLE_EQ(*back.ceilings[0].disturbance, 0.25);
  EXPECT_TRUE(back.ceilings[0].disturbed());
  EXPECT_FALSE(back.ceilings[1].disturbance) << "not measured reads as unknown, not 0";
  EXPECT_EQ(back.sweeps.compute[0].disturbance, f.sweeps.compute[0].disturbance);
  EXPECT_EQ(back.sweeps.bandwidth[0].disturbance, f.sweeps.bandwidth[0].disturbance);
  EXPECT_TRUE(back.sweeps.bandwidth[1].disturbance.empty());
}

TEST(Disturbance, AFileFromBeforeItIsUnknownNotQuiet) {
  const core::CeilingsFile f = read_file(std::string(ROOFTOP_DATA_DIR) + "/example-ceilings.h5");
  for (const core::Ceiling& c : f.ceilings) EXPECT_FALSE(c.disturbance) << c.name;
  for (const core::ComputePoint& p : f.sweeps.compute) EXPECT_TRUE(p.disturbance.empty());
}

TEST(Disturbance, InfinitiesAndSharesOutsideZeroToOneAreRefused) {
  TempDir dir;
  const std::string path = dir.file("hostile.h5");
  const struct {
    const char* table;
    const char* column;
    double value;
    const char* reason;
  } cases[] = {
      {"ceilings", "theoretical", std::numeric_limits<double>::infinity(), "theoretical inf"},
      {"ceilings", "theoretical", -std::numeric_limits<double>::infinity(), "theoretical -inf"},
      {"ceilings", "disturbance", 1.5, "disturbance 1.5 is not a fraction"},
      {"ceilings", "disturbance", -0.1, "disturbance -0.1"},
      {"sweeps/compute", "disturbance", std::numeric_limits<double>::infinity(),
       "sample disturbance inf"},
  };
  for (const auto& c : cases) {
    write_file(path, rooftop::testing::sample_ceilings_file());
    poke_double(path, c.table, c.column, 0, c.value);
    const std::string msg = error_of([&] { read_file(path); });
    EXPECT_NE(msg.find(c.reason), std::string::npos) << c.table << "." << c.column << ": " << msg;
  }
}

TEST(Disturbance, CompareWillNotCallADisturbedDifferenceReal) {
  core::CeilingsFile a = rooftop::testing::cpu_file(), b = rooftop::testing::cpu_file();
  for (core::Ceiling& c : b.ceilings) {
    c.value = c.median = c.value * 0.5;
    c.min = c.max = c.value;
    c.max *= 1.01;
  }
  b.ceilings[0].disturbance = 0.3;
  const Comparison cmp = compare({a, b}, {"a", "b"});
  EXPECT_EQ(cmp.ceilings[0].verdicts[1], Verdict::disturbed);
  EXPECT_EQ(cmp.ceilings[1].verdicts[1], Verdict::lower) << "a quiet ceiling is still judged";
  EXPECT_STREQ(to_string(Verdict::disturbed), "disturbed");
}

TEST(Disturbance, ShowSaysWhichCeilingLostHowMuch) {
  core::CeilingsFile f = rooftop::testing::cpu_file();
  f.ceilings[0].disturbance = 0.14;
  f.ceilings[1].disturbance = 0.001;
  const std::string table = report::ceilings_table(f);
  EXPECT_NE(table.find("fp64_fma: its median sample lost 14% of its time to other tasks"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("l1: "), std::string::npos) << table;
  EXPECT_EQ(report::disturbed_ceilings(f).size(), 1u);
  const nlohmann::json j = report::ceilings_json(f);
  EXPECT_DOUBLE_EQ(j["ceilings"][0]["disturbance"].get<double>(), 0.14);
  EXPECT_TRUE(j["ceilings"][0]["disturbed"].get<bool>());
  EXPECT_TRUE(j["ceilings"][2]["disturbance"].is_null());
}

TEST(Disturbance, OnAGpuTheMedianSampleSawOthers) {
  // NVML's readings are states: a GPU sample was disturbed (1) or not (0), and a ceiling
  // is disturbed when its median sample was.
  core::CeilingsFile f = rooftop::testing::cpu_file();
  f.machine.gpu_name = "NVIDIA H100 80GB HBM3";
  f.ceilings[0].disturbance = 1.0;
  const std::vector<std::string> words = report::disturbed_ceilings(f);
  ASSERT_EQ(words.size(), 1u);
  EXPECT_EQ(words[0].find("fp64_fma: its median sample saw another process"), 0u) << words[0];
  EXPECT_EQ(words[0].find("time"), std::string::npos) << words[0];
  const std::string svg = report::roofline_svg(f);
  EXPECT_NE(svg.find("disturbed (median sample saw others on the GPU): fp64_fma<"),
            std::string::npos);
}

TEST(Disturbance, TheRooflineChartNamesTheDisturbedCeilings) {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  EXPECT_EQ(report::roofline_svg(f).find("class='disturbed'"), std::string::npos);
  f.ceilings[0].disturbance = 0.25;
  f.machine.gpu_name.clear();  // a host's disturbance: time lost (a GPU's: the test above)
  const std::string svg = report::roofline_svg(f);
  EXPECT_NE(svg.find("disturbed (median sample's time lost to others): " + f.ceilings[0].name +
                     " (25%)"),
            std::string::npos)
      << svg;
}

}  // namespace
}  // namespace rooftop::ceilings
