// rooftop_report: no two labels of a chart overlap. The charts of real files are laid
// out as boxes (label_boxes.hpp) and every pair is checked: an H200's ceilings and its
// three runs compared, the ceilings file beside the kernels files written on it (whose
// roofs are drawn once), the GPP ladders, the connector's profile, and the kernels of a
// PyTorch program imported from Nsight Compute's log and the profiler's trace.

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "label_boxes.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/roofline.hpp"
#include "rooftop/counters/import.hpp"
#include "rooftop/report/chart.hpp"

namespace rooftop::report {
namespace {

using core::CeilingsFile;
using rooftop::testing::overlapping_labels;

const std::string kH5 = std::string(ROOFTOP_TEST_FIXTURES) + "/h5/";
const std::string kImport = std::string(ROOFTOP_TEST_FIXTURES) + "/import/";
const std::string kData = std::string(ROOFTOP_DATA_DIR) + "/";

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The kernels of `reports` read and placed on `ceilings`, as `rooftop import` does.
CeilingsFile imported(const std::vector<std::string>& reports, const std::string& ceilings) {
  std::vector<counters::ReportFile> files;
  for (const std::string& path : reports) files.push_back({read_text(path), path});
  CeilingsFile f = ceilings::read_file(ceilings);
  f.kernels = counters::parse_reports(files).kernels;
  for (core::KernelRecord& k : f.kernels) core::apply(core::place(k, f), k);
  return f;
}

void expect_no_overlap(const std::string& svg, const std::string& chart) {
  const std::vector<std::string> overlaps = overlapping_labels(svg);
  EXPECT_TRUE(overlaps.empty()) << chart << ": " << overlaps.size() << " overlapping labels, first "
                                << (overlaps.empty() ? "" : overlaps.front());
}

TEST(LabelLayout, RooflinesOfRealFiles) {
  for (const std::string& path : {kH5 + "h200-ceilings.h5", kData + "h200-2026-11-27-ceilings-2.h5",
                                  kData + "epyc-zen4-ceilings.h5", kData + "example-ceilings.h5",
                                  kData + "v100-ert.h5", kData + "epyc-zen4-costs.h5"})
    expect_no_overlap(roofline_svg(ceilings::read_file(path)), path);
}

TEST(LabelLayout, ComparisonsOfRealFiles) {
  const std::vector<std::vector<std::string>> sets = {
      {kData + "h200-2026-11-27-ceilings-1.h5", kData + "h200-2026-11-27-ceilings-2.h5",
       kData + "h200-2026-11-27-ceilings-3.h5"},
      {kH5 + "h200-ceilings.h5", kH5 + "h200-gpp-small-cupti.h5",
       kH5 + "h200-profile-connector-app.h5"},
      {kData + "epyc-zen4-ceilings.h5", kData + "example-ceilings.h5", kData + "v100-ert.h5"}};
  for (const auto& paths : sets) {
    std::vector<CeilingsFile> files;
    for (const std::string& p : paths) files.push_back(ceilings::read_file(p));
    expect_no_overlap(comparison_svg(files, paths), paths.front() + " and others");
  }
}

TEST(LabelLayout, KernelsOfRealFiles) {
  for (const std::string& path :
       {kH5 + "h200-gpp-small-cupti.h5", kH5 + "h200-profile-connector-app.h5",
        kData + "epyc-zen4-gpp.h5", kData + "h200-2026-11-27-gpp-classic-nocupti.h5"})
    expect_no_overlap(kernels_svg(ceilings::read_file(path), "t"), path);
}

TEST(LabelLayout, KernelsOfAPyTorchProgram) {
  const std::string ceilings = kH5 + "h200-ceilings.h5";
  const std::string log = kImport + "ncu-text-h200-torch.txt";
  const std::string trace = kImport + "pytorch-h200-torch-model.json.gz";
  for (const std::vector<std::string>& reports :
       std::vector<std::vector<std::string>>{{log, trace}, {trace}, {log}}) {
    const CeilingsFile f = imported(reports, ceilings);
    ASSERT_GT(f.kernels.size(), 5u);
    expect_no_overlap(kernels_svg(f, "Kernels on the measured roofline"),
                      reports.front() + (reports.size() > 1 ? " + " + reports.back() : ""));
  }
}

// The check itself: two labels written on one spot are found, rotated ones too.
TEST(LabelLayout, TheCheckFindsOverlaps) {
  const std::string svg =
      "<svg><text x='10' y='20' font-size='11'>fp64_fma 7000</text>"
      "<text x='30' y='24' font-size='11'>l1 14336</text>"
      "<g transform='translate(200,200) rotate(-45)'><text font-size='11'>dram 800 GB/s</text></g>"
      "<text x='210' y='196' font-size='11'>k1</text>"
      "<text x='400' y='20' font-size='11'>apart</text></svg>";
  EXPECT_EQ(overlapping_labels(svg).size(), 2u);
}

}  // namespace
}  // namespace rooftop::report
