// End to end on this machine: a quick characterization that `show --json` reads back,
// and a characterization stopped by Ctrl-C that leaves nothing behind.
// Slow (tens of seconds each); ctest label `e2e`.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "support.hpp"

namespace rooftop::testing {
namespace {

// Blocks SIGCHLD for the scope, so that sigtimedwait() can wait for a child to end
// with a timeout instead of polling.
class ChildSignalBlock {
 public:
  ChildSignalBlock() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set_, &old_);
  }
  ~ChildSignalBlock() { sigprocmask(SIG_SETMASK, &old_, nullptr); }
  ChildSignalBlock(const ChildSignalBlock&) = delete;
  ChildSignalBlock& operator=(const ChildSignalBlock&) = delete;

  // Waits up to `seconds` for `pid` to end; true (and its wait status) if it did.
  bool wait(pid_t pid, double seconds, int* status) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
      if (waitpid(pid, status, WNOHANG) == pid) return true;
      const double left =
          std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0.0) return false;
      timespec ts{};
      ts.tv_sec = static_cast<std::time_t>(left);
      ts.tv_nsec = static_cast<long>((left - static_cast<double>(ts.tv_sec)) * 1e9);
      sigtimedwait(&set_, nullptr, &ts);  // returns on SIGCHLD or at the deadline
    }
  }

 private:
  sigset_t set_{}, old_{};
};

TEST(CliEndToEnd, QuickMeasureWritesCeilingsAndChartThatShowReads) {
  TempDir logs, files;
  const std::string h5 = files.file("q.h5");
  const std::string svg = files.file("q.svg");
  const RunResult m = run_rooftop({"measure", "--quick", "--out", h5, "--plot", svg}, logs);
  ASSERT_EQ(m.status, 0) << "stderr:\n" << m.err << "\nstdout:\n" << m.out;
  EXPECT_EQ(files.entries(), (std::vector<std::string>{"q.h5", "q.svg"}));
  std::printf("quick measure took %.1f s\n", m.seconds);

  const RunResult s = run_rooftop({"show", h5, "--json"}, logs);
  ASSERT_EQ(s.status, 0) << s.err;
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(s.out)) << s.out;
  ASSERT_TRUE(j["schema_version"].is_string());
  EXPECT_EQ(j["schema_version"].get<std::string>().rfind("1.", 0), 0u);

  std::vector<std::string> expected = {"fp64_fma", "fp64_nofma", "fp32_fma", "fp32_nofma",
                                       "l1",       "l2",         "dram"};
  for (const auto& cache : j["machine"]["caches"])
    if (cache["level"] == "l3") expected.push_back("l3");

  std::set<std::string> names;
  for (const auto& c : j["ceilings"]) {
    const std::string name = c["name"];
    names.insert(name);
    SCOPED_TRACE(name);
    ASSERT_TRUE(c["value"].is_number());
    const double v = c["value"].get<double>();
    EXPECT_TRUE(std::isfinite(v) && v > 0.0) << v;
    EXPECT_GT(c["samples"].get<int>(), 0);
    EXPECT_TRUE(c["theoretical"].is_null() || c["theoretical"].is_number());
  }
  for (const std::string& name : expected) EXPECT_EQ(names.count(name), 1u) << "no ceiling " << name;

  const std::string chart = read_bytes(svg);
  EXPECT_EQ(chart.rfind("<?xml", 0), 0u) << chart.substr(0, 80);
  EXPECT_NE(chart.find("<svg"), std::string::npos);
}

TEST(CliEndToEnd, InterruptStopsMeasureWithStatus130AndWritesNothing) {
  TempDir logs, files;
  const std::string out = files.file("int.h5");
  const ChildSignalBlock children;
  const pid_t pid = spawn_rooftop({"measure", "--out", out}, logs.file("stdout.txt"),
                                  logs.file("stderr.txt"));
  int status = 0;
  // Give it about two seconds to get into the sweeps; ending sooner is a failure.
  if (children.wait(pid, 2.0, &status)) {
    FAIL() << "measure ended before it was interrupted (status "
           << decode_wait_status(status) << "): " << read_bytes(logs.file("stderr.txt"));
  }
  ASSERT_EQ(kill(pid, SIGINT), 0);
  const auto t0 = std::chrono::steady_clock::now();
  if (!children.wait(pid, 60.0, &status)) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    FAIL() << "measure did not stop within 60 s of SIGINT";
  }
  std::printf("stopped %.2f s after SIGINT\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  const std::string err = read_bytes(logs.file("stderr.txt"));
  EXPECT_EQ(decode_wait_status(status), 130) << err;
  EXPECT_TRUE(is_one_line(err)) << "stderr was:\n[" << err << "]";
  EXPECT_TRUE(files.entries().empty()) << "left behind: " << ::testing::PrintToString(files.entries());
}

}  // namespace
}  // namespace rooftop::testing
