// The rooftop program's error paths: every failure exits non-zero with exactly one line
// on stderr that says what went wrong, and fails before any long measurement starts.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_support.hpp"
#include "h5_files.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/config.hpp"
#include "support.hpp"

namespace rooftop::testing {
namespace {

// Measuring takes tens of seconds; failing early takes well under this.
constexpr double kFastSeconds = 10.0;

TEST(CliErrors, UnknownFlagFailsWithOneLine) {
  TempDir logs;
  const RunResult r = run_rooftop({"--no-such-flag"}, logs);
  expect_one_line_failure(r);
}

TEST(CliErrors, UnknownSubcommandFlagFailsWithOneLine) {
  TempDir logs;
  const RunResult r = run_rooftop({"show", "--no-such-flag", "x.h5"}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("--no-such-flag"), std::string::npos) << r.err;
}

TEST(CliErrors, MissingSubcommandFailsWithOneLine) {
  TempDir logs;
  expect_one_line_failure(run_rooftop({}, logs));
}

TEST(CliErrors, ShowMissingFileNamesIt) {
  TempDir logs, files;
  const std::string path = files.file("missing.h5");
  const RunResult r = run_rooftop({"show", path}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliErrors, ShowCorruptFileNamesIt) {
  TempDir logs, files;
  const std::string path = files.file("corrupt.h5");
  write_random_bytes(path, 4096);
  const RunResult r = run_rooftop({"show", path}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
}

TEST(CliErrors, ShowWrongSchemaVersionNamesFileAndVersion) {
  TempDir logs, files;
  const std::string path = files.file("future.h5");
  ceilings::write_file(path, sample_ceilings_file());
  rewrite_root_string_attr(path, "schema_version", "2.0");
  const RunResult r = run_rooftop({"show", path, "--json"}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("schema version 2.0"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliErrors, ShowValidFileSucceeds) {
  TempDir logs, files;
  const std::string path = files.file("good.h5");
  ceilings::write_file(path, sample_ceilings_file());
  const RunResult r = run_rooftop({"show", path}, logs);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("fp64_fma"), std::string::npos) << r.out;
}

TEST(CliErrors, MeasureIntoMissingDirectoryFailsBeforeMeasuring) {
  TempDir logs, files;
  const std::string out = (files.path() / "no-such-dir" / "x.h5").string();
  const RunResult r = run_rooftop({"measure", "--out", out}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find(out), std::string::npos) << r.err;
  EXPECT_LT(r.seconds, kFastSeconds) << "it measured before checking the output";
  EXPECT_TRUE(files.entries().empty());
}

TEST(CliErrors, MeasurePlotIntoMissingDirectoryFailsBeforeMeasuring) {
  TempDir logs, files;
  const std::string plot = (files.path() / "no-such-dir" / "x.svg").string();
  const RunResult r =
      run_rooftop({"measure", "--out", files.file("x.h5"), "--plot", plot}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find(plot), std::string::npos) << r.err;
  EXPECT_LT(r.seconds, kFastSeconds) << "it measured before checking the chart's path";
  EXPECT_TRUE(files.entries().empty());
}

TEST(CliErrors, MeasureDeviceOnHostBuildFailsWithOneClearLine) {
  if (ROOFTOP_HAS_DEVICE) GTEST_SKIP() << "this build has a GPU backend";
  TempDir logs, files;
  const RunResult r = run_rooftop({"measure", "--space", "device", "--out", files.file("x.h5")}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("device"), std::string::npos) << r.err;
  EXPECT_LT(r.seconds, kFastSeconds);
  EXPECT_TRUE(files.entries().empty());
}

TEST(CliErrors, MeasureUnknownSpaceFailsWithOneLine) {
  TempDir logs, files;
  const RunResult r = run_rooftop({"measure", "--space", "tpu", "--out", files.file("x.h5")}, logs);
  expect_one_line_failure(r);
  EXPECT_TRUE(files.entries().empty());
}

}  // namespace
}  // namespace rooftop::testing
