// The fleet file (schema 1.2, data/SCHEMA.md) and a rank's record as bytes. Both use
// the layout of one ceilings file at an HDF5 location (io_internal.hpp): a rank's bytes
// are an in-memory HDF5 file laid out exactly like the group /ranks/<r> it becomes.

#include <cstddef>
#include <string>

#include "contained_read.hpp"
#include "h5.hpp"
#include "io_internal.hpp"
#include "rooftop/ceilings/fleet.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"

namespace rooftop::ceilings {
namespace {

// On-disk rows. Field names are the schema: rename nothing, add freely.
struct StatisticRow {
  char name[32];
  char kind[16];
  char units[16];
  std::int32_t ranks;
  double median, min, max, spread;
  std::int32_t min_rank, max_rank;
};

// An index of the ranks; each /ranks/<r> group carries the same facts in full.
struct RankRow {
  std::int32_t rank;
  char hostname[64];
  std::int32_t local_rank, local_size;
  char device[64];
  char cpus[128];
  char status[8];
  char reason[256];
  double seconds;
};

h5::Handle statistic_type() {
  using R = StatisticRow;
  return h5::compound_type(
      sizeof(R),
      {ROOFTOP_H5_FIELD(R, name), ROOFTOP_H5_FIELD(R, kind), ROOFTOP_H5_FIELD(R, units),
       ROOFTOP_H5_FIELD(R, ranks), ROOFTOP_H5_FIELD(R, median),
       ROOFTOP_H5_FIELD(R, min), ROOFTOP_H5_FIELD(R, max),
       ROOFTOP_H5_FIELD(R, spread), ROOFTOP_H5_FIELD(R, min_rank),
       ROOFTOP_H5_FIELD(R, max_rank)});
}

h5::Handle rank_type() {
  using R = RankRow;
  return h5::compound_type(
      sizeof(R),
      {ROOFTOP_H5_FIELD(R, rank), ROOFTOP_H5_FIELD(R, hostname),
       ROOFTOP_H5_FIELD(R, local_rank), ROOFTOP_H5_FIELD(R, local_size),
       ROOFTOP_H5_FIELD(R, device), ROOFTOP_H5_FIELD(R, cpus), ROOFTOP_H5_FIELD(R, status), ROOFTOP_H5_FIELD(R, reason),
       ROOFTOP_H5_FIELD(R, seconds)});
}

// Text longer than a fixed field keeps its head; the full text is in /ranks/<r>.
template <std::size_t N>
void put_clipped(char (&dst)[N], const std::string& value, const char* field) {
  h5::put(dst, value.size() < N ? value : value.substr(0, N - 1), field);
}

void write_statistics(hid_t fleet_group, const std::vector<FleetStatistic>& statistics) {
  std::vector<StatisticRow> rows(statistics.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const FleetStatistic& s = statistics[i];
    StatisticRow& r = rows[i];
    h5::put(r.name, s.name, "name");
    h5::put(r.kind, s.kind, "kind");
    h5::put(r.units, s.units, "units");
    r.ranks = s.ranks;
    r.median = s.median;
    r.min = s.min;
    r.max = s.max;
    r.spread = s.spread;
    r.min_rank = s.min_rank;
    r.max_rank = s.max_rank;
  }
  h5::write_table(fleet_group, "statistics", statistic_type(), rows.data(), rows.size());
}

std::vector<FleetStatistic> read_statistics(hid_t fleet_group) {
  std::vector<FleetStatistic> out;
  for (const StatisticRow& r :
       h5::read_rows<StatisticRow>(fleet_group, "statistics", statistic_type())) {
    FleetStatistic s;
    s.name = h5::get(r.name);
    s.kind = h5::get(r.kind);
    s.units = h5::get(r.units);
    s.ranks = r.ranks;
    s.median = r.median;
    s.min = r.min;
    s.max = r.max;
    s.spread = r.spread;
    s.min_rank = r.min_rank;
    s.max_rank = r.max_rank;
    out.push_back(s);
  }
  return out;
}

void write_rank_index(hid_t fleet_group, const std::vector<RankRecord>& ranks) {
  std::vector<RankRow> rows(ranks.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const RankRecord& k = ranks[i];
    RankRow& r = rows[i];
    std::memset(&r, 0, sizeof r);
    r.rank = k.rank;
    put_clipped(r.hostname, k.hostname, "hostname");
    r.local_rank = k.local_rank;
    r.local_size = k.local_size;
    put_clipped(r.device, k.device, "device");
    put_clipped(r.cpus, k.cpus, "cpus");
    h5::put(r.status, k.status, "status");
    put_clipped(r.reason, k.reason, "reason");
    r.seconds = k.seconds;
  }
  h5::write_table(fleet_group, "ranks", rank_type(), rows.data(), rows.size());
}

// A rank: its facts as attributes and, when it succeeded, its ceilings file beside them.
void write_rank_at(hid_t location, const RankRecord& k) {
  ROOFTOP_REQUIRE(k.ok() == k.file.has_value(), "a rank has a file exactly when it is ok");
  ROOFTOP_REQUIRE(k.ok() || k.status == "failed", "rank status '" + k.status + "'");
  h5::write_attr(location, "rank", std::int64_t{k.rank});
  h5::write_attr(location, "hostname", k.hostname);
  h5::write_attr(location, "local_rank", std::int64_t{k.local_rank});
  h5::write_attr(location, "local_size", std::int64_t{k.local_size});
  h5::write_attr(location, "device", k.device);
  h5::write_attr(location, "cpus", k.cpus);
  h5::write_attr(location, "status", k.status);
  h5::write_attr(location, "reason", k.reason);
  h5::write_attr(location, "seconds", k.seconds);
  if (k.file) detail::write_ceilings_at(location, *k.file);
}

RankRecord read_rank_at(hid_t location) {
  RankRecord k;
  k.rank = h5::read_int_attr<int>(location, "rank");
  k.hostname = h5::read_string_attr(location, "hostname");
  k.local_rank = h5::read_int_attr<int>(location, "local_rank");
  k.local_size = h5::read_int_attr<int>(location, "local_size");
  k.device = h5::read_string_attr(location, "device");
  k.cpus = h5::read_string_attr(location, "cpus");
  k.status = h5::read_string_attr(location, "status");
  k.reason = h5::read_string_attr(location, "reason");
  k.seconds = h5::read_double_attr(location, "seconds");
  if (k.ok())
    k.file = detail::read_ceilings_at(location);
  else if (k.status != "failed")
    throw Error("rank " + std::to_string(k.rank) + ": unknown status '" + k.status + "'");
  return k;
}

}  // namespace

std::string to_bytes(const RankRecord& record) {
  h5::silence_library_errors();
  h5::Handle fapl = h5::memory_file_access(64 * 1024);
  h5::Handle file(
      H5Fcreate(h5::memory_file_name().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()),
      H5Fclose, "H5Fcreate (in memory)");
  write_rank_at(file.get(), record);
  h5::check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), "H5Fflush");
  const ssize_t size = H5Fget_file_image(file.get(), nullptr, 0);
  if (size <= 0) throw Error("HDF5: H5Fget_file_image failed");
  std::string bytes(static_cast<std::size_t>(size), '\0');
  if (H5Fget_file_image(file.get(), bytes.data(), bytes.size()) != size)
    throw Error("HDF5: H5Fget_file_image failed");
  return bytes;
}

RankRecord rank_from_bytes(const std::string& bytes) {
  h5::Handle file;
  try {
    file = h5::open_image_readonly(bytes);
  } catch (const Error& e) {
    throw Error(std::string("a rank's result: ") + e.what());
  }
  return read_rank_at(file.get());
}

void write_fleet_file(const std::string& path, const FleetFile& fleet) {
  const core::CeilingsFile summary = fleet_summary(fleet);
  detail::write_hdf5_atomically(path, [&](hid_t root) {
    detail::write_ceilings_at(root, summary);
    h5::Handle group = h5::create_group(root, "fleet");
    h5::write_attr(group.get(), "size", std::int64_t{fleet.size});
    h5::write_attr(group.get(), "ranks_failed", std::int64_t{fleet.failed()});
    h5::write_attr(group.get(), "hosts", std::int64_t{fleet.hosts()});
    write_statistics(group.get(), fleet.statistics);
    write_rank_index(group.get(), fleet.ranks);
    h5::Handle ranks = h5::create_group(root, "ranks");
    for (const RankRecord& k : fleet.ranks) {
      h5::Handle g = h5::create_group(ranks.get(), std::to_string(k.rank).c_str());
      write_rank_at(g.get(), k);
    }
  });
}

namespace {

FleetFile read_fleet_here(const std::string& path) {
  h5::Handle file = h5::open_file_readonly(path);
  const hid_t root = file.get();
  try {
    FleetFile fleet;
    fleet.provenance = detail::read_ceilings_at(root).provenance;
    if (!h5::exists(root, "fleet"))
      throw Error("not a fleet file (no /fleet group: a ceilings file of one machine)");
    h5::Handle group = h5::open_group(root, "fleet");
    const int size = h5::read_int_attr<int>(group.get(), "size");
    if (size < 1 || size > (1 << 24)) throw Error("fleet size " + std::to_string(size));
    fleet.size = size;
    fleet.statistics = read_statistics(group.get());
    h5::Handle ranks = h5::open_group(root, "ranks");
    for (int r = 0; r < fleet.size; ++r) {
      const std::string name = std::to_string(r);
      try {
        h5::Handle g = h5::open_group(ranks.get(), name.c_str());
        fleet.ranks.push_back(read_rank_at(g.get()));
      } catch (const Error& e) {
        throw Error("/ranks/" + name + ": " + e.what());
      }
      if (fleet.ranks.back().rank != r)
        throw Error("/ranks/" + name + " says it is rank " +
                    std::to_string(fleet.ranks.back().rank));
    }
    return fleet;
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
}

bool is_fleet_here(const std::string& path) {
  h5::Handle file = h5::open_file_readonly(path);
  try {
    detail::read_ceilings_at(file.get());  // a ceilings file at all
    return h5::exists(file.get(), "fleet");
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
}

}  // namespace

FleetFile read_fleet_file(const std::string& path) {
  return detail::read_contained(path, [&] { return read_fleet_here(path); });
}

bool is_fleet_file(const std::string& path) {
  return detail::read_contained(path, [&] { return is_fleet_here(path); });
}

}  // namespace rooftop::ceilings
