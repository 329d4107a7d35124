// rooftop_report: the one-file HTML report. The embedded JSON cannot end its script
// element or break the script (every '<', '>', '&', U+2028 and U+2029 escaped, and still
// the same JSON); the page carries a strict Content-Security-Policy naming its own script
// and style by hash and loads nothing; its data are the numbers of the JSON outputs.
// The page's behaviour in a browser is tested by tests/browser (label browser).

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/roofline.hpp"
#include "rooftop/counters/import.hpp"
#include "rooftop/report/html_report.hpp"
#include "rooftop/report/kernel_table.hpp"
#include "support.hpp"

namespace rooftop::report {
namespace {

const std::string kCloser = "</script><script>window.__pwned = 1</script>";

core::CeilingsFile with_kernels() {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  core::KernelRecord k;
  k.name = kCloser;
  k.id = "<!--";
  k.flops_fp64 = 2e9;
  k.bytes = {{"dram", 1e9}, {"l2", 5e8}};
  k.time_s = 0.1;
  k.note = "line\xE2\x80\xA8separator\xE2\x80\xA9paragraph & <b>";
  f.kernels.push_back(k);
  return f;
}

// The text between `open` and the next "</script" after it.
std::string script_body(const std::string& page, const std::string& open) {
  const std::size_t from = page.find(open);
  EXPECT_NE(from, std::string::npos) << open;
  const std::size_t start = from + open.size();
  return page.substr(start, page.find("</script", start) - start);
}

TEST(ScriptJson, EscapesWhatCouldEndTheElementOrTheScript) {
  const nlohmann::json j = {{"name", kCloser + " & <!-- \xE2\x80\xA8\xE2\x80\xA9 >"}};
  const std::string text = script_json(j);
  for (const char* raw : {"<", ">", "&", "\xE2\x80\xA8", "\xE2\x80\xA9"})
    EXPECT_EQ(text.find(raw), std::string::npos) << raw << " in " << text;
  EXPECT_NE(text.find("\\u003c/script\\u003e"), std::string::npos);
  EXPECT_NE(text.find("\\u0026"), std::string::npos);
  EXPECT_NE(text.find("\\u2028\\u2029"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(text), j) << "still the same JSON";
}

TEST(ScriptJson, InvalidUtf8BecomesReplacementCharacters) {
  const std::string text = script_json({{"name", std::string("a\xFF\xFE<")}});
  EXPECT_EQ(nlohmann::json::parse(text)["name"], "a\xEF\xBF\xBD\xEF\xBF\xBD<");
}

TEST(HtmlReport, HostileTextNeverLeavesTheDataElement) {
  const std::string page = html_report({with_kernels()}, {"<img src=x onerror=alert(1)>.h5"});
  // Exactly the two script elements of the page: the data and the code.
  std::size_t scripts = 0;
  for (std::size_t at = page.find("<script"); at != std::string::npos;
       at = page.find("<script", at + 1))
    ++scripts;
  EXPECT_EQ(scripts, 2u);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  const std::string data =
      script_body(page, "<script type='application/json' id='rooftop-data'>");
  const nlohmann::json j = nlohmann::json::parse(data);
  EXPECT_EQ(j["files"][0]["kernels"][0]["name"], kCloser);
  EXPECT_EQ(j["files"][0]["label"], "<img src=x onerror=alert(1)>.h5");
}

TEST(HtmlReport, StrictPolicyNamesItsOwnScriptAndStyleAndLoadsNothing) {
  const std::string page = html_report({rooftop::testing::sample_ceilings_file()}, {"a.h5"});
  const std::size_t csp = page.find("http-equiv='Content-Security-Policy'");
  ASSERT_NE(csp, std::string::npos);
  EXPECT_LT(csp, page.find("<script")) << "the policy precedes every script";
  EXPECT_LT(csp, page.find("<style"));
  EXPECT_NE(page.find("default-src 'none'; script-src 'sha256-"), std::string::npos);
  EXPECT_NE(page.find("style-src 'sha256-"), std::string::npos);
  EXPECT_EQ(page.find("unsafe-inline"), std::string::npos);
  EXPECT_EQ(page.find("unsafe-eval"), std::string::npos);
  for (const char* fetch : {"https://", "src=", "href=", "@import", "url(http"})
    EXPECT_EQ(page.find(fetch), std::string::npos) << fetch;
  // The only URL in it is the SVG namespace, a name that is never fetched.
  for (std::size_t at = page.find("http://"); at != std::string::npos;
       at = page.find("http://", at + 1))
    EXPECT_EQ(page.compare(at, 26, "http://www.w3.org/2000/svg"), 0) << page.substr(at, 40);
}

TEST(HtmlReport, DataAreTheNumbersOfTheJsonOutputs) {
  const core::CeilingsFile f = with_kernels();
  const nlohmann::json j = report_json({f}, {"k.h5"});
  const nlohmann::json kernels = kernels_json(f, "k.h5", {})["kernels"];
  ASSERT_EQ(j["files"][0]["kernels"].size(), 1u);
  const nlohmann::json& k = j["files"][0]["kernels"][0];
  EXPECT_EQ(k["flops"], kernels[0]["flops"]);
  EXPECT_EQ(k["bytes"], kernels[0]["bytes"]);
  EXPECT_EQ(k["ai"], kernels[0]["ai"]);
  EXPECT_EQ(k["gflop_per_s"], kernels[0]["gflop_per_s"]);
  // A record without a placement is placed, as the kernels chart places it.
  EXPECT_FALSE(k["limiter"].is_null());
  EXPECT_GT(k["fraction_of_roof"].get<double>(), 0.0);
  EXPECT_EQ(j["files"][0]["ceilings"]["ceilings"].size(), f.ceilings.size());
  EXPECT_FALSE(j["files"][0]["sweep"]["patterns"].empty());
  EXPECT_TRUE(j["comparison"].is_null());
}

TEST(HtmlReport, SeveralFilesCarryTheirComparison) {
  const nlohmann::json j = report_json(
      {rooftop::testing::sample_ceilings_file(), rooftop::testing::sample_ceilings_file()},
      {"a.h5", "b.h5"});
  ASSERT_EQ(j["files"].size(), 2u);
  ASSERT_TRUE(j["comparison"].is_object());
  EXPECT_EQ(j["comparison"]["files"], nlohmann::json({"a.h5", "b.h5"}));
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// What a user of real programs reports: the H200's ceilings, the kernels of a PyTorch
// program imported from Nsight Compute's log and the profiler's trace, and the connector's
// profile of a Kokkos program, all three on the same ceilings.
TEST(HtmlReport, RealProgramsKernelsReadRight) {
  const std::string h5 = std::string(ROOFTOP_TEST_FIXTURES) + "/h5/";
  const std::string import = std::string(ROOFTOP_TEST_FIXTURES) + "/import/";
  const core::CeilingsFile ceilings = ceilings::read_file(h5 + "h200-ceilings.h5");
  core::CeilingsFile torch = ceilings;
  torch.kernels =
      counters::parse_reports({{read_text(import + "ncu-text-h200-torch.txt"), "ncu"},
                               {read_text(import + "pytorch-h200-torch-model.json.gz"), "trace"}})
          .kernels;
  for (core::KernelRecord& k : torch.kernels) core::apply(core::place(k, torch), k);
  const core::CeilingsFile profile = ceilings::read_file(h5 + "h200-profile-connector-app.h5");
  const core::CeilingsFile gpp = ceilings::read_file(h5 + "h200-gpp-small-cupti.h5");
  const core::CeilingsFile second =
      ceilings::read_file(std::string(ROOFTOP_DATA_DIR) + "/h200-2026-11-27-ceilings-2.h5");
  const nlohmann::json j = report_json({ceilings, torch, profile, gpp, second},
                                       {"c.h5", "torch.h5", "profile.h5", "gpp.h5", "2.h5"});

  // The roofs of the first four are one set (GPP's file was placed on the same ceilings);
  // the day's second measurement has its own.
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(j["files"][i]["roofs_of"], 0) << i;
  EXPECT_EQ(j["files"][4]["roofs_of"], 4);

  // Names whole in the JSON, shortened beside them: no "void", no parameters, no template
  // arguments (the demangler's "<unnamed>" namespace kept), the middle of what is still long.
  const nlohmann::json& kernels = j["files"][1]["kernels"];
  ASSERT_EQ(kernels.size(), torch.kernels.size());
  std::size_t gelu = 0;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const std::string name = kernels[i]["name"], short_name = kernels[i]["short_name"];
    EXPECT_EQ(name, torch.kernels[i].name);
    EXPECT_LE(short_name.size(), 50u) << short_name;
    EXPECT_EQ(short_name.find("void "), std::string::npos) << short_name;
    EXPECT_EQ(short_name.find('('), std::string::npos) << short_name;
    if (name.find("GeluCUDAKernelImpl") != std::string::npos) {
      EXPECT_EQ(short_name, "at::vectorized_elementwise_kernel<\xE2\x80\xA6>");
      ++gelu;
    }
    if (name.size() <= 48) {
      EXPECT_EQ(short_name, name);
    }
    EXPECT_TRUE(kernels[i]["ladder"].is_null()) << "an import's kernels are no ladder";
  }
  EXPECT_EQ(gelu, 1u);
  EXPECT_EQ(kernels[0]["short_name"].get<std::string>().rfind("at::<unnamed>::", 0), 0u);
  EXPECT_EQ(kernels[2]["short_name"], "cutlass::Kernel2<\xE2\x80\xA6>");

  // The profile's kernels (group "kokkos" in this older file) are no ladder; GPP's are one.
  for (const nlohmann::json& k : j["files"][2]["kernels"]) EXPECT_TRUE(k["ladder"].is_null());
  for (const nlohmann::json& k : j["files"][3]["kernels"]) EXPECT_EQ(k["ladder"], "gpp");
}

}  // namespace
}  // namespace rooftop::report
