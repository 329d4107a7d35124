#pragma once
// A fleet: the ceilings of many ranks (one GPU, or the cores bound to one process, on
// every node of a cluster) measured at once under MPI, the statistics of every ceiling
// across them, and the ranks that fall below the fleet. MPI itself stays out of this
// library: a rank's result travels as bytes (to_bytes / rank_from_bytes), and the
// program that owns MPI gathers them and writes one file.
//
// The fleet file is a ceilings file (schema 1.2, data/SCHEMA.md): its root holds the
// fleet medians as an ordinary /ceilings table, so every reader of ceilings files reads
// it; /ranks/<r> holds every rank's own ceilings file, and /fleet/statistics the
// statistics. Its tables and JSON are rooftop_report's (report/fleet_table.hpp).

#include <optional>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::ceilings {

// What one rank measured, or why it could not.
struct RankRecord {
  int rank = 0;
  std::string hostname;
  int local_rank = 0;                // rank among the ranks on the same host
  int local_size = 1;                // ranks on that host (they share its memory bandwidth)
  std::string device;                // what the rank characterized: "cpus 0-3" or "gpu 1"
  std::string cpus;                  // the CPUs the rank was bound to ("0-3", "0,2")
  std::string status;                // "ok" or "failed"
  std::string reason;                // why it failed (empty when ok)
  double seconds = 0.0;              // wall time of the rank's characterization
  std::optional<core::CeilingsFile> file;  // present exactly when status is "ok"

  bool ok() const { return status == "ok"; }
  // "rank 3 on node07, gpu 1": how reports name a rank.
  std::string label() const;
};

// One ceiling across the ranks that measured it.
struct FleetStatistic {
  std::string name, kind, units;
  int ranks = 0;  // ranks with a measured value
  double median = 0.0, min = 0.0, max = 0.0;
  double spread = 0.0;  // (max - min) / median
  int min_rank = -1, max_rank = -1;
};

struct FleetFile {
  core::Provenance provenance;    // of the run that gathered the fleet
  int size = 0;                   // ranks in the run
  std::vector<RankRecord> ranks;  // one per rank, in rank order
  std::vector<FleetStatistic> statistics;

  const FleetStatistic* find(const std::string& name) const;
  int failed() const;
  int hosts() const;  // distinct host names
};

// Statistics of every ceiling measured by at least one successful rank, in roofline
// order (compute first, then memory from the core out).
std::vector<FleetStatistic> fleet_statistics(const std::vector<RankRecord>& ranks);

// A fleet from the gathered ranks: sorts them, checks each rank appears once, and
// computes the statistics.
FleetFile make_fleet(const core::Provenance& provenance, std::vector<RankRecord> ranks);

// The root of a fleet file as a plain ceilings file: one ceiling per statistic (value
// and median: the fleet median; min and max: across ranks; samples: the ranks), the
// machine of the first successful rank with the hosts in `hostname`, no sweeps.
core::CeilingsFile fleet_summary(const FleetFile& fleet);

// A rank that falls below the fleet median of one ceiling by more than the threshold.
struct SlowRank {
  int rank = 0;
  std::string label;  // RankRecord::label()
  std::string hostname, device;
  std::string ceiling, units;
  double value = 0.0, fleet_median = 0.0;
  double ratio = 0.0;           // value / fleet median
  double min = 0.0, max = 0.0;  // the rank's own samples
  // The rank's own samples reach the fleet median (compare's "same" rule): noisy, so the
  // value alone may be bad luck. Still listed; the rule is the value.
  bool within_own_spread = false;
};

// The review's threshold unless the user names one: a rank 5% below the fleet median is
// slow.
inline constexpr double kDefaultSlowThreshold = 0.05;

struct FleetReview {
  double threshold = kDefaultSlowThreshold;  // slow below (1 - threshold) x the median
  std::vector<SlowRank> slow;      // by rank, then ceiling in roofline order
  std::vector<RankRecord> failed;  // without their (absent) files
  bool anything_found() const { return !slow.empty() || !failed.empty(); }
};

// Throws rooftop::Error for a threshold outside [0, 1].
FleetReview review(const FleetFile& fleet, double threshold);

// The fleet file: written atomically (temporary file + rename), like write_file.
void write_fleet_file(const std::string& path, const FleetFile& fleet);
// Throws rooftop::Error with one line for anything but a readable fleet file.
FleetFile read_fleet_file(const std::string& path);
// True for a readable ceilings file with a /fleet group; false for a plain ceilings
// file; throws like read_file for anything else.
bool is_fleet_file(const std::string& path);

// One rank's record as bytes for a gather (an in-memory HDF5 file laid out like
// /ranks/<r>), and back. rank_from_bytes throws rooftop::Error on bytes it cannot read.
std::string to_bytes(const RankRecord& record);
RankRecord rank_from_bytes(const std::string& bytes);

}  // namespace rooftop::ceilings
