// The fleet and its review for people and for scripts: the text names hosts, devices and
// reasons and says what was found; the JSON has the documented keys.

#include <gtest/gtest.h>

#include <string>

#include "rooftop/report/fleet_table.hpp"
#include "samples.hpp"

namespace rooftop::report {
namespace {

using rooftop::testing::fleet_provenance;
using rooftop::testing::make_ceiling;
using rooftop::testing::ok_rank;
using rooftop::testing::sample_fleet;

TEST(FleetReviewTable, ANoisySlowRankIsSaidToBeSo) {
  const ceilings::FleetFile fleet = ceilings::make_fleet(
      fleet_provenance(), {ok_rank(0, "a", {make_ceiling("l2", 100.0, 99, 101, 3)}),
                           ok_rank(1, "a", {make_ceiling("l2", 100.0, 99, 101, 3)}),
                           ok_rank(2, "b", {make_ceiling("l2", 80.0, 70, 100, 3)})});
  const ceilings::FleetReview r = ceilings::review(fleet, 0.05);
  ASSERT_EQ(r.slow.size(), 1u);
  EXPECT_NE(fleet_review_table(r).find("(noisy: its own samples reach the median)"),
            std::string::npos);
  EXPECT_EQ(fleet_json(fleet, r, "f.h5")["slow"][0]["within_own_spread"], true);
}

TEST(FleetReview, TextNamesHostDeviceAndReasonAndSaysWhatWasFound) {
  const std::string text = fleet_review_table(ceilings::review(sample_fleet(), 0.05));
  EXPECT_NE(text.find("more than 5.00% below the fleet median"), std::string::npos) << text;
  EXPECT_NE(text.find("rank 3 on node02, cpus 3"), std::string::npos) << text;
  EXPECT_NE(text.find("0.900 of the fleet median 10.0"), std::string::npos) << text;
  EXPECT_NE(text.find("rank 2 on node02, gpu 1: --space device: no GPU backend"), std::string::npos)
      << text;
  EXPECT_NE(text.find("1 rank slow, 1 failed"), std::string::npos) << text;
  const ceilings::FleetFile healthy =
      ceilings::make_fleet(fleet_provenance(), {ok_rank(0, "a", {make_ceiling("l1", 1, 1, 1, 3)})});
  EXPECT_NE(
      fleet_review_table(ceilings::review(healthy, 0.05)).find("no rank is more than 5.00% below"),
      std::string::npos);
}

TEST(FleetReview, JsonHasTheDocumentedKeys) {
  const ceilings::FleetFile fleet = sample_fleet();
  const nlohmann::json j = fleet_json(fleet, ceilings::review(fleet, 0.05), "fleet.h5");
  EXPECT_EQ(j["file"], "fleet.h5");
  EXPECT_EQ(j["size"], 4);
  EXPECT_EQ(j["hosts"], 2);
  EXPECT_DOUBLE_EQ(j["threshold"].get<double>(), 0.05);
  ASSERT_EQ(j["ranks"].size(), 4u);
  EXPECT_EQ(j["ranks"][2]["status"], "failed");
  EXPECT_EQ(j["ranks"][2]["reason"], "--space device: no GPU backend");
  EXPECT_TRUE(j["ranks"][0]["reason"].is_null());
  EXPECT_EQ(j["ranks"][0]["machine"], "Test GPU");  // machine_name: the GPU first
  for (const char* key :
       {"name", "kind", "units", "ranks", "median", "min", "max", "spread", "min_rank", "max_rank"})
    EXPECT_TRUE(j["statistics"][0].contains(key)) << key;
  ASSERT_EQ(j["slow"].size(), 1u);
  for (const char* key : {"rank", "hostname", "device", "ceiling", "units", "value", "fleet_median",
                          "ratio", "min", "max", "within_own_spread"})
    EXPECT_TRUE(j["slow"][0].contains(key)) << key;
  ASSERT_EQ(j["failed"].size(), 1u);
  EXPECT_EQ(j["failed"][0]["hostname"], "node02");
}

TEST(FleetTable, ListsEveryRankAndEveryStatisticWithoutTrailingBlanks) {
  const std::string text = fleet_table(sample_fleet());
  EXPECT_NE(text.find("fleet of 4 ranks on 2 hosts (1 failed)"), std::string::npos) << text;
  EXPECT_NE(text.find("--space device: no GPU backend"), std::string::npos) << text;
  EXPECT_NE(text.find("fp64_fma"), std::string::npos) << text;
  EXPECT_EQ(text.find(" \n"), std::string::npos) << text;
}

}  // namespace
}  // namespace rooftop::report
