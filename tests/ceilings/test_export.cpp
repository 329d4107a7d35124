// Exchanging ceilings with other tools: ERT's roofline.json read (both label forms, the
// spec section, every kind of bad input) and written (and read back), the CSV and JSON
// tables, and the reference files in data/. Fixtures: tests/fixtures/*.json.

#include <algorithm>
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "rooftop/ceilings/compare.hpp"
#include "rooftop/ceilings/ert.hpp"
#include "rooftop/ceilings/export.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"
#include "support.hpp"

namespace rooftop::ceilings {
namespace {

using nlohmann::json;
using rooftop::testing::error_of;
using rooftop::testing::TempDir;

// An ERT data list, [["L1", 1.0], …]: spelled out, because a braced list of
// [string, value] pairs would become a JSON object.
json entries(std::initializer_list<std::pair<std::string, json>> pairs) {
  json list = json::array();
  for (const auto& [label, value] : pairs) list.push_back(json::array({label, value}));
  return list;
}

std::string fixture(const std::string& name) {
  return std::string(ROOFTOP_TEST_FIXTURES) + "/" + name;
}

// ---------------------------------------------------------------------------------------
// ERT roofline.json: reading

TEST(ErtImport, ClassicGflopsLabelIsFp64FmaAndSpecGivesTheoreticalPeaks) {
  std::vector<std::string> skipped;
  const core::CeilingsFile f = read_ert_file(fixture("ert-gflops-classic.json"), &skipped);
  EXPECT_TRUE(skipped.empty());
  std::vector<std::string> names;
  for (const core::Ceiling& c : f.ceilings) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"fp64_fma", "l1", "l2", "l3", "dram"}));

  const core::Ceiling* fma = f.find("fp64_fma");
  EXPECT_EQ(fma->kind, "compute");
  EXPECT_EQ(fma->units, "GFLOP/s");
  EXPECT_DOUBLE_EQ(fma->value, 355.79);
  ASSERT_TRUE(fma->theoretical.has_value());
  EXPECT_DOUBLE_EQ(*fma->theoretical, 460.4);
  EXPECT_NE(fma->note.find("imported from ERT roofline.json"), std::string::npos) << fma->note;
  EXPECT_NE(fma->note.find("FMA-based"), std::string::npos) << fma->note;

  const core::Ceiling* dram = f.find("dram");
  EXPECT_DOUBLE_EQ(dram->value, 83.0);
  EXPECT_DOUBLE_EQ(*dram->theoretical, 102.4);
  EXPECT_FALSE(f.find("l2")->theoretical.has_value());
}

TEST(ErtImport, EveryValueIsOneMeasuredSampleWithoutSpread) {
  const core::CeilingsFile f = read_ert_file(fixture("ert-gflops-classic.json"));
  for (const core::Ceiling& c : f.ceilings) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(c.samples, 1);
    EXPECT_TRUE(c.measured());
    EXPECT_EQ(c.median, c.value);
    EXPECT_EQ(c.min, c.value);
    EXPECT_EQ(c.max, c.value);
    EXPECT_FALSE(has_spread(c));
    EXPECT_NE(c.note.find("measured"), std::string::npos) << c.note;
  }
}

TEST(ErtImport, MachineFieldsComeFromTheMetadataWherePresent) {
  const core::CeilingsFile f = read_ert_file(fixture("ert-gflops-classic.json"));
  EXPECT_EQ(f.machine.hostname, "node17");  // from [name, aliases, addresses]
  EXPECT_EQ(f.machine.compiler, "cc");
  EXPECT_EQ(f.machine.compile_flags, "-O3 -xAVX");
  EXPECT_TRUE(f.machine.cpu_model.empty());
  EXPECT_EQ(f.machine.cores, 0);
  EXPECT_EQ(read_ert_file(fixture("ert-per-precision.json")).machine.hostname, "gpu01");
}

TEST(ErtImport, PerPrecisionLabelsAndHbm) {
  std::vector<std::string> skipped;
  const core::CeilingsFile f = read_ert_file(fixture("ert-per-precision.json"), &skipped);
  EXPECT_DOUBLE_EQ(f.find("fp64_fma")->value, 7000.5);
  EXPECT_DOUBLE_EQ(f.find("fp32_fma")->value, 14100.25);
  EXPECT_DOUBLE_EQ(f.find("dram")->value, 830.25);
  EXPECT_NE(f.find("dram")->note.find("\"HBM\""), std::string::npos) << f.find("dram")->note;
  EXPECT_EQ(f.find("l3"), nullptr);
  // FP16 has no rooftop ceiling: left out, with the reason recorded.
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_NE(skipped[0].find("FP16 GFLOPs"), std::string::npos) << skipped[0];
  EXPECT_NE(skipped[0].find("empirical.gflops.data[2]"), std::string::npos) << skipped[0];
}

TEST(ErtImport, SpecValueWithoutMeasurementIsATheoreticalCeilingWithNoSamples) {
  const json ert = {{"empirical",
                     {{"gflops", {{"data", entries({{"FP64 GFLOPs", 7068.86}})}}},
                      {"gbytes", {{"data", entries({{"L2", 2996.77}})}}}}},
                    {"spec", {{"gbytes", {{"data", entries({{"L1", 14336.0}})}}}}}};
  const core::CeilingsFile f = from_ert_json(ert);
  const core::Ceiling* l1 = f.find("l1");
  ASSERT_NE(l1, nullptr);
  EXPECT_EQ(l1->samples, 0);
  EXPECT_FALSE(l1->measured());
  EXPECT_DOUBLE_EQ(l1->value, 14336.0);
  ASSERT_TRUE(l1->theoretical.has_value());
  EXPECT_DOUBLE_EQ(*l1->theoretical, 14336.0);
  EXPECT_NE(l1->note.find("theoretical, not measured"), std::string::npos) << l1->note;
  EXPECT_TRUE(f.find("l2")->measured());
}

// from_ert_json must throw one line that contains every piece of `expected`.
void expect_rejected(const json& ert, const std::vector<std::string>& expected) {
  const std::string msg = error_of([&] { from_ert_json(ert); });
  for (const std::string& piece : expected)
    EXPECT_NE(msg.find(piece), std::string::npos) << "'" << piece << "' not in: " << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST(ErtImportRejects, MissingKeysNamingTheKey) {
  expect_rejected(json::object(), {"missing key 'empirical'"});
  expect_rejected(json{{"empirical", {{"gflops", {{"data", json::array()}}}}}},
                  {"missing key 'empirical.gbytes'"});
  expect_rejected(
      json{{"empirical", {{"gflops", json::object()}, {"gbytes", {{"data", json::array()}}}}}},
      {"missing key 'empirical.gflops.data'"});
  expect_rejected(json::array({1, 2}), {"not an ERT roofline.json"});
}

TEST(ErtImportRejects, MalformedEntries) {
  const auto with_gbytes = [](json data) {
    return json{
        {"empirical",
         {{"gflops", {{"data", entries({{"FP64 GFLOPs", 1.0}})}}}, {"gbytes", {{"data", data}}}}}};
  };
  expect_rejected(with_gbytes(entries({{"L1", "fast"}})),
                  {"empirical.gbytes.data[0]", "\"L1\"", "not a number"});
  expect_rejected(with_gbytes(entries({{"L1", nullptr}})), {"not a number"});
  expect_rejected(with_gbytes(entries({{"L1", -3.0}})), {"not a plausible rate"});
  expect_rejected(with_gbytes(entries({{"L1", 0.0}})), {"not a plausible rate"});
  expect_rejected(with_gbytes(json::array({json::array({"L1"})})),
                  {"empirical.gbytes.data[0]", "expected"});
  expect_rejected(with_gbytes(json::array({json::array({7, 1.0})})),
                  {"expected [\"name\", value]"});
  expect_rejected(with_gbytes(json::object()), {"'empirical.gbytes.data' is not a list"});
  expect_rejected(with_gbytes(entries({{"FP32 GFLOPs", 5.0}})),
                  {"compute ceiling in the gbytes list"});
}

TEST(ErtImportRejects, TwoValuesForOneCeiling) {
  const json ert = {{"empirical",
                     {{"gflops", {{"data", entries({{"GFLOPs", 1.0}, {"FP64 GFLOPs", 2.0}})}}},
                      {"gbytes", {{"data", json::array()}}}}}};
  expect_rejected(ert, {"empirical.gflops.data[1]", "second value for fp64_fma",
                        "empirical.gflops.data[0] \"GFLOPs\""});
}

TEST(ErtImportRejects, NothingRooftopKnows) {
  const json ert = {{"empirical",
                     {{"gflops", {{"data", entries({{"FP16 GFLOPs", 1.0}})}}},
                      {"gbytes", {{"data", json::array()}}}}}};
  expect_rejected(ert, {"no measured ceiling"});
}

// An ERT file whose rooftop block carries `machine`.
json with_rooftop_machine(const json& machine) {
  return {{"empirical",
           {{"gflops", {{"data", entries({{"FP64 GFLOPs", 1.0}})}}},
            {"gbytes", {{"data", entries({{"DRAM", 10.0}})}}},
            {"metadata", {{"HOSTNAME", "node01"}, {"ROOFTOP", {{"machine", machine}}}}}}}};
}

// Each of these was once imported into a file rooftop's reader then refused (text longer
// than an attribute holds, text after a NUL), imported cut (4294967298 cores as 2 SMs) or
// dropped without a word ("eighty", 80.5, 1e20).
TEST(ErtImportRejects, MachineValuesTheFileCouldNotHold) {
  const std::string at = "empirical.metadata.ROOFTOP.machine.";
  const std::pair<json, std::string> cases[] = {
      {{{"gpu_name", std::string(2000000, 'x')}},
       at + "gpu_name is 2000000 bytes of text, more than the 1048575 a file holds"},
      {{{"gpu_name", std::string("x\x1b[2J\ny\0z", 9)}}, at + "gpu_name holds a NUL (byte 7)"},
      {{{"cores", 4294967298u}},
       at + "cores: 4294967298 is out of range (-2147483648 to 2147483647)"},
      {{{"cores", -4294967298}},
       at + "cores: -4294967298 is out of range (-2147483648 to 2147483647)"},
      {{{"cores", "eighty"}}, at + "cores: \"eighty\" is not an integer"},
      {{{"cores", 80.5}}, at + "cores: 80.5 is not an integer"},
      {{{"cores", 1e20}}, at + "cores: 1e+20 is not an integer"},
      {{{"simd_bits", nullptr}}, at + "simd_bits: null is not an integer"},
      {{{"memory_bytes", -1}}, at + "memory_bytes: -1 is out of range (0 to 9223372036854775807)"},
      {{{"memory_bytes", 9223372036854775808u}},
       at + "memory_bytes: 9223372036854775808 is out of range (0 to 9223372036854775807)"},
      {{{"caches", json::array({{{"level", "L1"}, {"shared_by", 4294967298u}}})}},
       at + "caches[0].shared_by: 4294967298 is out of range (-2147483648 to 2147483647)"},
      {{{"caches", json::array({{{"level", "L1"}, {"bytes", -1}}})}},
       at + "caches[0].bytes: -1 is out of range (0 to 18446744073709551615)"},
  };
  for (const auto& [machine, reason] : cases) {
    // Through the text, as the program reads it: one line, the file's name first.
    const std::string msg =
        error_of([&] { parse_ert_text(with_rooftop_machine(machine).dump(), "r.json"); });
    EXPECT_EQ(msg, "r.json: " + reason);
  }
  const std::string msg = error_of([&] {
    json ert = with_rooftop_machine(json::object());
    ert["empirical"]["metadata"]["HOSTNAME"] = std::string("a\0b", 3);
    parse_ert_text(ert.dump(), "r.json");
  });
  EXPECT_EQ(msg, "r.json: empirical.metadata.HOSTNAME holds a NUL (byte 1)");
}

// What the ERT reader takes at its limits, the writer writes and the reader reads back.
TEST(ErtImport, MachineValuesAtTheirLimitsReachTheFileWhole) {
  const json machine = {
      {"gpu_name", std::string(1048575, 'g')},
      {"hostname", "x\x1b[2J\ny"},
      {"cores", 2147483647},
      {"memory_bytes", 9223372036854775807u},
      {"caches",
       json::array({{{"level", "L1"}, {"bytes", 18446744073709551615u}, {"shared_by", 2}}})}};
  core::CeilingsFile f = parse_ert_text(with_rooftop_machine(machine).dump(), "r.json");
  EXPECT_EQ(f.machine.cores, 2147483647);
  EXPECT_EQ(f.machine.memory_bytes, 9223372036854775807u);
  f.provenance = current_provenance("rooftop import-ceilings r.json");
  TempDir dir;
  write_file(dir.file("r.h5"), f);
  rooftop::testing::expect_same_machine(read_file(dir.file("r.h5")).machine, f.machine);
}

TEST(ErtImportRejects, BadFilesNameTheFileAndTheReason) {
  TempDir dir;
  const std::string missing = dir.file("missing.json");
  EXPECT_NE(error_of([&] { read_ert_file(missing); }).find(missing + ": no such file"),
            std::string::npos);
  const std::string text = dir.file("text.json");
  rooftop::testing::write_bytes(text, "{\"empirical\": [1, 2,");
  const std::string msg = error_of([&] { read_ert_file(text); });
  EXPECT_NE(msg.find(text + ": not valid JSON"), std::string::npos) << msg;

  const std::pair<const char*, const char*> cases[] = {
      {"ert-missing-gbytes.json", "missing key 'empirical.gbytes'"},
      {"ert-non-numeric.json", "empirical.gbytes.data[1] \"L2\": value \"fast\" is not a number"},
      {"ert-duplicate-level.json", "\"HBM\": a second value for dram"}};
  for (const auto& [name, reason] : cases) {
    SCOPED_TRACE(name);
    const std::string path = fixture(name);
    const std::string m = error_of([&path] { read_ert_file(path); });
    EXPECT_NE(m.find(path + ": "), std::string::npos) << m;
    EXPECT_NE(m.find(reason), std::string::npos) << m;
  }
}

// ---------------------------------------------------------------------------------------
// ERT roofline.json: writing, and reading back

// The sample file plus a ceiling that was never measured and one ERT cannot name.
core::CeilingsFile exchange_sample() {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  core::Ceiling l1 = rooftop::testing::make_ceiling("l1", 14336.0, 14336.0, 14336.0, 0);
  l1.theoretical = 14336.0;
  f.ceilings.push_back(l1);
  f.ceilings.push_back(rooftop::testing::make_ceiling("shared", 9000.0, 8900.0, 9100.0, 3));
  return f;
}

TEST(ErtExport, TheLayoutErtReadersExpect) {
  std::vector<std::string> skipped;
  const json ert = to_ert_json(exchange_sample(), &skipped);
  EXPECT_EQ(ert["empirical"]["gflops"]["data"], entries({{"FP64 GFLOPs", 101.5}}));
  EXPECT_EQ(ert["empirical"]["gbytes"]["data"], entries({{"DRAM", 11.5}}));
  // Theoretical peaks, and the ceiling that only has one, go to spec.
  EXPECT_EQ(ert["spec"]["gflops"]["data"], entries({{"FP64 GFLOPs", 136.0}}));
  EXPECT_EQ(ert["spec"]["gbytes"]["data"], entries({{"L1", 14336.0}}));
  EXPECT_TRUE(ert["empirical"]["gflops"]["metadata"].is_object());
  EXPECT_EQ(ert["empirical"]["metadata"]["HOSTNAME"], "node017");
  EXPECT_EQ(ert["empirical"]["metadata"]["ROOFTOP"]["git_revision"], "0123456789ab");
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_NE(skipped[0].find("shared"), std::string::npos) << skipped[0];
}

TEST(ErtExport, BandwidthLevelsInnermostFirstEndingWithDram) {
  core::CeilingsFile f;
  for (const char* name : {"dram", "l2", "l1", "l3"})
    f.ceilings.push_back(rooftop::testing::make_ceiling(name, 10.0, 9.0, 11.0, 3));
  const json data = to_ert_json(f)["empirical"]["gbytes"]["data"];
  ASSERT_EQ(data.size(), 4u);
  EXPECT_EQ(data[0][0], "L1");
  EXPECT_EQ(data[1][0], "L2");
  EXPECT_EQ(data[2][0], "L3");
  EXPECT_EQ(data[3][0], "DRAM");
}

TEST(ErtExport, ReadingTheExportBackGivesTheSameCeilings) {
  const core::CeilingsFile original = exchange_sample();
  const json text = json::parse(export_text(original, "ert-json"));
  const core::CeilingsFile back = from_ert_json(text);
  ASSERT_EQ(back.ceilings.size(), original.ceilings.size() - 1);  // less "shared"
  for (const core::Ceiling& c : back.ceilings) {
    SCOPED_TRACE(c.name);
    const core::Ceiling* o = original.find(c.name);
    ASSERT_NE(o, nullptr);
    EXPECT_EQ(c.kind, o->kind);
    EXPECT_EQ(c.units, o->units);
    EXPECT_EQ(c.value, o->value);  // exactly: JSON numbers round-trip
    EXPECT_EQ(c.theoretical, o->theoretical);
    EXPECT_EQ(c.measured(), o->measured());
  }
}

TEST(ErtExport, MachineTravelsInRooftopsMetadataBlock) {
  core::CeilingsFile original = rooftop::testing::sample_ceilings_file();
  original.machine.hardware_threads = 8;
  rooftop::testing::expect_same_machine(from_ert_json(to_ert_json(original)).machine,
                                        original.machine);
}

// ---------------------------------------------------------------------------------------
// CSV and JSON tables

// RFC 4180 (LF or CRLF line ends), as a CSV reader sees it.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    std::string& field = rows.back().back();
    if (quoted) {
      if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      rows.back().emplace_back();
    } else if (ch == '\n') {
      rows.emplace_back(1);
    } else if (ch != '\r') {
      field += ch;
    }
  }
  if (rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();
  return rows;
}

TEST(CsvExport, HeaderThenOneRowPerCeilingEveryRowAsWide) {
  const core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  const auto rows = parse_csv(to_csv(f));
  ASSERT_EQ(rows.size(), 1 + f.ceilings.size());
  for (const auto& r : rows) EXPECT_EQ(r.size(), rows[0].size());
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < rows[0].size(); ++i) col[rows[0][i]] = i;
  for (const char* key : {"name", "kind", "value", "units", "median", "min", "max", "samples",
                          "measured", "theoretical", "note", "machine"})
    EXPECT_EQ(col.count(key), 1u) << key;
  EXPECT_EQ(rows[1][col["name"]], "fp64_fma");
  EXPECT_EQ(rows[1][col["units"]], "GFLOP/s");
  EXPECT_EQ(std::strtod(rows[1][col["value"]].c_str(), nullptr), 101.5);
  EXPECT_EQ(std::strtod(rows[1][col["theoretical"]].c_str(), nullptr), 136.0);
  EXPECT_EQ(rows[2][col["theoretical"]], "") << "unknown is an empty field";
  EXPECT_EQ(rows[2][col["measured"]], "true");
  EXPECT_EQ(rows[2][col["machine"]], "Test GPU");
}

TEST(CsvExport, FieldsWithCommasQuotesAndLineBreaksSurvive) {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  f.ceilings[1].note = "ran with \"turbo\" off, twice\nsecond line";
  const auto rows = parse_csv(to_csv(f));
  ASSERT_EQ(rows.size(), 3u);
  const auto note = std::find(rows[0].begin(), rows[0].end(), "note") - rows[0].begin();
  ASSERT_LT(static_cast<std::size_t>(note), rows[0].size());
  EXPECT_EQ(rows[2][static_cast<std::size_t>(note)], f.ceilings[1].note);
  EXPECT_EQ(rows[2].size(), rows[0].size());
}

// Schema 1.7's figures follow the ceilings, one row each, their group in its own column.
TEST(CsvExport, FiguresFollowTheCeilingsWithTheirGroup) {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  core::Ceiling h2d;
  h2d.name = "h2d";
  h2d.kind = "transfer";
  h2d.units = "GB/s";
  h2d.value = h2d.median = h2d.min = h2d.max = 25.0;
  h2d.samples = 1;
  f.costs.figures = {h2d};
  const auto rows = parse_csv(to_csv(f));
  ASSERT_EQ(rows.size(), 2 + f.ceilings.size());
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < rows[0].size(); ++i) col[rows[0][i]] = i;
  ASSERT_EQ(col.count("group"), 1u);
  EXPECT_EQ(rows[1][col["group"]], "ceilings");
  EXPECT_EQ(rows.back()[col["name"]], "h2d");
  EXPECT_EQ(rows.back()[col["group"]], "costs");
  EXPECT_EQ(rows.back()[col["kind"]], "transfer");
}

TEST(CsvExport, NumbersRoundTripExactly) {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  f.ceilings[0].value = 0.1 + 0.2;  // not representable in few digits
  const auto rows = parse_csv(to_csv(f));
  EXPECT_EQ(std::strtod(rows[1][5].c_str(), nullptr), f.ceilings[0].value) << rows[1][5];
}

TEST(JsonExport, RowsWithTheCsvColumnsAndNullWhereUnknown) {
  const core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  const json j = to_table_json(f);
  EXPECT_EQ(j["schema"], "rooftop-ceilings-table");
  EXPECT_EQ(j["schema_version"], "1.0");
  ASSERT_EQ(j["rows"].size(), 2u);
  const auto header = parse_csv(to_csv(f))[0];
  EXPECT_EQ(j["columns"].get<std::vector<std::string>>(), header);
  for (const json& row : j["rows"]) EXPECT_EQ(row.size(), header.size());
  EXPECT_DOUBLE_EQ(j["rows"][0]["value"].get<double>(), 101.5);
  EXPECT_TRUE(j["rows"][1]["theoretical"].is_null());
}

TEST(ExportText, UnknownFormatNamesItAndTheKnownOnes) {
  const std::string msg =
      error_of([] { export_text(rooftop::testing::sample_ceilings_file(), "xlsx"); });
  EXPECT_NE(msg.find("'xlsx'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ert-json, csv, json"), std::string::npos) << msg;
}

TEST(ExportText, EveryFormatEndsWithANewline) {
  for (const char* format : kExportFormats) {
    if (format == kNcuSectionsFormat) continue;  // a folder (test_ncu_sections.cpp)
    const std::string text = export_text(rooftop::testing::sample_ceilings_file(), format);
    ASSERT_FALSE(text.empty()) << format;
    EXPECT_EQ(text.back(), '\n') << format;
  }
}

// ---------------------------------------------------------------------------------------
// The reference files in data/

TEST(ReferenceData, V100FromThePublishedErtMeasurements) {
  const core::CeilingsFile f =
      read_ert_file(std::string(ROOFTOP_DATA_DIR) + "/v100-ert-roofline.json");
  EXPECT_EQ(f.machine.gpu_name, "NVIDIA Tesla V100");
  EXPECT_DOUBLE_EQ(f.find("fp64_fma")->value, 7068.86);
  EXPECT_DOUBLE_EQ(f.find("fp64_nofma")->value, 3535.79);
  EXPECT_DOUBLE_EQ(f.find("l2")->value, 2996.77);
  EXPECT_DOUBLE_EQ(f.find("dram")->value, 828.758);
  const core::Ceiling* l1 = f.find("l1");
  ASSERT_NE(l1, nullptr);
  EXPECT_FALSE(l1->measured()) << "the published L1 value is theoretical";
  EXPECT_DOUBLE_EQ(*l1->theoretical, 14336.0);
  EXPECT_NE(l1->note.find("theoretical, not measured"), std::string::npos);
}

TEST(ReferenceData, V100FileIsTheImportOfItsJson) {
  const core::CeilingsFile json_import =
      read_ert_file(std::string(ROOFTOP_DATA_DIR) + "/v100-ert-roofline.json");
  const core::CeilingsFile h5 = read_file(std::string(ROOFTOP_DATA_DIR) + "/v100-ert.h5");
  EXPECT_NE(h5.provenance.command_line.find("import-ceilings data/v100-ert-roofline.json"),
            std::string::npos)
      << h5.provenance.command_line;
  ASSERT_EQ(h5.ceilings.size(), json_import.ceilings.size());
  for (std::size_t i = 0; i < h5.ceilings.size(); ++i)
    rooftop::testing::expect_same_ceiling(h5.ceilings[i], json_import.ceilings[i]);
  rooftop::testing::expect_same_machine(h5.machine, json_import.machine);
}

}  // namespace
}  // namespace rooftop::ceilings
