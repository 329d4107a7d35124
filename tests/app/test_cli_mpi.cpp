// The fleet end to end: `mpirun -n 2` and `-n 3` of the rooftop program on this machine
// (--quick sizes, oversubscribed where there are fewer cores than ranks), the fleet file's
// per-rank and fleet groups read with HDF5 directly, `show` and `compare` on it, and a
// rank that fails on purpose reported, not fatal. Built where MPI is found; ctest label
// `mpi`. ROOFTOP_MPIEXEC is the launcher CMake found.

#include <gtest/gtest.h>
#include <hdf5.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cli_support.hpp"
#include "support.hpp"

namespace rooftop::testing {
namespace {

// Runs ROOFTOP_MPIEXEC with `args`, killed after `limit_s` so that a hung rank fails the
// test with its output, before ctest's 120 s end it. `measure --quick` bounds its DRAM
// sets (1 GiB) whatever L3 a guest reports: two ranks took 11 s on a Zen 4 guest; before
// the bound, 125 to 147 s on a Xeon guest told of a 480 MiB L3.
// Open MPI refuses root unless told, and more ranks than cores unless told: both are said
// through the environment, which other MPIs ignore.
RunResult run_mpi(const std::vector<std::string>& args, const TempDir& scratch,
                  double limit_s = 100.0, const std::vector<std::string>& extra_env = {}) {
  std::vector<std::string> storage = {ROOFTOP_MPIEXEC};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::vector<std::string> env_storage = {"OMPI_ALLOW_RUN_AS_ROOT=1",
                                          "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
                                          "OMPI_MCA_rmaps_base_oversubscribe=1"};
  env_storage.insert(env_storage.end(), extra_env.begin(), extra_env.end());
  for (char** e = environ; *e; ++e) env_storage.emplace_back(*e);
  std::vector<char*> envp;
  for (std::string& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);

  const std::string out_path = scratch.file("mpi-stdout.txt");
  const std::string err_path = scratch.file("mpi-stderr.txt");
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&files, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, ROOFTOP_MPIEXEC, &files, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&files);
  if (rc != 0) throw std::runtime_error("cannot start " + std::string(ROOFTOP_MPIEXEC));

  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  int status = 0;
  bool timed_out = false;
  while (waitpid(pid, &status, WNOHANG) != pid) {
    if (!timed_out && elapsed() > limit_s) {
      timed_out = true;
      kill(pid, SIGTERM);  // the launcher takes its ranks down with it
    } else if (timed_out && elapsed() > limit_s + 10.0) {
      kill(pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  RunResult r;
  r.seconds = elapsed();
  r.status = decode_wait_status(status);
  r.out = read_bytes(out_path);
  r.err = read_bytes(err_path);
  if (timed_out) ADD_FAILURE() << "mpirun ran over " << limit_s << " s; stderr:\n" << r.err;
  return r;
}

std::string string_attr(hid_t location, const char* object, const char* name) {
  const hid_t attr = H5Aopen_by_name(location, object, name, H5P_DEFAULT, H5P_DEFAULT);
  if (attr < 0) return "<no attribute " + std::string(name) + ">";
  const hid_t type = H5Aget_type(attr);
  std::string value(H5Tget_size(type), '\0');
  H5Aread(attr, type, value.data());
  H5Tclose(type);
  H5Aclose(attr);
  return value.c_str();
}

hsize_t rows(hid_t file, const char* table) {
  const hid_t set = H5Dopen2(file, table, H5P_DEFAULT);
  if (set < 0) return 0;
  const hid_t space = H5Dget_space(set);
  hsize_t n = 0;
  H5Sget_simple_extent_dims(space, &n, nullptr);
  H5Sclose(space);
  H5Dclose(set);
  return n;
}

nlohmann::json compare_json(const std::string& fleet, const TempDir& logs, int* status,
                            const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"compare", fleet, "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const RunResult r = run_rooftop(args, logs);
  *status = r.status;
  EXPECT_TRUE(r.err.empty()) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(CliMpi, TwoRanksWriteOneFleetFileThatShowAndCompareRead) {
  TempDir logs, files;
  const std::string out = files.file("fleet.h5");
  const std::string svg = files.file("fleet.svg");
  const RunResult m =
      run_mpi({"-n", "2", ROOFTOP_EXE, "measure", "--quick", "--out", out, "--plot", svg}, logs);
  ASSERT_EQ(m.status, 0) << "stderr:\n" << m.err << "\nstdout:\n" << m.out;
  std::printf("mpirun -n 2 measure --quick took %.1f s\n", m.seconds);
  EXPECT_EQ(files.entries(), (std::vector<std::string>{"fleet.h5", "fleet.svg"}));
  EXPECT_NE(m.out.find("fleet of 2 ranks"), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("one gather of"), std::string::npos) << m.out;

  // The groups, read without rooftop.
  const hid_t f = H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  for (const char* rank : {"/ranks/0", "/ranks/1"}) {
    SCOPED_TRACE(rank);
    EXPECT_EQ(string_attr(f, rank, "status"), "ok");
    EXPECT_FALSE(string_attr(f, rank, "hostname").empty());
    EXPECT_EQ(string_attr(f, rank, "device").rfind("cpus ", 0), 0u);
    EXPECT_GE(rows(f, (std::string(rank) + "/ceilings").c_str()), 7u);
    EXPECT_GT(rows(f, (std::string(rank) + "/sweeps/bandwidth").c_str()), 0u);
  }
  EXPECT_EQ(H5Lexists(f, "/ranks/2", H5P_DEFAULT), 0);
  EXPECT_GE(rows(f, "/fleet/statistics"), 7u);
  EXPECT_EQ(rows(f, "/fleet/ranks"), 2u);
  EXPECT_EQ(string_attr(f, "/", "schema"), "rooftop-ceilings");
  H5Fclose(f);

  // show: the fleet medians as ceilings, and the fleet.
  const RunResult s = run_rooftop({"show", out, "--json"}, logs);
  ASSERT_EQ(s.status, 0) << s.err;
  const nlohmann::json shown = nlohmann::json::parse(s.out);
  ASSERT_GE(shown["ceilings"].size(), 7u);
  EXPECT_EQ(shown["ceilings"][0]["samples"], 2);  // two ranks
  EXPECT_EQ(shown["fleet"]["size"], 2);

  // compare: the exit status says whether a rank was flagged; a threshold of 1 flags none.
  int status = -1;
  const nlohmann::json j = compare_json(out, logs, &status);
  EXPECT_EQ(j["size"], 2);
  EXPECT_GE(j["statistics"].size(), 7u);
  EXPECT_TRUE(j["failed"].empty());
  EXPECT_EQ(status, j["slow"].empty() ? 0 : 3);
  for (const auto& slow : j["slow"]) {
    EXPECT_LT(slow["ratio"].get<double>(), 0.95);
    EXPECT_FALSE(slow["hostname"].get<std::string>().empty());
  }
  compare_json(out, logs, &status, {"--threshold", "1"});
  EXPECT_EQ(status, 0);

  const std::string chart = read_bytes(svg);
  EXPECT_NE(chart.find("<svg"), std::string::npos);
  EXPECT_NE(chart.find("value / fleet median"), std::string::npos);
}

TEST(CliMpi, ThreeRanksWithOneFailingOnPurposeStillWriteTheOthers) {
  TempDir logs, files;
  const std::string out = files.file("fleet.h5");
  // Rank 2 asks for GPU ceilings, which a host build (or this version) cannot measure: a
  // real "no device" failure. One thread per rank: three ranks share two cores here.
  const RunResult m =
      run_mpi({"-n", "2", ROOFTOP_EXE, "measure", "--quick", "--out", out, ":", "-n", "1",
               ROOFTOP_EXE, "measure", "--quick", "--space", "device", "--out", out},
              logs, 100.0, {"OMP_NUM_THREADS=1"});
  ASSERT_EQ(m.status, 0) << "stderr:\n" << m.err << "\nstdout:\n" << m.out;
  std::printf("mpirun -n 3 (one failing) measure --quick took %.1f s\n", m.seconds);
  EXPECT_NE(m.err.find("rooftop: warning: rank 2 on "), std::string::npos) << m.err;
  EXPECT_NE(m.out.find("fleet of 3 ranks on 1 host (1 failed)"), std::string::npos) << m.out;

  const hid_t f = H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  EXPECT_EQ(string_attr(f, "/ranks/0", "status"), "ok");
  EXPECT_EQ(string_attr(f, "/ranks/1", "status"), "ok");
  EXPECT_EQ(string_attr(f, "/ranks/2", "status"), "failed");
  EXPECT_NE(string_attr(f, "/ranks/2", "reason").find("--space device"), std::string::npos);
  EXPECT_EQ(H5Lexists(f, "/ranks/2/ceilings", H5P_DEFAULT), 0);
  EXPECT_EQ(rows(f, "/fleet/ranks"), 3u);
  H5Fclose(f);

  // compare: the failed rank is reported, host and device named, whatever the threshold.
  int status = -1;
  const nlohmann::json j = compare_json(out, logs, &status, {"--threshold", "1"});
  EXPECT_EQ(status, 3);
  ASSERT_EQ(j["failed"].size(), 1u);
  EXPECT_EQ(j["failed"][0]["rank"], 2);
  EXPECT_FALSE(j["failed"][0]["hostname"].get<std::string>().empty());
  EXPECT_EQ(j["failed"][0]["device"], "gpu");
  for (const auto& s : j["statistics"]) EXPECT_EQ(s["ranks"], 2) << s["name"];
  const RunResult text = run_rooftop({"compare", out}, logs);
  EXPECT_EQ(text.status, 3);
  EXPECT_NE(text.out.find("failed:\n  rank 2 on "), std::string::npos) << text.out;
}

TEST(CliMpi, AnOutputRank0CannotWriteStopsEveryRankBeforeMeasuring) {
  TempDir logs;
  const RunResult m =
      run_mpi({"-n", "2", ROOFTOP_EXE, "measure", "--quick", "--out", "/nonexistent/dir/fleet.h5"},
              logs, 60.0);
  EXPECT_NE(m.status, 0);
  EXPECT_LT(m.seconds, 30.0) << "the ranks measured before failing";
  EXPECT_NE(m.err.find("rooftop: error: /nonexistent/dir/fleet.h5: cannot write here"),
            std::string::npos)
      << m.err;
}

}  // namespace
}  // namespace rooftop::testing
