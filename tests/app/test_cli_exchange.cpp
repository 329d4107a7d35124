// The rooftop program's compare, export and import-ceilings subcommands: one happy path
// each, and every bad input ending in one line on stderr and a non-zero exit, with
// nothing written.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "h5_files.hpp"
#include "rooftop/ceilings/io.hpp"
#include "support.hpp"

namespace rooftop::testing {
namespace {

using nlohmann::json;

std::string fixture(const std::string& name) {
  return std::string(ROOFTOP_TEST_FIXTURES) + "/" + name;
}

// Two runs of one machine: fp64_fma clearly faster in the second (ranges apart), dram
// within the noise (ranges overlap).
void write_two_runs(const TempDir& files) {
  core::CeilingsFile a = sample_ceilings_file(), b = a;
  b.ceilings[0].value = b.ceilings[0].median = 120.0;
  b.ceilings[0].min = 118.0;
  b.ceilings[0].max = 121.0;
  b.ceilings[1].value = b.ceilings[1].median = 11.75;
  ceilings::write_file(files.file("a.h5"), a);
  ceilings::write_file(files.file("b.h5"), b);
}

const json& ceiling_row(const json& comparison, const std::string& name) {
  for (const json& c : comparison["ceilings"])
    if (c["name"] == name) return c;
  throw std::runtime_error("no ceiling " + name + " in " + comparison.dump());
}

// ---------------------------------------------------------------------------------------
// compare

TEST(CliCompare, TableWithRatiosAndNoiseAwareVerdicts) {
  TempDir logs, files;
  write_two_runs(files);
  const RunResult r = run_rooftop({"compare", files.file("a.h5"), files.file("b.h5")}, logs);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("fp64_fma"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("baseline"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("higher"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("same"), std::string::npos) << r.out;
}

TEST(CliCompare, JsonForScriptsAndAnOverlayChart) {
  TempDir logs, files;
  write_two_runs(files);
  const std::string a = files.file("a.h5"), b = files.file("b.h5"), svg = files.file("c.svg");
  const RunResult r = run_rooftop({"compare", a, b, "--json", "--plot", svg}, logs);
  ASSERT_EQ(r.status, 0) << r.err;
  json j;
  ASSERT_NO_THROW(j = json::parse(r.out)) << r.out;
  EXPECT_EQ(j["files"], json::array({a, b}));
  const json& fma = ceiling_row(j, "fp64_fma");
  EXPECT_EQ(fma["verdicts"], json::array({"baseline", "higher"}));
  EXPECT_DOUBLE_EQ(fma["ratios"][1].get<double>(), 120.0 / 101.5);
  EXPECT_EQ(ceiling_row(j, "dram")["verdicts"][1], "same");
  EXPECT_EQ(files.entries(), (std::vector<std::string>{"a.h5", "b.h5", "c.svg"}));
  const std::string chart = read_bytes(svg);
  EXPECT_EQ(chart.rfind("<?xml", 0), 0u);
  EXPECT_NE(chart.find("[2] " + b), std::string::npos);
}

TEST(CliCompare, ReferenceGpuAgainstAFileWithOtherLevels) {
  TempDir logs, files;
  const std::string cpu = files.file("cpu.h5");
  ceilings::write_file(cpu, sample_ceilings_file());  // fp64_fma and dram only
  const RunResult r =
      run_rooftop({"compare", std::string(ROOFTOP_DATA_DIR) + "/v100-ert.h5", cpu, "--json"}, logs);
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  const json& l2 = ceiling_row(j, "l2");
  EXPECT_TRUE(l2["values"][1].is_null()) << "a level the file lacks is absent, not zero";
  EXPECT_TRUE(l2["ratios"][1].is_null());
  EXPECT_EQ(l2["verdicts"][1], "absent");
  EXPECT_EQ(ceiling_row(j, "l1")["measured"][0], false);
  EXPECT_EQ(ceiling_row(j, "fp64_fma")["verdicts"][1], "no spread");
}

TEST(CliCompareErrors, OneFileIsNotAComparison) {
  TempDir logs, files;
  write_two_runs(files);
  const RunResult r = run_rooftop({"compare", files.file("a.h5")}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("at least two"), std::string::npos) << r.err;
}

TEST(CliCompareErrors, TheSameFileTwice) {
  TempDir logs, files;
  write_two_runs(files);
  const std::string a = files.file("a.h5");
  const std::string alias = (files.path() / "." / "a.h5").string();
  const RunResult r = run_rooftop({"compare", a, files.file("b.h5"), alias}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("given twice"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(alias), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliCompareErrors, FileOfAnotherSchemaMajorVersion) {
  TempDir logs, files;
  write_two_runs(files);
  rewrite_root_string_attr(files.file("b.h5"), "schema_version", "2.0");
  const RunResult r = run_rooftop({"compare", files.file("a.h5"), files.file("b.h5")}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find(files.file("b.h5")), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("schema version 2.0"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliCompareErrors, MissingFileIsNamed) {
  TempDir logs, files;
  write_two_runs(files);
  const std::string missing = files.file("missing.h5");
  const RunResult r = run_rooftop({"compare", files.file("a.h5"), missing}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
}

TEST(CliCompareErrors, ChartIntoMissingDirectoryWritesNothing) {
  TempDir logs, files;
  write_two_runs(files);
  const std::string plot = (files.path() / "no-such-dir" / "c.svg").string();
  const RunResult r =
      run_rooftop({"compare", files.file("a.h5"), files.file("b.h5"), "--plot", plot}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find(plot), std::string::npos) << r.err;
  EXPECT_EQ(files.entries(), (std::vector<std::string>{"a.h5", "b.h5"}));
}

// ---------------------------------------------------------------------------------------
// export and import-ceilings

TEST(CliExport, CsvToStdout) {
  TempDir logs, files;
  write_two_runs(files);
  const RunResult r = run_rooftop({"export", files.file("a.h5"), "--format", "csv"}, logs);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("machine,hostname,created_utc,name,kind,value,units,", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\nTest GPU,node017,"), std::string::npos) << r.out;
}

TEST(CliExport, ErtJsonThatImportCeilingsReadsBackWithTheSameValues) {
  TempDir logs, files;
  write_two_runs(files);
  const std::string ert = files.file("roofline.json"), back = files.file("back.h5");
  const RunResult e =
      run_rooftop({"export", files.file("a.h5"), "--format", "ert-json", "--out", ert}, logs);
  ASSERT_EQ(e.status, 0) << e.err;
  EXPECT_TRUE(e.out.empty()) << "the export went to --out";
  const json written = json::parse(read_bytes(ert));
  EXPECT_TRUE(written["empirical"]["gflops"]["data"].is_array());

  const RunResult i = run_rooftop({"import-ceilings", ert, "--out", back}, logs);
  ASSERT_EQ(i.status, 0) << i.err;
  const core::CeilingsFile original = ceilings::read_file(files.file("a.h5"));
  const core::CeilingsFile imported = ceilings::read_file(back);
  ASSERT_EQ(imported.ceilings.size(), original.ceilings.size());
  for (const core::Ceiling& c : original.ceilings) {
    SCOPED_TRACE(c.name);
    ASSERT_NE(imported.find(c.name), nullptr);
    EXPECT_EQ(imported.find(c.name)->value, c.value);
    EXPECT_EQ(imported.find(c.name)->theoretical, c.theoretical);
  }
  EXPECT_EQ(imported.machine.cpu_model, original.machine.cpu_model);
}

TEST(CliExportErrors, UnknownFormatWritesNothing) {
  TempDir logs, files;
  write_two_runs(files);
  const RunResult r = run_rooftop(
      {"export", files.file("a.h5"), "--format", "xlsx", "--out", files.file("a.xlsx")}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find("xlsx"), std::string::npos) << r.err;
  EXPECT_EQ(files.entries(), (std::vector<std::string>{"a.h5", "b.h5"}));
}

TEST(CliExportErrors, MissingInputOrFormat) {
  TempDir logs, files;
  const std::string missing = files.file("missing.h5");
  const RunResult r = run_rooftop({"export", missing, "--format", "csv"}, logs);
  expect_one_line_failure(r);
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
  write_two_runs(files);
  expect_one_line_failure(run_rooftop({"export", files.file("a.h5")}, logs));
}

TEST(CliImportCeilings, ErtFileBecomesACeilingsFileThatShowReads) {
  TempDir logs, files;
  const std::string out = files.file("ert.h5");
  const RunResult r =
      run_rooftop({"import-ceilings", fixture("ert-per-precision.json"), "--out", out}, logs);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("skipped empirical.gflops.data[2] \"FP16 GFLOPs\""), std::string::npos)
      << r.out;
  EXPECT_EQ(files.entries(), std::vector<std::string>{"ert.h5"});
  const RunResult s = run_rooftop({"show", out, "--json"}, logs);
  ASSERT_EQ(s.status, 0) << s.err;
  const json j = json::parse(s.out);
  ASSERT_EQ(j["ceilings"][0]["name"], "fp64_fma");
  EXPECT_DOUBLE_EQ(j["ceilings"][0]["value"].get<double>(), 7000.5);
  EXPECT_EQ(j["ceilings"][0]["samples"], 1);
}

TEST(CliImportCeilingsErrors, BadErtFilesFailWithOneLineAndWriteNothing) {
  TempDir logs, files, scratch;
  const std::string not_json = scratch.file("not.json");
  write_bytes(not_json, "GFLOPs 100\n");
  const std::pair<std::string, std::string> cases[] = {
      {fixture("ert-missing-gbytes.json"), "missing key 'empirical.gbytes'"},
      {fixture("ert-non-numeric.json"), "is not a number"},
      {fixture("ert-duplicate-level.json"), "a second value for dram"},
      {not_json, "not valid JSON"},
      {scratch.file("missing.json"), "no such file"}};
  for (const auto& [input, reason] : cases) {
    SCOPED_TRACE(input);
    const RunResult r = run_rooftop({"import-ceilings", input, "--out", files.file("x.h5")}, logs);
    expect_one_line_failure(r);
    EXPECT_NE(r.err.find(input), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
    EXPECT_TRUE(files.entries().empty());
  }
}

TEST(CliImportCeilingsErrors, OutIsRequired) {
  TempDir logs;
  expect_one_line_failure(
      run_rooftop({"import-ceilings", fixture("ert-per-precision.json")}, logs));
}

// ---------------------------------------------------------------------------------------
// export --format ncu-sections: a folder of Nsight Compute section files

const std::string kH200Ceilings = std::string(ROOFTOP_DATA_DIR) + "/h200-2026-11-27-ceilings-2.h5";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

RunResult export_sections(const std::string& input, const std::string& out, const TempDir& logs) {
  return run_rooftop({"export", input, "--format", "ncu-sections", "--out", out}, logs);
}

TEST(CliExportSections, OneLinePerFileWrittenAndTheNotesOnStderr) {
  TempDir logs, files;
  const std::string out = files.file("sections");
  const RunResult r = export_sections(kH200Ceilings, out, logs);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> written = lines_of(r.out);
  EXPECT_EQ(written.size(), 8u) << r.out;
  for (const std::string& path : written) {
    EXPECT_EQ(path.rfind(out + "/Rooftop_HierarchicalRoofline_", 0), 0u) << path;
    EXPECT_NE(read_bytes(path).find("Identifier: \"Rooftop_"), std::string::npos) << path;
  }
  EXPECT_EQ(TempDir::entries_of(out).size(), written.size());
  EXPECT_EQ(files.entries(), std::vector<std::string>{"sections"}) << "nothing left beside it";
  EXPECT_NE(r.err.find("rooftop: note: fp16: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rooftop: note: tc_fp8_e5m2: "), std::string::npos) << r.err;
}

TEST(CliExportSections, AnEmptyFolderIsReplaced) {
  TempDir logs, files;
  const std::string out = files.file("sections");
  std::filesystem::create_directory(out);
  const RunResult r = export_sections(kH200Ceilings, out + "/", logs);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(TempDir::entries_of(out).size(), 8u);
  EXPECT_EQ(files.entries(), std::vector<std::string>{"sections"});
}

TEST(CliExportSectionsErrors, OutMustNameANewOrEmptyFolderThatCanBeMade) {
  TempDir logs, files;
  write_bytes(files.file("a-file"), "kept");
  std::filesystem::create_directory(files.file("full"));
  write_bytes(files.file("full/mine.txt"), "kept");
  const std::pair<std::string, std::string> cases[] = {
      {files.file("a-file"), "is a file, not a folder"},
      {files.file("full"), "new folder"},
      {files.file("a-file/out"), "cannot create a folder here"},  // even as root
      {files.file("missing/out"), "cannot create a folder here"}};
  for (const auto& [out, reason] : cases) {
    SCOPED_TRACE(out);
    const RunResult r = export_sections(kH200Ceilings, out, logs);
    expect_one_line_failure(r);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find(out), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(files.entries(), (std::vector<std::string>{"a-file", "full"}));
    EXPECT_EQ(TempDir::entries_of(files.file("full")), std::vector<std::string>{"mine.txt"});
    EXPECT_EQ(read_bytes(files.file("a-file")), "kept");
  }
}

TEST(CliExportSectionsErrors, OutIsRequiredAsAFlagIs) {
  TempDir logs;
  const RunResult r = run_rooftop({"export", kH200Ceilings, "--format", "ncu-sections"}, logs);
  expect_one_line_failure(r);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--out DIR: required with --format ncu-sections"), std::string::npos)
      << r.err;
}

TEST(CliExportSectionsErrors, AHostsFileHasNoSectionsAndNothingIsWritten) {
  TempDir logs, files;
  const RunResult r =
      export_sections(std::string(ROOFTOP_DATA_DIR) + "/epyc-zen4-2026-11-29-ceilings.h5",
                      files.file("sections"), logs);
  expect_one_line_failure(r);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("is a host's ceilings file; Nsight Compute sections need a GPU's"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(files.entries().empty());
}

}  // namespace
}  // namespace rooftop::testing
