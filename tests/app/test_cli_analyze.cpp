// analyze, import and plot as a user runs them: the GPP ladder and the reference kernels
// at the tiny size end to end (table, JSON, kernels file, chart), an Nsight Compute
// report placed on a ceilings file, and every failure as one line before any work.

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "h5_files.hpp"
#include "rooftop/ceilings/io.hpp"
#include "support.hpp"

namespace rooftop::testing {
namespace {

using nlohmann::json;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A ceilings file with fp64 and DRAM ceilings, as `measure` writes it.
std::string ceilings_file(const TempDir& dir) {
  const std::string path = dir.file("ceilings.h5");
  ceilings::write_file(path, sample_ceilings_file());
  return path;
}

TEST(CliAnalyze, GppLadderAndReferenceKernelsAtTheTinySize) {
  TempDir logs, files;
  const std::string c = ceilings_file(files);
  const std::string out = files.file("kernels.h5"), plot = files.file("gpp.svg");
  const RunResult r = run_rooftop({"analyze", "--ceilings", c, "--kernels", "gpp,triad,stencil",
                                   "--size", "tiny", "--out", out, "--plot", plot, "--json"},
                                  logs);
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["ceilings"], c);
  ASSERT_EQ(j["kernels"].size(), 11u);
  for (const json& k : j["kernels"]) {
    SCOPED_TRACE(k["name"].get<std::string>());
    EXPECT_EQ(k["check"], "passed");
    EXPECT_EQ(k["source"], "declared");
    EXPECT_GT(k["time_s"].get<double>(), 0.0);
    EXPECT_GT(k["gflop_per_s"].get<double>(), 0.0);
    EXPECT_GT(k["bytes"]["dram"].get<double>(), 0.0);
    EXPECT_GT(k["ai"]["dram"].get<double>(), 0.0);
    EXPECT_TRUE(k["limiter"] == "fp64_fma" || k["limiter"] == "dram") << k["limiter"];
    EXPECT_GT(k["fraction_of_roof"].get<double>(), 0.0);
  }
  EXPECT_EQ(j["kernels"][0]["id"], "v1");
  EXPECT_EQ(j["kernels"][8]["id"], "v9");

  const core::CeilingsFile back = ceilings::read_file(out);
  ASSERT_EQ(back.kernels.size(), 11u);
  EXPECT_EQ(back.ceilings.size(), sample_ceilings_file().ceilings.size()) << "ceilings copied";
  EXPECT_EQ(back.kernels[3].name, "gpp::v4_frequency_outside");

  const std::string svg = read_bytes(plot);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_EQ(count(svg, "class='kernel level-dram"), 11u) << "one marker per kernel and level";
  EXPECT_EQ(count(svg, "class='step'"), 8u) << "9 GPP versions joined; reference kernels not";
}

// stderr to a file, as under a time limit in a script: the estimate first, then a line as
// each kernel starts and one with its seconds as it ends, so a run cut short shows the
// kernel it was in.
TEST(CliAnalyze, ALogSaysEveryKernelAsItStartsAndEndsWithItsSeconds) {
  TempDir logs, files;
  const RunResult r = run_rooftop({"analyze", "--ceilings", ceilings_file(files), "--kernels",
                                   "triad,gpp:v2", "--size", "tiny"},
                                  logs);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::size_t estimate = r.err.find("rooftop: estimate: 2 kernels, about ");
  const std::size_t started = r.err.find("rooftop: [1/2] reference::triad ...\n");
  const std::size_t ended = r.err.find("rooftop: [1/2] reference::triad: ");
  const std::size_t second = r.err.find("rooftop: [2/2] gpp::v2_collapse_two ...\n");
  const std::size_t last = r.err.find("rooftop: [2/2] gpp::v2_collapse_two: ");
  ASSERT_NE(estimate, std::string::npos) << r.err;
  ASSERT_NE(started, std::string::npos) << r.err;
  ASSERT_NE(ended, std::string::npos) << r.err;
  ASSERT_NE(second, std::string::npos) << r.err;
  ASSERT_NE(last, std::string::npos) << r.err;
  EXPECT_LT(estimate, started);
  EXPECT_LT(started, ended);
  EXPECT_LT(ended, second);
  EXPECT_LT(second, last);
  EXPECT_NE(r.err.find(" s\n", last), std::string::npos) << "the step's seconds: " << r.err;
  EXPECT_NE(r.err.find("(timed runs) x its run time"), std::string::npos) << r.err;
}

// --once: one run of each kernel, its time that run (what a profiler outside sees).
TEST(CliAnalyze, OnceRunsEveryKernelOnce) {
  TempDir logs, files;
  const RunResult r = run_rooftop({"analyze", "--ceilings", ceilings_file(files), "--kernels",
                                   "triad,gpp:v4", "--size", "tiny", "--once", "--json"},
                                  logs);
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 2u);
  for (const json& k : j["kernels"]) {
    SCOPED_TRACE(k["name"].get<std::string>());
    EXPECT_EQ(k["check"], "passed");
    EXPECT_EQ(k["samples"], 1);
    EXPECT_NE(k["time_source"].get<std::string>().find("median of 1 run"), std::string::npos)
        << k["time_source"];
  }
}

TEST(CliAnalyze, TableNamesEveryVersion) {
  TempDir logs, files;
  const RunResult r = run_rooftop({"analyze", "--ceilings", ceilings_file(files), "--kernels",
                                   "gpp:v1,gpp:v9", "--size", "tiny"},
                                  logs);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("gpp::v1_collapse_all"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gpp::v9_cache_blocking"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("AI dram"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("passed"), std::string::npos) << r.out;
}

TEST(CliAnalyze, MissingCeilingsFileIsOneLine) {
  TempDir logs;
  const RunResult r = run_rooftop({"analyze", "--ceilings", "no-such.h5", "--size", "tiny"}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("no-such.h5"), std::string::npos) << r.err;
}

TEST(CliAnalyze, WrongSchemaVersionIsOneLine) {
  TempDir logs, files;
  const std::string c = ceilings_file(files);
  rewrite_root_string_attr(c, "schema_version", "2.0");
  const RunResult r = run_rooftop({"analyze", "--ceilings", c, "--size", "tiny"}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("schema version 2.0"), std::string::npos) << r.err;
}

TEST(CliAnalyze, UnknownKernelFailsAndLeavesAnExistingOutputAlone) {
  TempDir logs, files;
  const std::string out = files.file("kept.h5");
  write_bytes(out, "previous contents");
  const RunResult r = run_rooftop({"analyze", "--ceilings", ceilings_file(files), "--kernels",
                                   "gpp,fft", "--size", "tiny", "--out", out},
                                  logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("unknown kernel 'fft'"), std::string::npos) << r.err;
  EXPECT_EQ(read_bytes(out), "previous contents");
}

TEST(CliAnalyze, UnknownSizeIsAFlagError) {
  TempDir logs, files;
  const RunResult r =
      run_rooftop({"analyze", "--ceilings", ceilings_file(files), "--size", "huge"}, logs);
  expect_one_line_failure(r);
  EXPECT_EQ(r.status, 2);
}

TEST(CliAnalyze, UnwritableOutputFailsBeforeRunning) {
  TempDir logs, files;
  const RunResult r = run_rooftop({"analyze", "--ceilings", ceilings_file(files), "--size", "tiny",
                                   "--plot", (files.path() / "no-dir" / "x.svg").string()},
                                  logs);
  expect_one_line_failure(r);
  EXPECT_LT(r.seconds, 5.0);
}

TEST(CliImport, NsightComputeReportOnCeilings) {
  TempDir logs, files;
  const std::string out = files.file("imported.h5"), plot = files.file("imported.svg");
  const RunResult r =
      run_rooftop({"import", std::string(ROOFTOP_TEST_FIXTURES) + "/import/ncu-long-gemm-a100.csv",
                   "--ceilings", ceilings_file(files), "--out", out, "--plot", plot, "--json"},
                  logs);
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_FALSE(j["kernels"].empty());
  for (const json& k : j["kernels"]) {
    EXPECT_EQ(k["source"], "ncu-import");
    EXPECT_TRUE(k["check"].is_null()) << "an imported kernel has no answer to check";
  }
  EXPECT_EQ(ceilings::read_file(out).kernels.size(), j["kernels"].size());
  EXPECT_EQ(read_bytes(plot).rfind("<?xml", 0), 0u);
}

TEST(CliImport, MalformedReportNamesFileAndLine) {
  TempDir logs, files;
  const std::string bad = std::string(ROOFTOP_TEST_FIXTURES) + "/import/ncu-unbalanced-quote.csv";
  const RunResult r = run_rooftop({"import", bad, "--ceilings", ceilings_file(files)}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("ncu-unbalanced-quote.csv:"), std::string::npos) << r.err;
}

TEST(CliImport, MissingReportIsOneLine) {
  TempDir logs, files;
  const RunResult r = run_rooftop({"import", "none.csv", "--ceilings", ceilings_file(files)}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("none.csv"), std::string::npos) << r.err;
}

TEST(CliImport, SeveralFilesEachToldByItsContent) {
  // An Nsight Systems export and a PyTorch trace: times only, so each is listed with its
  // times, the ids running on from one file to the next.
  TempDir logs, files;
  const std::string dir = std::string(ROOFTOP_TEST_FIXTURES) + "/import/";
  const RunResult r = run_rooftop({"import", dir + "nsys-saxpy-perlmutter.sqlite",
                                   dir + "pytorch-triton.json.gz", "--ceilings",
                                   ceilings_file(files), "--json"},
                                  logs);
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 2u);
  EXPECT_EQ(j["kernels"][0]["id"], "k1");
  EXPECT_EQ(j["kernels"][0]["source"], "nsys-import");
  EXPECT_EQ(j["kernels"][1]["id"], "k2");
  EXPECT_EQ(j["kernels"][1]["source"], "pytorch-import");
  EXPECT_TRUE(j["kernels"][0]["ai"].empty());
  bool told = false;
  for (const json& n : j["notes"])
    told = told || n.get<std::string>().find("read as Nsight Systems SQLite export + PyTorch "
                                             "profiler trace") != std::string::npos;
  EXPECT_TRUE(told) << j["notes"].dump();
}

TEST(CliImport, AFileInNoFormatOrACutGzipIsOneLine) {
  TempDir logs, files;
  const std::string odd = files.file("odd.txt");
  write_bytes(odd, "hello\n");
  const RunResult r = run_rooftop({"import", odd, "--ceilings", ceilings_file(files)}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("no format rooftop reads (it reads: "), std::string::npos) << r.err;
  const std::string gz =
      read_bytes(std::string(ROOFTOP_TEST_FIXTURES) + "/import/pytorch-simple-add.json.gz");
  const std::string cut = files.file("cut.json.gz");
  write_bytes(cut, gz.substr(0, gz.size() / 3));
  const RunResult c = run_rooftop({"import", cut, "--ceilings", ceilings_file(files)}, logs);
  expect_one_line_failure(c);
  EXPECT_NE(c.err.find("truncated"), std::string::npos) << c.err;
}

// A kernels file (k.h5): triad at the tiny size, placed on ceilings_file's ceilings.
std::string kernels_file(const TempDir& logs, const TempDir& files) {
  const std::string k = files.file("k.h5");
  const RunResult r = run_rooftop(
      {"analyze", "--ceilings", ceilings_file(files), "--kernels", "triad", "--size", "tiny",
       "--out", k},
      logs);
  EXPECT_EQ(r.status, 0) << r.err;
  return k;
}

TEST(CliPlot, KernelsFileShowsAndPlotsAndTwoFilesGiveTheOverlay) {
  TempDir logs, files;
  const std::string k = kernels_file(logs, files), c = files.file("ceilings.h5");
  const RunResult shown = run_rooftop({"show", k, "--json"}, logs);
  ASSERT_EQ(shown.status, 0) << shown.err;
  const json j = json::parse(shown.out);
  ASSERT_EQ(j["kernels"].size(), 1u) << "show lists a file's kernels after its ceilings";
  EXPECT_EQ(j["kernels"][0]["id"], "triad");
  EXPECT_FALSE(j["ceilings"].empty());

  const std::string one = files.file("one.svg"), two = files.file("two.svg");
  EXPECT_EQ(run_rooftop({"plot", k, "--out", one}, logs).status, 0);
  EXPECT_EQ(count(read_bytes(one), "class='kernel level-dram"), 1u);
  EXPECT_EQ(run_rooftop({"plot", c, k, "--out", two}, logs).status, 0);
  EXPECT_EQ(count(read_bytes(two), "class='legend'"), 2u);
  expect_one_line_failure(run_rooftop({"plot", c}, logs));  // --out is required
}

TEST(CliReport, OnePageOfOneOrSeveralFilesAndOneLineErrors) {
  TempDir logs, files;
  const std::string k = kernels_file(logs, files), c = files.file("ceilings.h5");
  const std::string page = files.file("report.html");
  const RunResult r = run_rooftop({"report", k, "--out", page}, logs);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "wrote " + page + "\n");
  const std::string html = read_bytes(page);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("\"id\":\"triad\""), std::string::npos) << "the kernel in the data";
  // Two files: the comparison rides along. An existing page survives a failed run.
  ASSERT_EQ(run_rooftop({"report", c, k, "--out", page}, logs).status, 0);
  EXPECT_NE(read_bytes(page).find("\"comparison\":{"), std::string::npos);
  const std::string before = read_bytes(page);
  expect_one_line_failure(run_rooftop({"report", files.file("missing.h5"), "--out", page}, logs));
  expect_one_line_failure(run_rooftop({"report", k, k, "--out", page}, logs));
  EXPECT_EQ(read_bytes(page), before);
  expect_one_line_failure(run_rooftop({"report", k, "--out", files.file("no/such/dir.html")}, logs));
  const RunResult no_out = run_rooftop({"report", k}, logs);
  expect_one_line_failure(no_out);
  EXPECT_EQ(no_out.status, 2) << "--out is required";
  EXPECT_EQ(files.entries(), (std::vector<std::string>{"ceilings.h5", "k.h5", "report.html"}))
      << "no temporary left behind";
}

TEST(CliProfile, EveryLabelledKernelOfAnUnmodifiedKokkosProgram) {
  TempDir logs, files;
  const std::string out = files.file("profiled.h5");
  const RunResult r = run_rooftop({"profile", "--ceilings", ceilings_file(files), "--out", out,
                                   "--json", "--", ROOFTOP_CONNECTOR_APP},
                                  logs);
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  std::map<std::string, json> by_name;
  for (const json& k : j["kernels"]) by_name[k["name"].get<std::string>()] = k;
  ASSERT_TRUE(by_name.count("app::axpy")) << r.out;
  EXPECT_EQ(by_name["app::axpy"]["invocations"], 3);
  EXPECT_GT(by_name["app::axpy"]["time_s"].get<double>(), 0.0);
  EXPECT_EQ(by_name["app::dot"]["invocations"], 1);
  EXPECT_EQ(by_name["app::prefix"]["invocations"], 1);
  EXPECT_EQ(ceilings::read_file(out).kernels.size(), j["kernels"].size());
  // The program's Kokkos reads KOKKOS_TOOLS_LIBS, so it is not handed the deprecated name.
  EXPECT_EQ(r.err.find("deprecated"), std::string::npos) << r.err;
}

TEST(CliProfile, AProgramThatFailsOrIsNotKokkosIsOneLine) {
  TempDir logs, files;
  const std::string c = ceilings_file(files);
  RunResult r = run_rooftop({"profile", "--ceilings", c, "--", "/bin/false"}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("exited with status 1"), std::string::npos) << r.err;
  r = run_rooftop({"profile", "--ceilings", c, "--", "/bin/true"}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("wrote no profile"), std::string::npos) << r.err;
  r = run_rooftop({"profile", "--ceilings", c, "--", "no-such-program"}, logs);
  expect_one_line_failure(r);
  expect_one_line_failure(run_rooftop({"profile", "--ceilings", c}, logs));
}

}  // namespace
}  // namespace rooftop::testing
