// Nsight Compute section files of a GPU's ceilings file: on the real H200 file, one section
// per roof with identifiers of its own, peaks that read back as the file's ceilings, every
// metric either defined in the section or one Nsight Compute measures, and what has no
// section noted; the tensor metric chosen by compute capability; hostile names escaped;
// the files refused. Where `ncu` is on PATH, it lists the exported folder without errors.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rooftop/ceilings/export.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/ceilings/ncu_sections.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "support.hpp"

namespace rooftop::ceilings {
namespace {

using rooftop::testing::error_of;
using rooftop::testing::TempDir;

const std::string kH200 = std::string(ROOFTOP_DATA_DIR) + "/h200-2026-11-27-ceilings-2.h5";
const std::string kHost = std::string(ROOFTOP_DATA_DIR) + "/epyc-zen4-2026-11-29-ceilings.h5";

// The stock identifiers of Nsight Compute 2022.3's roofline sections, for where it is
// not installed.
const std::set<std::string> kStockRooflines = {
    "SpeedOfLight_RooflineChart", "SpeedOfLight_HierarchicalDoubleRooflineChart",
    "SpeedOfLight_HierarchicalSingleRooflineChart", "SpeedOfLight_HierarchicalHalfRooflineChart",
    "SpeedOfLight_HierarchicalTensorRooflineChart"};

// The hardware metrics a section may name, as the stock roofline sections name them, and
// the tensor paths' rates.
std::set<std::string> known_hardware_metrics() {
  std::set<std::string> known = {"smsp__cycles_elapsed.avg.per_second",
                                 "sm__cycles_elapsed.avg.per_second", "dram__bytes.sum.per_second",
                                 "lts__t_bytes.sum.per_second", "l1tex__t_bytes.sum.per_second"};
  for (const char* p : {"d", "f"})
    for (const char* op : {"add", "mul", "fma"})
      known.insert(std::string("smsp__sass_thread_inst_executed_op_") + p + op +
                   "_pred_on.sum.per_cycle_elapsed");
  for (const core::TensorPath& t : core::kTensorPaths)
    known.insert(std::string(t.metric) + ".per_cycle_elapsed");
  return known;
}

// The values of every `field: "..."` line of a section, in order (unescaped: the
// sections' names and metrics have no escapes).
std::vector<std::string> values_of(const std::string& text, const std::string& field) {
  std::vector<std::string> out;
  const std::regex line("^ *" + field + ": \"([^\"]*)\"$");
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_match(l, m, line)) out.push_back(m[1]);
  }
  return out;
}

// A section's derived metrics: name -> expression (each Expression follows its Name).
std::map<std::string, std::string> definitions_of(const std::string& text) {
  std::map<std::string, std::string> out;
  const std::regex name("^ *Name: \"([^\"]*)\"$"), expression("^ *Expression: \"([^\"]*)\"$");
  std::istringstream in(text);
  std::string last;
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_match(l, m, name)) last = m[1];
    if (std::regex_match(l, m, expression)) out[last] = m[1];
  }
  return out;
}

std::string identifier_of(const SectionFile& s) {
  const std::vector<std::string> ids = values_of(s.text, "Identifier");
  return ids.empty() ? "" : ids.front();  // the section's; the set's comes after
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// The note of `skipped` that begins with `name`, or "".
std::string note_on(const std::vector<std::string>& skipped, const std::string& name) {
  for (const std::string& s : skipped)
    if (s.rfind(name + ":", 0) == 0) return s;
  return "";
}

const SectionFile& section_named(const std::vector<SectionFile>& sections,
                                 const std::string& suffix) {
  for (const SectionFile& s : sections)
    if (identifier_of(s) == std::string(kSectionPrefix) + suffix) return s;
  throw std::runtime_error("no section " + suffix);
}

// `ncu` where this process's PATH has it, else "".
std::string ncu_on_path() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/ncu";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// `ncu ARGS` as a shell command with HOME in `home`: ncu deploys its stock sections under
// $HOME/Documents on first use, which a test must not leave behind.
std::string ncu_command(const std::string& ncu, const std::string& home, const std::string& args) {
  return "HOME='" + home + "' '" + ncu + "' " + args;
}

std::string output_of(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + command);
  std::string out;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  pclose(pipe);
  return out;
}

// The identifiers of `ncu --list-sections`'s first table (its rows' first words; a long
// display name continues on lines that begin with spaces).
std::set<std::string> listed_identifiers(const std::string& listing) {
  std::set<std::string> ids;
  std::istringstream in(listing);
  bool rows = false;
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("Identifier", 0) == 0) rows = true;
    if (!rows || l.empty() || l[0] == ' ' || l[0] == '-' || l.rfind("Identifier", 0) == 0) {
      if (rows && l.empty() && !ids.empty()) break;
      continue;
    }
    ids.insert(l.substr(0, l.find(' ')));
  }
  return ids;
}

std::set<std::string> stock_identifiers() {
  std::set<std::string> stock = kStockRooflines;
  if (const std::string ncu = ncu_on_path(); !ncu.empty()) {
    TempDir home;
    const std::set<std::string> listed =
        listed_identifiers(output_of(ncu_command(ncu, home.path().string(), "--list-sections")));
    stock.insert(listed.begin(), listed.end());
  }
  return stock;
}

core::Ceiling figure(const std::string& name, double value) {
  core::Ceiling c = core::figure_row(name);
  c.value = c.median = c.min = c.max = value;
  c.samples = 3;
  return c;
}

// The sample file as a GPU of compute capability `cc` with L1, L2 and the given tensor figures.
core::CeilingsFile gpu_file(const std::string& cc, const std::vector<std::string>& figures) {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  f.machine.compute_capability = cc;
  f.ceilings.push_back(rooftop::testing::make_ceiling("l2", 900.5, 900, 901, 3));
  for (const std::string& name : figures) f.matrix.figures.push_back(figure(name, 1000.25));
  return f;
}

// ---------------------------------------------------------------------------------------
// The real H200 file

class H200Sections : public ::testing::Test {
 protected:
  void SetUp() override {
    file = read_file(kH200);
    sections = ncu_sections(file, "h200-2026-11-27-ceilings-2.h5", &skipped);
  }
  core::CeilingsFile file;
  std::vector<std::string> skipped;
  std::vector<SectionFile> sections;
};

TEST_F(H200Sections, OneSectionPerRoofUnderIdentifiersOfItsOwn) {
  std::vector<std::string> ids;
  for (const SectionFile& s : sections) {
    ids.push_back(identifier_of(s));
    EXPECT_EQ(s.name, ids.back() + ".section");
  }
  const std::vector<std::string> suffixes = {"FP64",    "FP32",    "TC_FP64",     "TC_TF32",
                                             "TC_BF16", "TC_FP16", "TC_FP8_E4M3", "TC_INT8"};
  ASSERT_EQ(ids.size(), suffixes.size());
  for (std::size_t i = 0; i < ids.size(); ++i)
    EXPECT_EQ(ids[i], std::string(kSectionPrefix) + suffixes[i]);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
  for (const std::string& stock : stock_identifiers())
    EXPECT_EQ(std::find(ids.begin(), ids.end(), stock), ids.end()) << stock;
}

TEST_F(H200Sections, StandAloneInTheRooftopSetWithTheMachineAndFileNamed) {
  for (const SectionFile& s : sections) {
    SCOPED_TRACE(s.name);
    EXPECT_FALSE(contains(s.text, "Extends")) << "a section of its own, the stock ones untouched";
    const std::vector<std::string> ids = values_of(s.text, "Identifier");
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_EQ(ids[1], kSectionSet);
    const std::string description = values_of(s.text, "Description").at(0);
    for (const std::string& what : {file.machine.gpu_name, file.machine.hostname,
                                    std::string("h200-2026-11-27-ceilings-2.h5"),
                                    file.provenance.created_utc, std::string("peak_sustained")})
      EXPECT_TRUE(contains(description, what)) << what << " not in: " << description;
    EXPECT_EQ(values_of(s.text, "DisplayName")
                  .at(0)
                  .rfind("rooftop: Measured Hierarchical Roofline (", 0),
              0u);
  }
}

TEST_F(H200Sections, EveryPeakReadsBackAsTheFilesCeilingInFixedNotation) {
  const std::regex fixed("^([0-9]+\\.[0-9]{3}) \\* 1$");
  int peaks = 0;
  for (const SectionFile& s : sections)
    for (const auto& [name, expression] : definitions_of(s.text)) {
      SCOPED_TRACE(s.name + ": " + name);
      if (name.size() < 11 || name.compare(name.size() - 11, 11, "_per_second") != 0) continue;
      std::smatch m;
      ASSERT_TRUE(std::regex_match(expression, m, fixed)) << expression;
      std::string ceiling = name.substr(std::string("rooftop__").size());
      for (const char* unit : {"_flop_per_second", "_op_per_second", "_byte_per_second"})
        if (const std::size_t at = ceiling.rfind(unit);
            at != std::string::npos && at + std::string(unit).size() == ceiling.size())
          ceiling.resize(at);
      const core::Ceiling* c = file.find_row(ceiling);
      ASSERT_NE(c, nullptr) << ceiling;
      const double expected = c->value * 1e9;
      EXPECT_NEAR(std::stod(m[1]), expected, 1e-9 * expected);
      ++peaks;
    }
  // FP64 and FP32: 2 compute + 3 levels each; six tensor sections: 1 + 3 each.
  EXPECT_EQ(peaks, 2 * 5 + 6 * 4);
}

TEST_F(H200Sections, EveryMetricIsDefinedInItsSectionOrMeasuredByNsightCompute) {
  const std::set<std::string> known = known_hardware_metrics();
  for (const SectionFile& s : sections) {
    SCOPED_TRACE(s.name);
    const std::map<std::string, std::string> defined = definitions_of(s.text);
    for (const std::string& name : values_of(s.text, "Name")) {
      EXPECT_TRUE(defined.count(name) || known.count(name)) << name;
      if (defined.count(name)) {
        EXPECT_EQ(name.rfind("rooftop__", 0), 0u) << name;
      }
    }
    for (const auto& [name, expression] : defined) {  // operands: a constant or a known metric
      const std::string operand = expression.substr(0, expression.find(' '));
      EXPECT_TRUE(known.count(operand) || std::isdigit(static_cast<unsigned char>(operand[0])))
          << name << " = " << expression;
    }
  }
}

TEST_F(H200Sections, RoofsOfEveryComputeCeilingAtEveryLevelAndTheAchievedPoints) {
  const std::string& fp64 = section_named(sections, "FP64").text;
  EXPECT_EQ(rooftop::testing::count_of(fp64, "Rooflines {"), 6u);  // fma, nofma x L1, L2, DRAM
  EXPECT_EQ(rooftop::testing::count_of(fp64, "AchievedValues {"), 3u);
  EXPECT_TRUE(contains(fp64, "Label: \"DRAM 4,384 GB/s measured, FP64 fma 33,119 GFLOP/s\""));
  EXPECT_TRUE(contains(fp64, "rooftop__smsp__sass_thread_inst_executed_op_dfma_pred_on_x2"));
  EXPECT_FALSE(contains(fp64, "shared")) << "shared memory has no place in the chart";
  const std::string& bf16 = section_named(sections, "TC_BF16").text;
  EXPECT_TRUE(contains(bf16, "\"sm__ops_path_tensor_src_bf16_dst_fp32.sum.per_cycle_elapsed\""));
  EXPECT_TRUE(contains(bf16, "Label: \"Performance [FLOP/s]\""));
  // Hopper counts FP16 and FP8 sources in one metric each.
  EXPECT_TRUE(contains(section_named(sections, "TC_FP16").text,
                       "\"sm__ops_path_tensor_src_fp16.sum.per_cycle_elapsed\""));
  EXPECT_TRUE(contains(section_named(sections, "TC_FP8_E4M3").text,
                       "\"sm__ops_path_tensor_src_fp8.sum.per_cycle_elapsed\""));
  const std::string& int8 = section_named(sections, "TC_INT8").text;
  EXPECT_TRUE(contains(int8, "Label: \"Performance [OP/s]\""));
  EXPECT_TRUE(contains(int8, "rooftop__tc_int8_op_per_second"));
}

TEST_F(H200Sections, WhatHasNoSectionIsNotedWithTheReason) {
  const std::string fp16 = note_on(skipped, "fp16");
  EXPECT_TRUE(contains(fp16, "tc_fp16")) << fp16;
  EXPECT_TRUE(contains(fp16, std::string(kSectionPrefix) + "TC_FP16")) << fp16;
  const std::string e5m2 = note_on(skipped, "tc_fp8_e5m2");
  EXPECT_TRUE(contains(e5m2, std::string(kSectionPrefix) + "TC_FP8_E4M3")) << e5m2;
  const std::string acc16 = note_on(skipped, "tc_fp16_acc16");
  EXPECT_TRUE(contains(acc16, "sm__ops_path_tensor_src_fp16.sum")) << acc16;
  EXPECT_EQ(skipped.size(), 3u) << ::testing::PrintToString(skipped);
}

// ---------------------------------------------------------------------------------------
// Made-up files

TEST(NcuSections, BeforeComputeCapability89TensorOpsAreCountedPerDestination) {
  const std::vector<std::string> figures = {"tc_fp16", "tc_fp16_acc16"};
  std::vector<std::string> skipped;
  const std::vector<SectionFile> ampere = ncu_sections(gpu_file("8.0", figures), "a.h5", &skipped);
  EXPECT_TRUE(
      contains(section_named(ampere, "TC_FP16").text, "src_fp16_dst_fp32.sum.per_cycle_elapsed"));
  EXPECT_TRUE(contains(section_named(ampere, "TC_FP16_ACC16").text,
                       "src_fp16_dst_fp16.sum.per_cycle_elapsed"));
  const std::vector<SectionFile> ada = ncu_sections(gpu_file("8.9", figures), "a.h5");
  EXPECT_TRUE(contains(section_named(ada, "TC_FP16").text,
                       "\"sm__ops_path_tensor_src_fp16.sum.per_cycle_elapsed\""));
  EXPECT_THROW(section_named(ada, "TC_FP16_ACC16"), std::runtime_error);
}

TEST(NcuSections, AFileOnlyOfFp64FmaAndDramHasOneRoof) {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  std::vector<std::string> skipped;
  const std::vector<SectionFile> sections = ncu_sections(f, "a.h5", &skipped);
  ASSERT_EQ(sections.size(), 1u);
  EXPECT_EQ(rooftop::testing::count_of(sections[0].text, "Rooflines {"), 1u);
  EXPECT_TRUE(contains(sections[0].text, "Expression: \"101500000000.000 * 1\""));
  EXPECT_TRUE(contains(note_on(skipped, "fp32"), "no measured fp32 compute ceiling"));
  EXPECT_TRUE(contains(note_on(skipped, "fp16"), "which this file has no section for"));
}

TEST(NcuSections, NamesFromTheFileAreEscaped) {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  f.machine.hostname = "a\"b\\c\nd\xc3\xa9";
  const std::string text = ncu_sections(f, "we\"ird.h5").at(0).text;
  EXPECT_TRUE(contains(text, "a\\\"b\\\\c\\012d\\303\\251")) << text;
  EXPECT_TRUE(contains(text, "we\\\"ird.h5")) << text;
  EXPECT_EQ(text_format_string("plain"), "\"plain\"");
  EXPECT_EQ(text_format_string("\t\x7f"), "\"\\011\\177\"");
}

TEST(NcuSections, RefusedWithOneLine) {
  const std::string host = error_of([] { ncu_sections(read_file(kHost), "epyc.h5"); });
  EXPECT_EQ(host, "epyc.h5: is a host's ceilings file; Nsight Compute sections need a GPU's");

  core::CeilingsFile no_levels = rooftop::testing::sample_ceilings_file();
  no_levels.ceilings.pop_back();  // dram
  EXPECT_TRUE(
      contains(error_of([&] { ncu_sections(no_levels, "a.h5"); }), "no measured L1, L2 or DRAM"));

  core::CeilingsFile no_compute = rooftop::testing::sample_ceilings_file();
  no_compute.ceilings.erase(no_compute.ceilings.begin());  // fp64_fma
  std::vector<std::string> skipped;
  const std::string why = error_of([&] { ncu_sections(no_compute, "a.h5", &skipped); });
  EXPECT_TRUE(contains(why, "a.h5: has no measured compute ceiling")) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos);
}

TEST(NcuSections, NotOneTextForExportText) {
  const std::string why =
      error_of([] { export_text(rooftop::testing::sample_ceilings_file(), "ncu-sections"); });
  EXPECT_TRUE(contains(why, "folder")) << why;
}

// ---------------------------------------------------------------------------------------
// Nsight Compute itself: `ncu --list-sections` parses the files (no GPU needed) and exits 0
// even when it cannot; its output says which.

TEST(NcuListSections, ListsEveryExportedSectionWithoutErrors) {
  const std::string ncu = ncu_on_path();
  if (ncu.empty()) {
    if (std::getenv("ROOFTOP_REQUIRE_NSIGHT"))
      FAIL() << "ROOFTOP_REQUIRE_NSIGHT is set and ncu is not on PATH";
    GTEST_SKIP() << "ncu is not on PATH: Nsight Compute's reading of the sections is not checked";
  }
  TempDir dir;
  const std::string folder = dir.file("sections");
  const std::vector<SectionFile> sections = ncu_sections(read_file(kH200), "h200.h5");
  core::write_text_folder(folder, sections);
  const std::string listing =
      output_of(ncu_command(ncu, dir.path().string(), "--list-sections --section-folder '" + folder + "'"));
  EXPECT_FALSE(std::regex_search(listing, std::regex("Filename +Error"))) << listing;
  EXPECT_FALSE(contains(listing, "Error:")) << listing;
  const std::set<std::string> listed = listed_identifiers(listing);
  for (const SectionFile& s : sections)
    EXPECT_EQ(listed.count(identifier_of(s)), 1u) << identifier_of(s) << "\n" << listing;
}

}  // namespace
}  // namespace rooftop::ceilings
