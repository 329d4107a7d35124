// Fleets: the statistics of every ceiling across ranks, the slow and failed ranks at the
// edge of the threshold, a rank's result as bytes and back, and the fleet file (its
// root readable as a plain ceilings file, its groups, errors). No MPI here: the program
// that owns MPI is tested end to end in test_cli_mpi.

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "rooftop/ceilings/fleet.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"
#include "samples.hpp"
#include "support.hpp"

namespace rooftop::ceilings {
namespace {

using rooftop::testing::error_of;
using rooftop::testing::failed_rank;
using rooftop::testing::fleet_provenance;
using rooftop::testing::ok_rank;
using rooftop::testing::sample_fleet;
using rooftop::testing::TempDir;
using rooftop::testing::make_ceiling;

// ---------------------------------------------------------------------------------------
// statistics

TEST(FleetStatistics, MedianMinMaxSpreadAndWhereTheExtremesAre) {
  const FleetFile fleet = sample_fleet();
  ASSERT_EQ(fleet.statistics.size(), 2u);
  const FleetStatistic* fma = fleet.find("fp64_fma");
  ASSERT_NE(fma, nullptr);
  EXPECT_EQ(fma->ranks, 3);
  EXPECT_DOUBLE_EQ(fma->median, 100.0);
  EXPECT_DOUBLE_EQ(fma->min, 100.0);
  EXPECT_DOUBLE_EQ(fma->max, 104.0);
  EXPECT_DOUBLE_EQ(fma->spread, 0.04);
  EXPECT_EQ(fma->min_rank, 0);  // the first of two equal values
  EXPECT_EQ(fma->max_rank, 1);
  const FleetStatistic* dram = fleet.find("dram");
  ASSERT_NE(dram, nullptr);
  EXPECT_DOUBLE_EQ(dram->median, 10.0);
  EXPECT_EQ(dram->min_rank, 3);
  EXPECT_EQ(dram->max_rank, 1);
  EXPECT_EQ(dram->units, "GB/s");
  EXPECT_EQ(dram->kind, "bandwidth");
}

TEST(FleetStatistics, RooflineOrderAndOnlyMeasuredValues) {
  const std::vector<RankRecord> ranks = {
      ok_rank(0, "a",
              {make_ceiling("dram", 10.0, 9.0, 11.0, 3), make_ceiling("l1", 500.0, 0, 0, 0),
               make_ceiling("fp32_fma", 200.0, 190.0, 210.0, 5)}),
      ok_rank(1, "a", {make_ceiling("l1", 400.0, 390.0, 410.0, 3)})};
  const std::vector<FleetStatistic> s = fleet_statistics(ranks);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].name, "fp32_fma");
  EXPECT_EQ(s[1].name, "l1");
  EXPECT_EQ(s[2].name, "dram");
  // Rank 0's l1 was never measured (a theoretical value): only rank 1's counts.
  EXPECT_EQ(s[1].ranks, 1);
  EXPECT_DOUBLE_EQ(s[1].median, 400.0);
  EXPECT_DOUBLE_EQ(s[1].spread, 0.0);
}

TEST(FleetStatistics, EvenCountTakesTheMeanOfTheMiddleTwo) {
  const std::vector<FleetStatistic> s =
      fleet_statistics({ok_rank(0, "a", {make_ceiling("l2", 10.0, 9, 11, 3)}),
                        ok_rank(1, "a", {make_ceiling("l2", 40.0, 39, 41, 3)}),
                        ok_rank(2, "a", {make_ceiling("l2", 20.0, 19, 21, 3)}),
                        ok_rank(3, "a", {make_ceiling("l2", 30.0, 29, 31, 3)})});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_DOUBLE_EQ(s[0].median, 25.0);
  EXPECT_DOUBLE_EQ(s[0].spread, 30.0 / 25.0);
}

TEST(FleetStatistics, UnitsThatDifferBetweenRanksAreAnError) {
  core::Ceiling odd = make_ceiling("dram", 10.0, 9.0, 11.0, 3);
  odd.units = "GiB/s";
  const std::string msg = error_of([&] {
    fleet_statistics({ok_rank(0, "a", {make_ceiling("dram", 10.0, 9, 11, 3)}), ok_rank(1, "b", {odd})});
  });
  EXPECT_NE(msg.find("rank 1 on b"), std::string::npos) << msg;
  EXPECT_NE(msg.find("GiB/s"), std::string::npos) << msg;
}

TEST(MakeFleet, SortsTheRanksAndRejectsAMissingOrRepeatedRank) {
  const FleetFile fleet = sample_fleet();
  ASSERT_EQ(fleet.size, 4);
  for (int r = 0; r < 4; ++r) EXPECT_EQ(fleet.ranks[static_cast<std::size_t>(r)].rank, r);
  EXPECT_EQ(fleet.failed(), 1);
  EXPECT_EQ(fleet.hosts(), 2);
  EXPECT_NE(error_of([] {
              make_fleet(fleet_provenance(), {failed_rank(0, "a", "x"), failed_rank(2, "a", "y")});
            }).find("rank 2 where rank 1"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              make_fleet(fleet_provenance(), {failed_rank(0, "a", "x"), failed_rank(0, "a", "y")});
            }).find("rank 0 where rank 1"),
            std::string::npos);
}

TEST(FleetSummary, TheRootIsAPlainCeilingsFileOfFleetMedians) {
  FleetFile fleet = sample_fleet();
  const core::CeilingsFile summary = fleet_summary(fleet);
  EXPECT_EQ(summary.machine.hostname, "2 hosts: node01, node02");
  EXPECT_EQ(summary.machine.cpu_model, "Test CPU 9000");
  ASSERT_EQ(summary.ceilings.size(), 2u);
  const core::Ceiling* dram = summary.find("dram");
  ASSERT_NE(dram, nullptr);
  EXPECT_DOUBLE_EQ(dram->value, 10.0);
  EXPECT_DOUBLE_EQ(dram->median, 10.0);
  EXPECT_DOUBLE_EQ(dram->min, 9.0);
  EXPECT_DOUBLE_EQ(dram->max, 10.2);
  EXPECT_EQ(dram->samples, 3);  // ranks
  EXPECT_NE(dram->note.find("median of 3 ranks"), std::string::npos) << dram->note;
  EXPECT_TRUE(summary.sweeps.compute.empty());
  // A theoretical peak only where every rank has one.
  EXPECT_FALSE(dram->theoretical);
  const auto fma_of = [&](std::size_t r) -> core::Ceiling& {
    for (core::Ceiling& c : fleet.ranks[r].file->ceilings)
      if (c.name == "fp64_fma") return c;
    throw std::logic_error("no fp64_fma");
  };
  fma_of(0).theoretical = 200.0;
  fma_of(1).theoretical = 210.0;
  fma_of(3).theoretical = 220.0;
  const core::CeilingsFile with_peaks = fleet_summary(fleet);
  const core::Ceiling* fma = with_peaks.find("fp64_fma");
  ASSERT_NE(fma, nullptr);
  ASSERT_TRUE(fma->theoretical);
  EXPECT_DOUBLE_EQ(*fma->theoretical, 210.0);
  fma_of(3).theoretical.reset();
  EXPECT_FALSE(fleet_summary(fleet).find("fp64_fma")->theoretical);
}

// ---------------------------------------------------------------------------------------
// review

TEST(FleetReview, SlowBelowTheThresholdAndFailedRanksListed) {
  const FleetReview r = review(sample_fleet(), 0.05);
  ASSERT_EQ(r.slow.size(), 1u);
  EXPECT_EQ(r.slow[0].rank, 3);
  EXPECT_EQ(r.slow[0].hostname, "node02");
  EXPECT_EQ(r.slow[0].device, "cpus 3");
  EXPECT_EQ(r.slow[0].ceiling, "dram");
  EXPECT_DOUBLE_EQ(r.slow[0].ratio, 0.9);
  EXPECT_DOUBLE_EQ(r.slow[0].fleet_median, 10.0);
  EXPECT_DOUBLE_EQ(r.slow[0].max, 9.1);
  EXPECT_FALSE(r.slow[0].within_own_spread);
  ASSERT_EQ(r.failed.size(), 1u);
  EXPECT_EQ(r.failed[0].rank, 2);
  EXPECT_FALSE(r.failed[0].file);
  EXPECT_TRUE(r.anything_found());
}

TEST(FleetReview, ExactlyAtTheThresholdIsNotSlowJustBelowIs) {
  const auto fleet_with = [](double value) {
    return make_fleet(fleet_provenance(), {ok_rank(0, "a", {make_ceiling("l1", 100.0, 99, 101, 3)}),
                                           ok_rank(1, "a", {make_ceiling("l1", 100.0, 99, 101, 3)}),
                                           ok_rank(2, "b", {make_ceiling("l1", value, 1, 200, 3)})});
  };
  EXPECT_TRUE(review(fleet_with(90.0), 0.10).slow.empty());
  const double below = std::nextafter(90.0, 0.0);
  EXPECT_EQ(review(fleet_with(below), 0.10).slow.size(), 1u);
  EXPECT_FALSE(review(fleet_with(90.0), 0.10).anything_found());
}

TEST(FleetReview, ASlowValueWhoseOwnSamplesReachTheMedianIsStillListedAsNoisy) {
  const FleetFile fleet =
      make_fleet(fleet_provenance(), {ok_rank(0, "a", {make_ceiling("l2", 100.0, 99, 101, 3)}),
                                      ok_rank(1, "a", {make_ceiling("l2", 100.0, 99, 101, 3)}),
                                      ok_rank(2, "b", {make_ceiling("l2", 80.0, 70, 100, 3)})});
  const FleetReview r = review(fleet, 0.05);
  ASSERT_EQ(r.slow.size(), 1u);
  EXPECT_TRUE(r.slow[0].within_own_spread);
}

TEST(FleetReview, AThresholdOfOneFlagsNothingButFailures) {
  const FleetReview r = review(sample_fleet(), 1.0);
  EXPECT_TRUE(r.slow.empty());
  EXPECT_EQ(r.failed.size(), 1u);
}

TEST(FleetReview, ThresholdOutsideZeroToOneIsAnError) {
  EXPECT_NE(error_of([] { review(sample_fleet(), -0.01); }).find("[0, 1]"), std::string::npos);
  EXPECT_NE(error_of([] { review(sample_fleet(), 1.5); }).find("[0, 1]"), std::string::npos);
  EXPECT_NE(error_of([] { review(sample_fleet(), std::nan("")); }).find("threshold"),
            std::string::npos);
}

// ---------------------------------------------------------------------------------------
// bytes and files

TEST(RankBytes, RoundTripOfASuccessfulRankKeepsItsWholeFile) {
  const RankRecord k = ok_rank(5, "node09", {make_ceiling("fp64_fma", 100.0, 98.0, 101.0, 5)});
  const std::string bytes = to_bytes(k);
  EXPECT_EQ(bytes.compare(0, 4, "\x89HDF"), 0);
  const RankRecord back = rank_from_bytes(bytes);
  EXPECT_EQ(back.rank, 5);
  EXPECT_EQ(back.hostname, "node09");
  EXPECT_EQ(back.device, "cpus 5");
  EXPECT_EQ(back.cpus, "5");
  EXPECT_EQ(back.status, "ok");
  EXPECT_EQ(back.seconds, 8.5);
  ASSERT_TRUE(back.file);
  rooftop::testing::expect_same_machine(back.file->machine, k.file->machine);
  ASSERT_EQ(back.file->ceilings.size(), 1u);
  rooftop::testing::expect_same_ceiling(back.file->ceilings[0], k.file->ceilings[0]);
  EXPECT_EQ(back.file->sweeps.compute.size(), k.file->sweeps.compute.size());
  EXPECT_EQ(back.file->sweeps.bandwidth.size(), k.file->sweeps.bandwidth.size());
  EXPECT_EQ(back.file->provenance.command_line, k.file->provenance.command_line);
}

TEST(RankBytes, RoundTripOfAFailedRankKeepsItsReason) {
  RankRecord k = failed_rank(1, "node03", "out of memory (try --quick or fewer ranks per node)");
  k.local_rank = 1;
  k.local_size = 4;
  const RankRecord back = rank_from_bytes(to_bytes(k));
  EXPECT_EQ(back.status, "failed");
  EXPECT_EQ(back.reason, k.reason);
  EXPECT_EQ(back.local_rank, 1);
  EXPECT_EQ(back.local_size, 4);
  EXPECT_FALSE(back.file);
}

TEST(RankBytes, BytesThatAreNoRankAreAnError) {
  EXPECT_NE(error_of([] { rank_from_bytes("not hdf5 at all"); }).find("not an HDF5 image"),
            std::string::npos);
  std::string cut = to_bytes(failed_rank(0, "a", "x"));
  cut.resize(cut.size() / 2);
  EXPECT_FALSE(error_of([&] { rank_from_bytes(cut); }).empty());
}

TEST(RankBytes, ARecordWhoseStatusAndFileDisagreeIsRefused) {
  RankRecord k = failed_rank(0, "a", "x");
  k.status = "ok";  // but no file
  EXPECT_FALSE(error_of([&] { to_bytes(k); }).empty());
}

TEST(FleetFileIo, RoundTripOfEveryRankAndTheStatistics) {
  TempDir dir;
  const std::string path = dir.file("fleet.h5");
  const FleetFile fleet = sample_fleet();
  write_fleet_file(path, fleet);
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"fleet.h5"}));  // no temporary left
  const FleetFile back = read_fleet_file(path);
  EXPECT_EQ(back.size, 4);
  EXPECT_EQ(back.provenance.schema_version,
            std::to_string(kSchemaMajor) + "." + std::to_string(kSchemaMinor));
  EXPECT_EQ(back.provenance.command_line, fleet.provenance.command_line);
  ASSERT_EQ(back.ranks.size(), 4u);
  for (std::size_t r = 0; r < 4; ++r) {
    SCOPED_TRACE(r);
    EXPECT_EQ(back.ranks[r].rank, fleet.ranks[r].rank);
    EXPECT_EQ(back.ranks[r].hostname, fleet.ranks[r].hostname);
    EXPECT_EQ(back.ranks[r].status, fleet.ranks[r].status);
    EXPECT_EQ(back.ranks[r].reason, fleet.ranks[r].reason);
    EXPECT_EQ(back.ranks[r].file.has_value(), fleet.ranks[r].file.has_value());
  }
  ASSERT_EQ(back.statistics.size(), fleet.statistics.size());
  for (std::size_t i = 0; i < back.statistics.size(); ++i) {
    EXPECT_EQ(back.statistics[i].name, fleet.statistics[i].name);
    EXPECT_EQ(back.statistics[i].median, fleet.statistics[i].median);
    EXPECT_EQ(back.statistics[i].spread, fleet.statistics[i].spread);
    EXPECT_EQ(back.statistics[i].min_rank, fleet.statistics[i].min_rank);
  }
}

TEST(FleetFileIo, EveryCeilingsReaderReadsTheRootAsTheFleetMedians) {
  TempDir dir;
  const std::string path = dir.file("fleet.h5");
  write_fleet_file(path, sample_fleet());
  EXPECT_TRUE(is_fleet_file(path));
  const core::CeilingsFile root = read_file(path);
  ASSERT_NE(root.find("dram"), nullptr);
  EXPECT_DOUBLE_EQ(root.find("dram")->value, 10.0);
  EXPECT_EQ(root.find("dram")->samples, 3);
}

TEST(FleetFileIo, TheGroupsAreWhereTheSchemaSaysForH5py) {
  TempDir dir;
  const std::string path = dir.file("fleet.h5");
  write_fleet_file(path, sample_fleet());
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  for (const char* p :
       {"/fleet", "/fleet/statistics", "/fleet/ranks", "/ranks/0", "/ranks/3", "/ranks/0/ceilings",
        "/ranks/0/machine", "/ranks/0/sweeps/compute", "/ceilings", "/machine", "/sweeps"})
    EXPECT_GT(H5Lexists(f, p, H5P_DEFAULT), 0) << p;
  // A failed rank has its reason and no ceilings.
  EXPECT_EQ(H5Lexists(f, "/ranks/2/ceilings", H5P_DEFAULT), 0);
  EXPECT_GT(H5Aexists_by_name(f, "/ranks/2", "reason", H5P_DEFAULT), 0);
  H5Fclose(f);
}

TEST(FleetFileIo, APlainCeilingsFileIsNotAFleet) {
  TempDir dir;
  const std::string path = dir.file("one.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  EXPECT_FALSE(is_fleet_file(path));
  const std::string msg = error_of([&] { read_fleet_file(path); });
  EXPECT_NE(msg.find("not a fleet file"), std::string::npos) << msg;
  EXPECT_EQ(msg.rfind(path, 0), 0u) << msg;
  EXPECT_NE(error_of([&] { is_fleet_file(dir.file("missing.h5")); }).find("no such file"),
            std::string::npos);
}

TEST(FleetFileIo, AFleetWhereEveryRankFailedIsStillWrittenWithTheReasons) {
  TempDir dir;
  const std::string path = dir.file("failed.h5");
  write_fleet_file(path, make_fleet(fleet_provenance(), {failed_rank(0, "a", "no GPU visible on a"),
                                                         failed_rank(1, "b", "interrupted")}));
  const FleetFile back = read_fleet_file(path);
  EXPECT_TRUE(back.statistics.empty());
  EXPECT_EQ(back.failed(), 2);
  EXPECT_EQ(back.ranks[1].reason, "interrupted");
  EXPECT_TRUE(read_file(path).ceilings.empty());
}

}  // namespace
}  // namespace rooftop::ceilings
