#pragma once
// Ceilings files and fleets that the ceilings tests (compare, fleet) and the report tests
// (their tables and JSON) both build.

#include <string>
#include <vector>

#include "rooftop/ceilings/fleet.hpp"
#include "rooftop/ceilings/io.hpp"
#include "support.hpp"

namespace rooftop::testing {

inline core::CeilingsFile file_with(const std::string& machine,
                                    std::vector<core::Ceiling> ceilings) {
  core::CeilingsFile f;
  f.machine.cpu_model = machine;
  f.provenance.created_utc = "2026-11-21T12:00:00Z";
  f.ceilings = std::move(ceilings);
  return f;
}

// A CPU with an L3 and a GPU without one, but with a theoretical-only L1.
inline core::CeilingsFile cpu_file() {
  return file_with(
      "Test CPU",
      {make_ceiling("fp64_fma", 100.0, 90.0, 110.0, 5), make_ceiling("l1", 300.0, 290.0, 310.0, 5),
       make_ceiling("l3", 150.0, 140.0, 160.0, 5), make_ceiling("dram", 40.0, 38.0, 42.0, 5)});
}

inline core::CeilingsFile gpu_file() {
  core::Ceiling l1 = make_ceiling("l1", 14336.0, 14336.0, 14336.0, 0);
  l1.theoretical = 14336.0;
  core::CeilingsFile f = file_with("", {make_ceiling("dram", 800.0, 800.0, 800.0, 1),
                                        make_ceiling("fp64_fma", 7000.0, 7000.0, 7000.0, 1), l1});
  f.machine.gpu_name = "Test GPU";
  return f;
}

inline ceilings::RankRecord ok_rank(int rank, const std::string& host,
                                    std::vector<core::Ceiling> ceilings) {
  ceilings::RankRecord k;
  k.rank = rank;
  k.hostname = host;
  k.device = "cpus " + std::to_string(rank);
  k.cpus = std::to_string(rank);
  k.status = "ok";
  k.seconds = 8.5;
  core::CeilingsFile f = sample_ceilings_file();
  f.machine.hostname = host;
  f.ceilings = std::move(ceilings);
  k.file = f;
  return k;
}

inline ceilings::RankRecord failed_rank(int rank, const std::string& host,
                                        const std::string& reason) {
  ceilings::RankRecord k;
  k.rank = rank;
  k.hostname = host;
  k.device = "gpu 1";
  k.status = "failed";
  k.reason = reason;
  return k;
}

inline core::Provenance fleet_provenance() {
  core::Provenance p = ceilings::current_provenance("rooftop measure --quick --out fleet.h5");
  p.created_utc = "2026-11-22T10:00:00Z";
  return p;
}

// Four ranks on two hosts: rank 2 has failed, rank 3 is 10% slow on dram.
inline ceilings::FleetFile sample_fleet() {
  return ceilings::make_fleet(fleet_provenance(),
                              {ok_rank(3, "node02",
                                       {make_ceiling("fp64_fma", 100.0, 98.0, 101.0, 5),
                                        make_ceiling("dram", 9.0, 8.9, 9.1, 3)}),
                               ok_rank(0, "node01",
                                       {make_ceiling("dram", 10.0, 9.9, 10.1, 3),
                                        make_ceiling("fp64_fma", 100.0, 99.0, 102.0, 5)}),
                               failed_rank(2, "node02", "--space device: no GPU backend"),
                               ok_rank(1, "node01",
                                       {make_ceiling("fp64_fma", 104.0, 103.0, 105.0, 5),
                                        make_ceiling("dram", 10.2, 10.0, 10.3, 3)})});
}

}  // namespace rooftop::testing
