// `measure` under MPI: every rank characterizes its share of its node, sends its result
// (or why it has none) to rank 0 in one gather, and rank 0 writes one fleet file once.
// Nothing between two collectives may throw past them: a failure becomes data, so that
// no rank ever waits for one that has left.

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>

#include "fleet.hpp"
#include "interrupt.hpp"
#include "measure.hpp"
#include "mpi_session.hpp"
#include "rooftop/ceilings/fleet.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/host_name.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/terminal.hpp"
#include "rooftop/report/chart.hpp"
#include "rooftop/report/fleet_table.hpp"

namespace rooftop::app {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string one_line(std::string message) {
  for (char& c : message)
    if (c == '\n' || c == '\r') c = ' ';
  return message;
}

// This rank's share of its node: on GPU nodes one GPU chosen from the node-local rank
// (Slurm's --gpus-per-task=1 leaves each rank exactly one to see), on CPU nodes the
// cores the launcher bound the rank to, one Kokkos thread per CPU unless the user chose.
void place_rank(const MeasureOptions& options, const MpiSession& mpi, const std::vector<int>& cpus,
                ceilings::RankRecord& record) {
  if (options.space == "device") {
    const int gpus = visible_gpus();
    if (gpus == 0) throw Error("no GPU visible on " + record.hostname);
    const int id = mpi.local_rank() % gpus;
    record.device = "gpu " + std::to_string(id);
    if (mpi.local_size() > gpus)
      record.device += " (shared by " + std::to_string(mpi.local_size()) + " ranks)";
    setenv("KOKKOS_DEVICE_ID", std::to_string(id).c_str(), 1);
  } else if (!cpus.empty() && !std::getenv("OMP_NUM_THREADS")) {
    setenv("KOKKOS_NUM_THREADS", std::to_string(cpus.size()).c_str(), 0);
  }
}

// Everything this rank has to say: its ceilings file, or the reason it has none.
ceilings::RankRecord measure_rank(const MeasureOptions& options, const std::string& command_line,
                                  const MpiSession& mpi) {
  ceilings::RankRecord record;
  record.rank = mpi.rank();
  record.hostname = core::host_name();
  record.local_rank = mpi.local_rank();
  record.local_size = mpi.local_size();
  const std::vector<int> cpus = bound_cpus();
  record.cpus = cpu_list(cpus);
  record.device = options.space == "device" ? "gpu" : "cpus " + record.cpus;
  const Clock::time_point t0 = Clock::now();
  try {
    check_space(options);
    place_rank(options, mpi, cpus, record);
    KokkosRun run;
    std::vector<std::string> skipped;
    record.file = characterize(options, command_line, run, mpi.rank() == 0, skipped);
    record.status = "ok";
  } catch (const Interrupted&) {
    record.reason = "interrupted";
  } catch (const std::bad_alloc&) {
    record.reason = "out of memory (try --quick or fewer ranks per node)";
  } catch (const std::exception& e) {
    record.reason = one_line(e.what());
  }
  if (!record.file) record.status = "failed";
  record.seconds = seconds_since(t0);
  return record;
}

// The record as bytes; a record that cannot be encoded is sent as a failure saying so.
std::string encode(ceilings::RankRecord record) {
  try {
    return ceilings::to_bytes(record);
  } catch (const std::exception& e) {
    record.file.reset();
    record.status = "failed";
    record.reason = "its result could not be encoded: " + one_line(e.what());
    return ceilings::to_bytes(record);
  }
}

ceilings::RankRecord decode(const std::string& bytes, int rank) {
  try {
    return ceilings::rank_from_bytes(bytes);
  } catch (const Error& e) {
    ceilings::RankRecord record;
    record.rank = rank;
    record.status = "failed";
    record.reason = std::string("its result could not be read: ") + e.what();
    return record;
  }
}

}  // namespace

int run_measure_fleet(const MeasureOptions& options, const std::string& command_line) {
  MpiSession mpi;
  const bool root = mpi.rank() == 0;

  // Fail before the fleet measures, not after: every rank learns rank 0's verdict.
  std::string problem;
  if (root) {
    try {
      core::check_writable(options.out);
      if (!options.plot.empty()) core::check_writable(options.plot);
      core::check_apart(options.out, options.plot);
    } catch (const Error& e) {
      problem = e.what();
    }
  }
  if (mpi.broadcast_from_root(problem.empty() ? 0 : 1) != 0) {
    if (root) throw Error(problem);
    // Rank 0 says why and fails the job. Exiting non-zero here would let mpirun kill
    // rank 0 before its line is out.
    return 0;
  }

  const std::string bytes = encode(measure_rank(options, command_line, mpi));
  const Clock::time_point gather_start = Clock::now();
  const std::vector<std::string> results = mpi.gather_to_root(bytes);
  const double gather_seconds = seconds_since(gather_start);
  if (!root) return 0;  // rank 0 reports every rank
  if (interrupted()) throw Interrupted();

  const Clock::time_point write_start = Clock::now();
  std::vector<ceilings::RankRecord> ranks;
  std::size_t total_bytes = 0;
  for (std::size_t r = 0; r < results.size(); ++r) {
    ranks.push_back(decode(results[r], static_cast<int>(r)));
    total_bytes += results[r].size();
  }
  const ceilings::FleetFile fleet =
      ceilings::make_fleet(ceilings::current_provenance(command_line), std::move(ranks));
  ceilings::write_fleet_file(options.out, fleet);
  if (!options.plot.empty())
    core::write_text_file(
        options.plot,
        report::fleet_spread_svg(fleet, ceilings::review(fleet, ceilings::kDefaultSlowThreshold)));
  const double write_seconds = seconds_since(write_start);

  std::cout << core::terminal_text(report::fleet_table(fleet));
  char line[256];
  std::snprintf(line, sizeof line,
                "\nMPI: start %.3f s; one gather of %.1f KiB %.3f s (waiting for the slowest rank "
                "included); decode and write %.3f s\n",
                mpi.init_seconds(), static_cast<double>(total_bytes) / 1024.0, gather_seconds,
                write_seconds);
  std::cout << line << "wrote " << options.out
            << (options.plot.empty() ? "" : " and " + options.plot) << "\n";

  if (fleet.failed() == fleet.size) {
    const ceilings::RankRecord& first = fleet.ranks.front();
    throw Error("every rank failed (" + first.label() + ": " + first.reason + "); " + options.out +
                " holds their reasons");
  }
  for (const ceilings::RankRecord& k : fleet.ranks)
    if (!k.ok())
      std::cerr << "rooftop: warning: " << core::terminal_text(k.label() + ": failed: " + k.reason)
                << "\n";
  return 0;
}

}  // namespace rooftop::app
