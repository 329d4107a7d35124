// The comparison of ceilings files for people and for scripts: the JSON's documented keys
// with null where a file lacks a ceiling, the table's footnotes.

#include <gtest/gtest.h>

#include <string>

#include "rooftop/ceilings/compare.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/report/comparison_table.hpp"
#include "samples.hpp"

namespace rooftop::report {
namespace {

using rooftop::testing::cpu_file;
using rooftop::testing::gpu_file;

TEST(CompareJson, HasTheKeysTheDesignPromisesWithNullWhereAbsent) {
  const nlohmann::json j =
      comparison_json(ceilings::compare({cpu_file(), gpu_file()}, {"cpu.h5", "gpu.h5"}));
  EXPECT_EQ(j["files"], nlohmann::json::array({"cpu.h5", "gpu.h5"}));
  ASSERT_TRUE(j["ceilings"].is_array());
  for (const nlohmann::json& c : j["ceilings"]) {
    for (const char* key :
         {"name", "values", "ratios", "verdicts", "units", "min", "max", "samples", "measured"}) {
      ASSERT_TRUE(c.contains(key)) << key << " missing in " << c.dump();
      if (std::string(key) != "name" && std::string(key) != "units") {
        EXPECT_EQ(c[key].size(), 2u) << key;
      }
    }
  }
  const nlohmann::json& l3 = j["ceilings"][2];
  ASSERT_EQ(l3["name"], "l3");
  EXPECT_DOUBLE_EQ(l3["values"][0].get<double>(), 150.0);
  EXPECT_TRUE(l3["values"][1].is_null());
  EXPECT_TRUE(l3["ratios"][1].is_null());
  EXPECT_EQ(l3["verdicts"][1], "absent");
  const nlohmann::json& l1 = j["ceilings"][1];
  ASSERT_EQ(l1["name"], "l1");
  EXPECT_EQ(l1["measured"][1], false);
  EXPECT_EQ(l1["verdicts"][1], "no spread");
}

TEST(CompareTable, MarksTheoreticalValuesAndExplainsNoSpread) {
  const std::string text =
      comparison_table(ceilings::compare({cpu_file(), gpu_file()}, {"cpu.h5", "gpu.h5"}));
  EXPECT_NE(text.find("[1] cpu.h5: Test CPU"), std::string::npos) << text;
  EXPECT_NE(text.find("[2] gpu.h5: Test GPU"), std::string::npos) << text;
  EXPECT_NE(text.find("14,336*"), std::string::npos) << text;
  EXPECT_NE(text.find("* theoretical, not measured"), std::string::npos) << text;
  EXPECT_NE(text.find("no spread:"), std::string::npos) << text;
  EXPECT_EQ(text.find(" \n"), std::string::npos) << "trailing blanks:\n" << text;
}

TEST(CompareTable, NoFootnotesWhenNothingNeedsThem) {
  const std::string text =
      comparison_table(ceilings::compare({cpu_file(), cpu_file()}, {"a", "b"}));
  EXPECT_EQ(text.find("theoretical"), std::string::npos) << text;
  EXPECT_EQ(text.find("no spread"), std::string::npos) << text;
}

// A ceiling that only a later file has (a GPU's shared memory against a CPU) gets a row.
TEST(CompareTable, ACeilingOnlyALaterFileHasGetsARow) {
  const std::string text =
      comparison_table(ceilings::compare({gpu_file(), cpu_file()}, {"gpu.h5", "cpu.h5"}));
  EXPECT_NE(text.find("l3 "), std::string::npos) << text;
  EXPECT_NE(text.find("no baseline"), std::string::npos) << text;
}

// The H200's three runs of one day: a small figure keeps its digits (stride32_l2 0.06982,
// not 0.1), a value its four beside its ratio's three (d2h_latency 2.035 us, 1.22), a
// large one its whole integer part; every row's columns line up, figures' longer names
// included.
TEST(CompareTable, FiguresKeepTheirSignificantDigits) {
  std::vector<core::CeilingsFile> files;
  std::vector<std::string> labels;
  for (const char* run : {"1", "2", "3"}) {
    labels.push_back(std::string(ROOFTOP_DATA_DIR) + "/h200-2026-11-27-ceilings-" + run + ".h5");
    files.push_back(ceilings::read_file(labels.back()));
  }
  const std::string text = comparison_table(ceilings::compare(files, labels));
  const auto row = [&](const std::string& name) {
    const std::size_t at = text.find("\n" + name + " ");
    EXPECT_NE(at, std::string::npos) << name;
    return at == std::string::npos ? "" : text.substr(at + 1, text.find('\n', at + 1) - at - 1);
  };
  EXPECT_NE(row("stride32_l2").find("|    0.06982     1.00  baseline"), std::string::npos) << text;
  EXPECT_NE(row("d2h_latency").find("|      2.035     1.22  higher"), std::string::npos) << text;
  EXPECT_NE(row("fp64_fma").find("|     33,086     1.00  baseline"), std::string::npos) << text;
  const std::size_t bar = row("fp64_fma").find('|');
  for (const char* name : {"stride32_l2", "occupancy90_dram", "launch_breakeven", "tc_int8"})
    EXPECT_EQ(row(name).find('|'), bar) << name;
}

}  // namespace
}  // namespace rooftop::report
