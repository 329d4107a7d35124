// The comparison of ceilings files for people and for scripts: the JSON's documented keys
// with null where a file lacks a ceiling, the table's footnotes.

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace rooftop::report
