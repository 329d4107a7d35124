// The rooftop program on hostile input, as a user would meet it: damaged files fail in one
// line (no crash, no hang), outputs are checked before any work, stop signals end the
// run within a second (and a profiled program with it), and text from files cannot
// drive the terminal.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cli_support.hpp"
#include "rooftop/ceilings/fleet.hpp"
#include "rooftop/ceilings/io.hpp"
#include "support.hpp"

namespace rooftop::testing {
namespace {

const std::string kH5 = std::string(ROOFTOP_TEST_FIXTURES) + "/h5/";

// Waits up to `seconds` for `pid`; its decoded status, or -1 (after killing it) if it ran on.
int wait_for(pid_t pid, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid, &status, WNOHANG) == pid) return decode_wait_status(status);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return -1;
}

std::string last_line(const std::string& text) {
  const std::size_t end = text.find_last_not_of('\n');
  if (end == std::string::npos) return "";
  const std::size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1,
                     end - (start == std::string::npos ? 0 : start + 1) + 1);
}

TEST(CliHostile, AColumnOutsideItsRowFailsInOneLineInsteadOfCrashing) {
  TempDir scratch;
  const std::string bad = kH5 + "bandwidth-member-offset.h5";
  for (const std::vector<std::string>& args : {std::vector<std::string>{"show", bad},
                                               {"show", "--json", bad},
                                               {"export", bad, "--format", "csv"}}) {
    const RunResult r = run_rooftop(args, scratch);
    expect_one_line_failure(r);
    EXPECT_NE(r.err.find("lies outside its row"), std::string::npos) << r.err;
  }
}

// Damaged sizes in old-format files (one to four bytes changed): a row of 4 GiB and a
// sweep of millions of rows made the reader allocate 2.3 to 4.2 GB before HDF5 failed;
// and object headers on which libhdf5 1.10 crashes in H5Aexists (SIGSEGV) in a process
// that reads the file as `show` does. None may crash the program or take gigabytes.
TEST(CliHostile, DamagedOldFormatFilesFailInOneLineWithinBoundedMemory) {
  TempDir scratch;
  for (const char* name : {"caches-row-4gib.h5", "compute-sweep-rows-damaged.h5",
                           "object-header-segv-1.h5", "object-header-segv-2.h5"}) {
    for (const std::vector<std::string>& args : {std::vector<std::string>{"show", kH5 + name},
                                                 {"show", "--json", kH5 + name},
                                                 {"export", kH5 + name, "--format", "csv"}}) {
      const RunResult r = run_rooftop(args, scratch);
      expect_one_line_failure(r);
      EXPECT_EQ(r.err.rfind("rooftop: error: " + kH5 + name + ": ", 0), 0u) << r.err;
      EXPECT_LT(r.max_rss_kib, 1L << 20) << name << ": " << r.max_rss_kib << " KiB";
      EXPECT_LT(r.seconds, 10.0) << name;
    }
  }
}

TEST(CliHostile, ImplausibleCeilingsAndSweepsFailInOneLineInsteadOfHanging) {
  TempDir scratch;
  const std::string out = scratch.file("chart.svg");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"plot", kH5 + "bandwidth-denormal.h5", "--out", out},
        {"compare", std::string(ROOFTOP_DATA_DIR) + "/example-ceilings.h5",
         kH5 + "bandwidth-denormal.h5", "--plot", out},
        {"plot", kH5 + "sweep-working-set-zero.h5", "--out", out}}) {
    const RunResult r = run_rooftop(args, scratch);
    expect_one_line_failure(r);
    EXPECT_LT(r.seconds, 10.0);
  }
}

TEST(CliHostile, MeasureIntoADirectoryFailsBeforeMeasuring) {
  TempDir scratch, target;
  const std::string dir = target.path().string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"measure", "--quick", "--out", dir},
        {"measure", "--quick", "--out", dir + "/"},
        {"measure", "--quick", "--out", target.file("c.h5"), "--plot", dir}}) {
    const RunResult r = run_rooftop(args, scratch);
    expect_one_line_failure(r);
    EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
    EXPECT_LT(r.seconds, 5.0) << "measured before refusing";
    EXPECT_TRUE(target.entries().empty());
  }
}

TEST(CliHostile, TextFromFilesCannotDriveTheTerminal) {
  TempDir scratch;
  core::CeilingsFile f = sample_ceilings_file();
  f.machine.hostname = "node\x1b]0;owned\x07";
  f.machine.cpu_model = "cpu\x1b[2J\x1b[H";
  const std::string path = scratch.file("escapes.h5");
  ceilings::write_file(path, f);
  const RunResult r = run_rooftop({"show", path}, scratch);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x07'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("node\\x1b]0;owned\\x07"), std::string::npos) << r.out;

  const std::string report = scratch.file("report.csv");
  std::ofstream(report)
      << "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\","
         "\"Max\",\"Avg\"\n\"GPU (0)\",\"evil\x1b[2J\",1,\"flop_count_dp\",\"FLOPs\",100,100,100\n"
         "\"GPU (0)\",\"evil\x1b[2J\",1,\"dram_read_throughput\",\"r\",1GB/s,1GB/s,1GB/s\n";
  const RunResult imported = run_rooftop({"import", report, "--ceilings", path}, scratch);
  EXPECT_EQ(imported.status, 0) << imported.err;
  EXPECT_NE(imported.out.find("evil\\x1b[2J"), std::string::npos) << imported.out;
  EXPECT_EQ(imported.out.find('\x1b'), std::string::npos) << imported.out;
  EXPECT_EQ(imported.err.find('\x1b'), std::string::npos) << imported.err;
}

// A fleet's review names failed ranks with the reasons and host names their file holds.
TEST(CliHostile, AFleetReviewCannotDriveTheTerminal) {
  TempDir scratch;
  ceilings::RankRecord ok;
  ok.rank = 0;
  ok.hostname = "node0";
  ok.status = "ok";
  ok.file = sample_ceilings_file();
  ceilings::RankRecord failed;
  failed.rank = 1;
  failed.hostname = "node\x1b]0;owned\x07";
  failed.status = "failed";
  failed.reason = "evil\x1b[2J";
  const std::string path = scratch.file("fleet.h5");
  ceilings::write_fleet_file(path, ceilings::make_fleet({}, {ok, failed}));
  const RunResult r = run_rooftop({"compare", path}, scratch);
  EXPECT_EQ(r.status, 3) << r.err;  // a failed rank was found
  EXPECT_NE(r.out.find("evil\\x1b[2J"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x07'), std::string::npos) << r.out;
}

// JSON output of text that is not UTF-8 replaces the bad bytes instead of failing with the
// JSON library's exception text.
TEST(CliHostile, TextThatIsNotUtf8StillPrintsAsJson) {
  TempDir scratch;
  core::CeilingsFile f = sample_ceilings_file();
  f.machine.hostname = "node\xff\xfe";
  const std::string path = scratch.file("latin1.h5");
  ceilings::write_file(path, f);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"show", "--json", path}, {"export", path, "--format", "json"}}) {
    const RunResult r = run_rooftop(args, scratch);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
    EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out;
  }
}

// A GPP kernel run takes minutes at the larger sizes and polls for Ctrl-C only between
// runs: the run must still end within a second or so of any stop signal.
TEST(CliHostile, AnalyzeStopsSoonAfterAStopSignal) {
  TempDir logs, files;
  const std::string c = files.file("c.h5");
  ceilings::write_file(c, sample_ceilings_file());
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    const pid_t pid = spawn_rooftop({"analyze", "--ceilings", c, "--kernels", "gpp", "--size",
                                     "small", "--out", files.file("k.h5")},
                                    logs.file("out.txt"), logs.file("err.txt"));
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    ASSERT_EQ(kill(pid, sig), 0);
    const auto t0 = std::chrono::steady_clock::now();
    const int status = wait_for(pid, 10.0);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string err = read_bytes(logs.file("err.txt"));
    EXPECT_EQ(status, 130) << "signal " << sig << ": " << err;
    EXPECT_LT(took, 3.0) << "signal " << sig;
    EXPECT_EQ(last_line(err), "rooftop: interrupted; nothing was written") << err;
    EXPECT_NE(err.find("the largest kernel holds about"), std::string::npos) << err;
    EXPECT_EQ(files.entries(), std::vector<std::string>{"c.h5"});
  }
}

TEST(CliHostile, ProfileEndsTheProfiledProgramWhenStopped) {
  TempDir logs, files;
  const std::string c = files.file("c.h5");
  ceilings::write_file(c, sample_ceilings_file());
  const std::string pid_file = files.file("child.pid");
  for (int sig : {SIGTERM, SIGHUP, SIGINT}) {
    std::remove(pid_file.c_str());
    const pid_t pid = spawn_rooftop(
        {"profile", "--ceilings", c, "--", "sh", "-c", "echo $$ > " + pid_file + "; exec sleep 60"},
        logs.file("out.txt"), logs.file("err.txt"));
    for (int i = 0; i < 200 && read_bytes(pid_file).empty(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    const pid_t child = static_cast<pid_t>(std::stol("0" + read_bytes(pid_file)));
    ASSERT_GT(child, 0) << read_bytes(logs.file("err.txt"));
    ASSERT_EQ(kill(pid, sig), 0);
    const int status = wait_for(pid, 10.0);
    const std::string err = read_bytes(logs.file("err.txt"));
    EXPECT_TRUE(status == 1 || status == 130) << "signal " << sig << ": status " << status;
    EXPECT_TRUE(is_one_line(err)) << err;
    EXPECT_NE(kill(child, 0), 0) << "the profiled program still runs after signal " << sig;
    if (kill(child, 0) == 0) kill(child, SIGKILL);
  }
}

TEST(CliHostile, AKernelNamedTwiceRunsOnce) {
  TempDir scratch;
  const std::string c = scratch.file("c.h5");
  ceilings::write_file(c, sample_ceilings_file());
  const RunResult r = run_rooftop(
      {"analyze", "--ceilings", c, "--kernels", "triad,triad", "--size", "tiny", "--json"},
      scratch);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["kernels"].size(), 1u) << r.out;
}

// A result that did not reach standard output (a full disk) is a failure, not exit 0.
TEST(CliHostile, AFullStandardOutputFailsInOneLine) {
  TempDir scratch;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"show", kH5 + "h200-ceilings.h5"},
        {"show", "--json", kH5 + "h200-ceilings.h5"},
        {"export", "--format", "csv", kH5 + "h200-ceilings.h5"}}) {
    const pid_t pid = spawn_rooftop(args, "/dev/full", scratch.file("err.txt"));
    RunResult r;
    r.status = wait_for(pid, 30);
    r.err = read_bytes(scratch.file("err.txt"));
    expect_one_line_failure(r);
    EXPECT_NE(r.err.find("writing standard output failed (No space left on device)"),
              std::string::npos)
        << args.front() << ": " << r.err;
  }
}

// Every command that reads files and writes one refuses to write over one it reads (under
// its own name, another name or a link), before any work; the input stays as it was.
TEST(CliHostile, NoCommandWritesOverItsInput) {
  TempDir scratch, work;
  const std::string input = work.file("c.h5"), link = work.file("link.h5");
  write_bytes(input, read_bytes(kH5 + "h200-ceilings.h5"));
  std::filesystem::create_symlink("c.h5", link);
  const std::string report = work.file("ncu.csv");
  write_bytes(report, read_bytes(std::string(ROOFTOP_TEST_FIXTURES) + "/import/ncu-raw-h200-gpp-small.csv"));
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"plot", input, "--out", input},
        {"export", "--format", "csv", input, "--out", link},
        {"report", link, "--out", input},
        {"compare", input, kH5 + "h200-gpp-small-cupti.h5", "--plot", input},
        {"import", "--ceilings", input, report, "--out", report},
        {"import", "--ceilings", input, report, "--plot", link},
        {"analyze", "--ceilings", link, "--kernels", "triad", "--size", "tiny", "--out", input}}) {
    const RunResult r = run_rooftop(args, scratch);
    expect_one_line_failure(r);
    EXPECT_NE(r.err.find("is also an input of this command"), std::string::npos)
        << args.front() << ": " << r.err;
    EXPECT_EQ(read_bytes(input), read_bytes(kH5 + "h200-ceilings.h5")) << args.front();
  }
  const RunResult twice = run_rooftop({"import", "--ceilings", input, report, report}, scratch);
  expect_one_line_failure(twice);
  EXPECT_NE(twice.err.find("given twice"), std::string::npos) << twice.err;
  const RunResult apart = run_rooftop(
      {"import", "--ceilings", input, report, "--out", work.file("k.h5"), "--plot", work.path().string() + "/./k.h5"},
      scratch);
  expect_one_line_failure(apart);
  EXPECT_NE(apart.err.find("names the same file as"), std::string::npos) << apart.err;
}

// An empty path (an unset shell variable) names no file, where it was once taken as "not
// given" and the command exited 0; NaN is no number of seconds; --device is a GPU's.
TEST(CliHostile, EmptyPathsNaNAndMisplacedFlagsAreRefused) {
  TempDir scratch;
  const std::string ceilings = kH5 + "h200-ceilings.h5";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"export", "--format", "csv", ceilings, "--out", ""},
        {"analyze", "--ceilings", ceilings, "--kernels", "triad", "--size", "tiny", "--plot", ""},
        {"analyze", "--ceilings", ceilings, "--kernels", "triad", "--size", "tiny",
         "--kernel-budget", "nan"},
        {"import", "--ceilings", ceilings, std::string(ROOFTOP_TEST_FIXTURES) + "/import/ncu-raw-h200-gpp-small.csv",
         "--timing", ""},
        {"measure", "--space", "host", "--device", "0", "--out", scratch.file("c.h5")}}) {
    const RunResult r = run_rooftop(args, scratch);
    expect_one_line_failure(r);
    EXPECT_LT(r.seconds, 5.0) << args.front() << " ran before refusing";
  }
}

// Out of memory while a trace is parsed once aborted ("terminate called after throwing
// an instance of 'std::bad_alloc'"): freeing the half-built document allocated too. Under
// address-space limits from too small to load the program to enough, every run ends by
// exiting, never by a signal.
TEST(CliHostile, ATraceTooLargeForTheMemoryLeftFailsWithoutAborting) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves more address space than the limits allow";
#endif
  TempDir scratch;
  const std::string trace = std::string(ROOFTOP_TEST_FIXTURES) + "/import/pytorch-h100-bert-small-with-flops.json.gz";
  int failed = 0, placed = 0;
  for (int kib = 38000; kib <= 78000; kib += 4000) {
    const std::string command = "ulimit -v " + std::to_string(kib) + "; exec '" + ROOFTOP_EXE +
                                "' import --ceilings '" + kH5 + "h200-ceilings.h5' '" + trace +
                                "' > /dev/null 2> '" + scratch.file("err.txt") + "'";
    const int status = decode_wait_status(std::system(("/bin/sh -c \"" + command + "\"").c_str()));
    const std::string err = read_bytes(scratch.file("err.txt"));
    ASSERT_GE(status, 0);
    EXPECT_LT(status, 128) << kib << " KiB: " << err;
    EXPECT_EQ(err.find("terminate called"), std::string::npos) << kib << " KiB: " << err;
    (status == 0 ? placed : failed) += 1;
  }
  RecordProperty("limits_failed", failed);
  RecordProperty("limits_placed", placed);
}

}  // namespace
}  // namespace rooftop::testing
