// rooftop_analyze: the charts. The overlay of several machines' rooflines: one colour
// and one legend entry per machine, every ceiling drawn and labelled, theoretical
// ceilings that were never measured drawn dotted. The hierarchical roofline of kernels:
// well-formed SVG, one marker per kernel and level, arrows from each version to the next,
// a legend row per kernel, names escaped, kernels without time listed but not drawn,
// points above a ceiling flagged, axes that hold every marker.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "label_boxes.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/roofline.hpp"
#include "rooftop/report/chart.hpp"
#include "rooftop/report/kernel_table.hpp"
#include "support.hpp"

namespace rooftop::report {
namespace {

using rooftop::testing::count_of;

using core::CeilingsFile;


CeilingsFile sm70_file() {
  CeilingsFile f;
  f.machine.gpu_name = "Test GPU <sm_70>";
  f.ceilings = {rooftop::testing::make_ceiling("fp64_fma", 7000.0, 7000.0, 7000.0, 1),
                rooftop::testing::make_ceiling("l1", 14336.0, 14336.0, 14336.0, 0),
                rooftop::testing::make_ceiling("dram", 800.0, 800.0, 800.0, 1)};
  return f;
}

TEST(ComparisonSvg, OneColourAndOneLegendEntryPerMachine) {
  const std::string svg =
      comparison_svg({rooftop::testing::sample_ceilings_file(), sm70_file()}, {"cpu.h5", "gpu.h5"});
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(count_of(svg, "class='legend'"), 2u);
  EXPECT_NE(svg.find("[1] cpu.h5: Test GPU"), std::string::npos) << "sample file names a GPU";
  EXPECT_NE(svg.find("[2] gpu.h5: Test GPU &lt;sm_70&gt;"), std::string::npos) << "escaped";
  // Each machine's ceilings in its own colour.
  EXPECT_GE(count_of(svg, "stroke='#1f77b4'"), 3u);  // legend + fp64_fma + dram of [1]
  EXPECT_GE(count_of(svg, "stroke='#d62728'"), 4u);  // legend + three ceilings of [2]
}

TEST(ComparisonSvg, EveryCeilingOfEveryMachineIsDrawnAndLabelled) {
  const std::string svg =
      comparison_svg({rooftop::testing::sample_ceilings_file(), sm70_file()}, {"cpu.h5", "gpu.h5"});
  EXPECT_EQ(count_of(svg, "class='ceiling compute'"), 2u);
  EXPECT_EQ(count_of(svg, "class='ceiling bandwidth'"), 3u);
  EXPECT_NE(svg.find("[1] fp64_fma 101.5 GFLOP/s"), std::string::npos);
  EXPECT_NE(svg.find("[2] dram 800.0 GB/s"), std::string::npos);
  EXPECT_NE(svg.find("[2] l1 14336.0 GB/s (theoretical)"), std::string::npos);
}

TEST(ComparisonSvg, NeverMeasuredCeilingsAreDotted) {
  CeilingsFile other = sm70_file();
  other.ceilings[2].value = 900.0;  // another DRAM figure: other ceilings
  const std::string svg = comparison_svg({sm70_file(), other}, {"a.h5", "b.h5"});
  EXPECT_EQ(count_of(svg, "stroke-dasharray='2,3'"), 2u);  // l1 of each
}

// A ceilings file and the kernels files placed on it hold the same ceilings: their roofs
// are drawn once, labelled with every file's number; the legend still names each file.
TEST(ComparisonSvg, FilesWithTheSameCeilingsShareOneSetOfRoofs) {
  const std::string svg = comparison_svg({sm70_file(), sm70_file()}, {"a.h5", "b.h5"});
  EXPECT_EQ(count_of(svg, "class='ceiling compute'"), 1u);
  EXPECT_EQ(count_of(svg, "class='ceiling bandwidth'"), 2u);
  EXPECT_NE(svg.find(">[1,2] fp64_fma 7000.0 GFLOP/s</text>"), std::string::npos);
  EXPECT_EQ(count_of(svg, "class='legend'"), 2u);
  EXPECT_NE(svg.find("[2] b.h5: Test GPU &lt;sm_70&gt; (the ceilings of [1])"), std::string::npos);
}

TEST(RooflineSvg, TheoreticalCeilingIsMarkedOnTheSingleMachineChartToo) {
  const std::string svg = roofline_svg(sm70_file());
  EXPECT_NE(svg.find("l1 14336.0 GB/s (theoretical)"), std::string::npos);
  EXPECT_EQ(count_of(svg, "stroke-dasharray='2,3'"), 1u);
}

// The hierarchical roofline of kernels.

// Empty where `svg` is well-formed as far as a chart needs: every tag closed in order,
// attribute quotes paired, no bare '<' or '&' in text.
std::string xml_problem(const std::string& svg) {
  std::vector<std::string> open;
  for (std::size_t at = 0; at < svg.size(); ++at) {
    if (svg[at] == '&') {
      const std::size_t end = svg.find(';', at);
      const std::string entity = svg.substr(at, end == std::string::npos ? 8 : end - at + 1);
      if (entity != "&lt;" && entity != "&gt;" && entity != "&amp;" && entity != "&apos;" &&
          entity != "&quot;")
        return "bare & at " + std::to_string(at);
      continue;
    }
    if (svg[at] != '<') continue;
    const std::size_t end = svg.find('>', at);
    if (end == std::string::npos) return "unclosed tag at " + std::to_string(at);
    const std::string tag = svg.substr(at + 1, end - at - 1);
    at = end;
    if (tag.find('<') != std::string::npos) return "'<' inside tag " + tag;
    if (std::count(tag.begin(), tag.end(), '\'') % 2 != 0) return "unpaired quote in " + tag;
    if (tag[0] == '?' || tag[0] == '!') continue;
    const std::string name =
        tag.substr(tag[0] == '/', tag.find_first_of(" />", 1) - (tag[0] == '/'));
    if (tag[0] == '/') {
      if (open.empty() || open.back() != name) return "</" + name + "> closes nothing open";
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(name);
    }
  }
  if (!open.empty()) return "<" + open.back() + "> never closed";
  return "";
}

// A kernel with `flops` FP64 FLOPs in `seconds` and the bytes given per level.
core::KernelRecord kernel(const std::string& id, const std::string& group, int order, double flops,
                          double seconds, const std::vector<core::LevelBytes>& bytes) {
  core::KernelRecord k;
  k.id = id;
  k.name = "gpp::" + id;
  k.group = group;
  k.order = order;
  k.precision = "fp64";
  k.flops_fp64 = flops;
  k.time_s = seconds;
  k.bytes = bytes;
  return k;
}

// Three versions of one ladder on the GPU's ceilings (no l2 ceiling there), stored out
// of order, each with counts at l1, l2 and dram; each is twice as fast and moves less
// DRAM traffic than the one before.
CeilingsFile ladder_file() {
  CeilingsFile f = sm70_file();
  const double G = 1e9;
  f.kernels = {
      kernel("v2", "gpp", 2, 100 * G, 0.25, {{"l1", 200 * G}, {"l2", 50 * G}, {"dram", 2 * G}}),
      kernel("v0", "gpp", 0, 100 * G, 1.0, {{"l1", 400 * G}, {"l2", 200 * G}, {"dram", 100 * G}}),
      kernel("v1", "gpp", 1, 100 * G, 0.5, {{"l1", 300 * G}, {"l2", 100 * G}, {"dram", 25 * G}})};
  return f;
}

struct Marker {
  std::string id, level;
  double x, y;
};

// The markers of a kernel chart: position, level (from the class) and id (from the title).
std::vector<Marker> markers(const std::string& svg) {
  static const std::regex marker(
      "class='kernel level-([a-z0-9-]+)[^']*' transform='translate\\(([-0-9.e]+),([-0-9.e]+)\\)'>"
      "<title>([^ ]+) ");
  std::vector<Marker> out;
  for (std::sregex_iterator m(svg.begin(), svg.end(), marker), end; m != end; ++m)
    out.push_back({(*m)[4], (*m)[1], std::stod((*m)[2]), std::stod((*m)[3])});
  return out;
}

const Marker& nearest(const std::vector<Marker>& all, double x, double y) {
  return *std::min_element(all.begin(), all.end(), [&](const Marker& a, const Marker& b) {
    return std::hypot(a.x - x, a.y - y) < std::hypot(b.x - x, b.y - y);
  });
}

// The text of each row of the legend table, lines joined, tooltips left out.
std::vector<std::string> table_rows(const std::string& svg) {
  static const std::regex row("<g class='kernel-row[^']*'><title>[^<]*</title>(.*?)</g>");
  static const std::regex tag("<[^>]*>");
  std::vector<std::string> out;
  for (std::sregex_iterator m(svg.begin(), svg.end(), row), end; m != end; ++m)
    out.push_back(std::regex_replace(std::string((*m)[1]), tag, ""));
  return out;
}

TEST(KernelsSvg, IsWellFormedSvg) {
  const std::string svg = kernels_svg(ladder_file(), "GPP <ladder> & co");
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("GPP &lt;ladder&gt; &amp; co"), std::string::npos);
}

TEST(KernelsSvg, TheCheckerCatchesMalformedMarkup) {
  EXPECT_NE(xml_problem("<svg><g></svg>"), "");
  EXPECT_NE(xml_problem("<svg><text>a < b</text></svg>"), "");
  EXPECT_NE(xml_problem("<svg><text>a & b</text></svg>"), "");
  EXPECT_NE(xml_problem("<svg><text x='1>a</text></svg>"), "");
  EXPECT_EQ(xml_problem("<?xml version='1.0'?><svg><g a='x'/><t>&lt;&amp;</t></svg>"), "");
}

TEST(KernelsSvg, DrawsAndLabelsTheCeilingsAsTheRooflineChartDoes) {
  // Every marker of the ladder lies in the usual range, so the axes are the same too.
  const auto roofs = [](const std::string& svg) {
    static const std::regex roof("<line class='ceiling [^\n]*\n<(text|g class='roof-label')[^\n]*\n");
    std::vector<std::string> out;
    for (std::sregex_iterator m(svg.begin(), svg.end(), roof), end; m != end; ++m)
      out.push_back(m->str());
    return out;
  };
  const std::vector<std::string> expected = roofs(roofline_svg(sm70_file()));
  EXPECT_EQ(expected.size(), 3u);
  EXPECT_EQ(roofs(kernels_svg(ladder_file(), "t")), expected);
  EXPECT_NE(expected[0].find(">fp64_fma 7000.0 GFLOP/s</text>"), std::string::npos);
}

TEST(KernelsSvg, OneMarkerPerKernelAndLevelItHasCountsFor) {
  CeilingsFile f = ladder_file();
  // Counts at a level with no ceiling still place a marker; a zero count does not.
  f.kernels.push_back(kernel("s", "", 0, 1e9, 1.0, {{"l3", 1e9}, {"shared", 0.0}}));
  const std::string svg = kernels_svg(f, "t");
  std::map<std::string, int> per_level;
  for (const Marker& m : markers(svg)) ++per_level[m.level];
  EXPECT_EQ(per_level, (std::map<std::string, int>{{"dram", 3}, {"l1", 3}, {"l2", 3}, {"l3", 1}}));
  EXPECT_EQ(count_of(svg, "class='kernel "), 10u);
  // One shape per level, and each in the level legend.
  const std::size_t legend = svg.find("class='level-legend'");
  ASSERT_NE(legend, std::string::npos);
  const std::string levels = svg.substr(legend, svg.find("</g>\n", legend) - legend);
  for (const char* level : {">l1</text>", ">l2</text>", ">l3</text>", ">dram</text>"})
    EXPECT_EQ(count_of(levels, level), 1u) << level;
  // Each marker at its level's intensity and the kernel's rate: v0 at l1 is 0.25 FLOP/byte
  // and 100 GFLOP/s, left of and below v2 at dram (50 FLOP/byte, 400 GFLOP/s).
  const std::vector<Marker> all = markers(svg);
  ASSERT_EQ(all.size(), 10u);
  const auto find = [&](const std::string& id, const std::string& level) {
    return *std::find_if(all.begin(), all.end(),
                         [&](const Marker& m) { return m.id == id && m.level == level; });
  };
  EXPECT_LT(find("v0", "l1").x, find("v2", "dram").x);
  EXPECT_GT(find("v0", "l1").y, find("v2", "dram").y);
  EXPECT_DOUBLE_EQ(find("v0", "l1").y, find("v0", "dram").y) << "one rate per kernel";
}

TEST(KernelsSvg, OneColourPerKernel) {
  const std::string svg = kernels_svg(ladder_file(), "t");
  // Markers, id labels and the table swatch in each kernel's colour, in stored order.
  const char* colours[] = {"#1f77b4", "#2ca02c", "#9467bd"};  // v2, v0, v1
  for (const std::string c : colours) {
    SCOPED_TRACE(c);
    EXPECT_EQ(count_of(svg, "fill='" + c + "' stroke='white' stroke-width='1'"), 3u);
    EXPECT_EQ(count_of(svg, "fill='" + c + "' stroke='white' stroke-width='3'"), 3u);
    EXPECT_TRUE(std::regex_search(svg, std::regex("<rect x='22' [^>]* fill='" + c + "'/>")));
  }
}

TEST(KernelsSvg, ArrowsJoinEachVersionToTheNextAtEveryLevel) {
  CeilingsFile f = ladder_file();
  const std::string svg = kernels_svg(f, "t");
  // n versions with k levels each: (n - 1) k arrows, each with an arrowhead.
  EXPECT_EQ(count_of(svg, "class='step'"), 6u);
  EXPECT_EQ(count_of(svg, "marker-end='url(#rooftop-step)'"), 6u + 1u);  // and the legend's
  EXPECT_EQ(count_of(svg, "<marker id='rooftop-step'"), 1u);

  // From version to next version in `order`, at the same level, whatever the stored order.
  const std::vector<Marker> all = markers(svg);
  static const std::regex step(
      "class='step' x1='([-0-9.]+)' y1='([-0-9.]+)' x2='([-0-9.]+)' "
      "y2='([-0-9.]+)'");
  std::vector<std::string> seen;
  for (std::sregex_iterator m(svg.begin(), svg.end(), step), end; m != end; ++m) {
    const Marker& from = nearest(all, std::stod((*m)[1]), std::stod((*m)[2]));
    const Marker& to = nearest(all, std::stod((*m)[3]), std::stod((*m)[4]));
    EXPECT_EQ(from.level, to.level);
    seen.push_back(from.id + ">" + to.id + " " + from.level);
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"v0>v1 dram", "v0>v1 l1", "v0>v1 l2", "v1>v2 dram",
                                            "v1>v2 l1", "v1>v2 l2"}));
}

TEST(KernelsSvg, ArrowsOnlyWithinAGroupAndOnlyBetweenDrawnVersions) {
  CeilingsFile f = ladder_file();
  f.kernels[2].time_s = 0.0;  // v1 not timed: v0 joins v2
  f.kernels.push_back(kernel("a0", "other", 0, 1e9, 1.0, {{"l1", 1e9}}));
  f.kernels.push_back(kernel("a1", "other", 1, 1e9, 0.5, {{"l1", 1e9}, {"dram", 1e8}}));
  f.kernels.push_back(kernel("solo", "", 0, 1e9, 0.5, {{"l1", 1e9}}));
  const std::string svg = kernels_svg(f, "t");
  EXPECT_EQ(count_of(svg, "class='step'"), 3u + 1u);  // v0 > v2 at three levels, a0 > a1 at l1
}

// The kernels of a profiler's report or of a program are different codes, not versions of
// one: no arrow joins them, whether their file names no group (as import and profile
// write now) or the whole list "import" or "kokkos" (as they wrote before), as the
// connector's profile of the H200 does.
TEST(KernelsSvg, NoArrowsBetweenKernelsOfAnImportOrAProfile) {
  for (const std::string group : {"", "import", "kokkos"}) {
    CeilingsFile f = ladder_file();
    for (std::size_t i = 0; i < f.kernels.size(); ++i) f.kernels[i].group = group;
    EXPECT_EQ(count_of(kernels_svg(f, "t"), "class='step'"), 0u) << group;
  }
  const CeilingsFile profile =
      ceilings::read_file(std::string(ROOFTOP_TEST_FIXTURES) + "/h5/h200-profile-connector-app.h5");
  ASSERT_GE(profile.kernels.size(), 3u);
  EXPECT_EQ(count_of(kernels_svg(profile, "t"), "class='step'"), 0u);
  const CeilingsFile ladder =
      ceilings::read_file(std::string(ROOFTOP_TEST_FIXTURES) + "/h5/h200-gpp-small-cupti.h5");
  EXPECT_GT(count_of(kernels_svg(ladder, "t"), "class='step'"), 0u) << "GPP's ladder keeps them";
}

// The charts the tests above draw keep their labels apart too (test_label_layout.cpp
// checks those of real files).
TEST(KernelsSvg, NoTwoLabelsOfTheseChartsOverlap) {
  for (const std::string& svg :
       {kernels_svg(ladder_file(), "t"), roofline_svg(rooftop::testing::sample_ceilings_file()),
        roofline_svg(sm70_file()),
        comparison_svg({rooftop::testing::sample_ceilings_file(), sm70_file()},
                       {"cpu.h5", "gpu.h5"})})
    EXPECT_EQ(rooftop::testing::overlapping_labels(svg), std::vector<std::string>{});
}

TEST(KernelsSvg, LegendTableHasOneRowPerKernel) {
  CeilingsFile f = ladder_file();
  f.kernels.push_back(kernel("nt", "", 0, 1e9, 0.0, {{"dram", 1e9}}));
  const std::string svg = kernels_svg(f, "t");
  EXPECT_EQ(count_of(svg, "class='kernel-row"), 4u);
  // v1: 200 GFLOP/s; dram limits it at 4 FLOP/byte x 800 GB/s = 3200 GFLOP/s, so 6.25%.
  const std::size_t row = svg.find(">gpp::v1</text>");
  ASSERT_NE(row, std::string::npos);
  const std::string v1 = svg.substr(row, svg.find("</g>", row) - row);
  EXPECT_NE(v1.find(">200.0</text>"), std::string::npos) << v1;
  EXPECT_NE(v1.find(">dram</text>"), std::string::npos) << v1;
  EXPECT_NE(v1.find(">6.25%</text>"), std::string::npos) << v1;
}

TEST(KernelsSvg, NamesAndIdsAreEscaped) {
  CeilingsFile f = ladder_file();
  f.kernels[0].name = "op<double> & 'x' \"y\"";
  f.kernels[0].id = "<v2>";
  const std::string svg = kernels_svg(f, "t");
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("op&lt;double&gt; &amp; &apos;x&apos; &quot;y&quot;"), std::string::npos);
  EXPECT_EQ(svg.find("op<double>"), std::string::npos);
  EXPECT_NE(svg.find(">&lt;v2&gt;</text>"), std::string::npos);
}

TEST(KernelsSvg, LongNamesAreWrappedWithTheFullNameInATooltip) {
  CeilingsFile f = ladder_file();
  std::string name = "Kokkos::parallel_for<Kokkos::MDRangePolicy<Kokkos::Rank<3>>>";
  for (int i = 0; i < 6; ++i) name += " [gpp::noflagra_step_" + std::to_string(i) + "]";
  f.kernels[0].name = name;
  const std::string svg = kernels_svg(f, "t");
  const std::string escaped =
      "Kokkos::parallel_for&lt;Kokkos::MDRangePolicy&lt;Kokkos::Rank&lt;3&gt;&gt;&gt;";
  EXPECT_NE(svg.find("<title>" + escaped + " [gpp"), std::string::npos) << "whole name in a title";
  EXPECT_EQ(svg.find("'>" + escaped + " [gpp::noflagra_step_0] [gpp"), std::string::npos)
      << "no text line holds the whole name";
  EXPECT_NE(svg.find("noflagra_step_5]</text>"), std::string::npos) << "the end stays readable";
  EXPECT_NE(svg.find("\xE2\x80\xA6"), std::string::npos) << "an ellipsis marks the cut";
}

TEST(KernelsSvg, KernelWithoutTimeIsListedButNotDrawn) {
  CeilingsFile f = ladder_file();
  f.kernels.push_back(kernel("nt", "gpp", 3, 1e11, 0.0, {{"l1", 1e9}, {"dram", 1e9}}));
  const std::string svg = kernels_svg(f, "t");
  EXPECT_EQ(count_of(svg, "class='kernel "), 9u);
  EXPECT_EQ(count_of(svg, "class='step'"), 6u);
  EXPECT_EQ(count_of(svg, "class='kernel-id'"), 9u);
  EXPECT_EQ(count_of(svg, ">nt</text>"), 1u) << "in the table only";
  EXPECT_EQ(count_of(svg, "class='kernel-row"), 4u);
  EXPECT_NE(svg.find(">no time</text>"), std::string::npos);
}

TEST(KernelsSvg, KernelAboveACeilingIsFlaggedNotHidden) {
  CeilingsFile f = ladder_file();
  // As the analyzer stores it; and one no analyzer placed: 10000 GFLOP/s at 2 FLOP/byte,
  // above the 7000 GFLOP/s compute roof and the 1600 GFLOP/s of DRAM.
  f.kernels[0].limiter = "dram";
  f.kernels[0].above = "dram";
  f.kernels.push_back(kernel("fast", "", 0, 1e13, 1.0, {{"dram", 5e12}}));
  const std::string svg = kernels_svg(f, "t");
  EXPECT_EQ(count_of(svg, "class='kernel "), 10u);
  EXPECT_EQ(count_of(svg, " above' transform="), 4u);  // v2's three markers and fast's one
  EXPECT_EQ(count_of(svg, "stroke='#d62728' stroke-width='2.5'"), 4u + 1u);  // and the legend's
  EXPECT_EQ(count_of(svg, "class='kernel-row above'"), 2u);
  EXPECT_NE(svg.find(">above ceiling: dram</text>"), std::string::npos);
  EXPECT_NE(table_rows(svg).back().find("above ceiling: fp64_fma,dram"), std::string::npos);
  EXPECT_NE(svg.find(">above a ceiling</text>"), std::string::npos) << "legend";
}

TEST(KernelsSvg, AxesHoldEveryMarkerAndTheCeilings) {
  CeilingsFile f = ladder_file();
  f.kernels.push_back(kernel("low", "", 0, 1e6, 1e3, {{"dram", 1e11}}));  // 1e-5 FLOP/byte
  f.kernels.push_back(kernel("high", "", 0, 1e17, 1.0, {{"l1", 1e11}}));  // 1e8 GFLOP/s
  const std::string svg = kernels_svg(f, "t");
  static const std::regex plot(
      "class='plot' x='([0-9.]+)' y='([0-9.]+)' width='([0-9.]+)' "
      "height='([0-9.]+)'");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, plot));
  const double x0 = std::stod(m[1]), y0 = std::stod(m[2]);
  const double x1 = x0 + std::stod(m[3]), y1 = y0 + std::stod(m[4]);
  const std::vector<Marker> all = markers(svg);
  ASSERT_EQ(all.size(), 11u);
  for (const Marker& k : all) {
    SCOPED_TRACE(k.id + " " + k.level);
    EXPECT_GT(k.x, x0);
    EXPECT_LT(k.x, x1);
    EXPECT_GT(k.y, y0);
    EXPECT_LT(k.y, y1);
  }
  EXPECT_NE(svg.find("fp64_fma 7000.0 GFLOP/s"), std::string::npos);
}

TEST(KernelsSvg, AFileWithoutKernelsStillShowsItsCeilings) {
  CeilingsFile f = ladder_file();
  f.kernels.clear();
  const std::string svg = kernels_svg(f, "t");
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_EQ(count_of(svg, "class='ceiling "), 3u);
  EXPECT_EQ(count_of(svg, "class='kernel "), 0u);
  EXPECT_NE(svg.find("no kernels in this file"), std::string::npos);
}

// The coordinate pairs of every pattern line in the bandwidth sweep panel.
std::vector<std::string> pattern_lines(const std::string& svg) {
  std::vector<std::string> out;
  const std::regex line("<polyline class='pattern'[^>]*points='([^']*)'");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), line); it != std::sregex_iterator();
       ++it)
    out.push_back((*it)[1]);
  return out;
}

TEST(RooflineSvg, APointMeasuredAgainShowsItsBestMedianOnce) {
  CeilingsFile f = rooftop::testing::sample_ceilings_file();
  const std::vector<std::string> before = pattern_lines(roofline_svg(f));
  core::BandwidthPoint slower = f.sweeps.bandwidth.at(0);  // read at 16 KiB
  for (double& r : slower.values) r /= 2;
  f.sweeps.bandwidth.push_back(slower);
  EXPECT_EQ(pattern_lines(roofline_svg(f)), before) << "the slower repeat is not drawn";

  core::BandwidthPoint faster = f.sweeps.bandwidth.at(0);
  for (double& r : faster.values) r *= 1.1;
  f.sweeps.bandwidth.push_back(faster);
  const std::vector<std::string> after = pattern_lines(roofline_svg(f));
  ASSERT_EQ(after.size(), before.size());
  EXPECT_NE(after, before) << "the faster repeat replaces the first measurement";
  for (std::size_t i = 0; i < after.size(); ++i)
    EXPECT_EQ(std::count(after[i].begin(), after[i].end(), ','),
              std::count(before[i].begin(), before[i].end(), ','))
        << "one vertex per working set";
}

TEST(RooflineSvg, StaysWellFormed) {
  EXPECT_EQ(xml_problem(roofline_svg(rooftop::testing::sample_ceilings_file())), "");
  EXPECT_EQ(xml_problem(comparison_svg({sm70_file(), sm70_file()}, {"a'.h5", "b&.h5"})), "");
}


TEST(KernelsSvg, ARateWithoutBytesIsDrawnAgainstTheComputeRoofsOnly) {
  // A PyTorch operator's FLOPs and its kernel's time, no bytes: no intensity to place it
  // by, so a tick at the right edge at its GFLOP/s, marked, and no roofline marker.
  CeilingsFile f = ladder_file();
  f.kernels.push_back(kernel("k9", "", 0, 300 * 1e9, 1.0, {}));
  const std::string svg = kernels_svg(f, "t");
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_EQ(count_of(svg, "class='kernel rate-only'"), 1u);
  EXPECT_NE(svg.find(">k9 (no AI)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">no byte counts: no"), std::string::npos);
  EXPECT_EQ(markers(svg).size(), 9u) << "the ladder's markers only";
  core::apply(core::place(f.kernels.back(), f), f.kernels.back());
  const nlohmann::json j = kernels_json(f, "c.h5", {});
  EXPECT_EQ(j["kernels"].back()["placement"], "compute roofs only (no bytes)");
  EXPECT_EQ(j["kernels"][0]["placement"], "roofline");
  EXPECT_NE(kernels_table(f, {}).find("k9 "), std::string::npos);
  EXPECT_NE(kernels_table(f, {}).find("NO BYTES: vs compute roofs only"), std::string::npos);
}

TEST(KernelsSvg, AMatrixUnitsRoofIsDrawnOnlyForTheKernelsPlacedAgainstIt) {
  CeilingsFile f = ladder_file();
  core::Ceiling tc =
      rooftop::testing::make_ceiling("tc_fp16", 300000.0, 299000.0, 301000.0, 5);
  tc.kind = "compute";
  tc.units = "GFLOP/s";
  f.matrix.figures.push_back(tc);
  // The figure alone draws no roof: no kernel is placed against it.
  EXPECT_EQ(count_of(kernels_svg(f, "t"), "class='tensor-roof'"), 0u);
  EXPECT_EQ(count_of(kernels_svg(ladder_file(), "t"), "class='tensor-roof'"), 0u);

  // 10^14 tc_fp16 ops and 10^9 FP64 FLOPs in one second, 10^11 DRAM bytes (AI 1000).
  core::KernelRecord t = kernel("t1", "", 0, 1e9, 1.0, {{"dram", 1e11}});
  t.tensor_ops = {{"tc_fp16", 1e14}};
  f.kernels.push_back(t);
  const std::string svg = kernels_svg(f, "t");
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_EQ(count_of(svg, "class='tensor-roof'"), 1u);
  EXPECT_EQ(count_of(svg, "stroke-dasharray='6,4'"), 1u);
  EXPECT_TRUE(std::regex_search(svg, std::regex(">tc_fp16 300000(\\.0)? GFLOP/s</text>"))) << svg;
  EXPECT_NE(svg.find("matrix-unit roof (/matrix tc_fp16) of t1"), std::string::npos);

  core::apply(core::place(f.kernels.back(), f), f.kernels.back());
  EXPECT_EQ(f.kernels.back().limiter, "tc_fp16");
  const nlohmann::json j = kernels_json(f, "c.h5", {});
  EXPECT_EQ(j["kernels"].back()["tensor_ops"]["tc_fp16"], 1e14);
  EXPECT_EQ(j["kernels"].back()["limiter"], "tc_fp16");
  EXPECT_TRUE(j["kernels"][0]["tensor_ops"].empty());
  const std::string table = kernels_table(f, {});
  EXPECT_NE(table.find("tensor ops: tc_fp16 100,000,000,000,000 (100% of operations)"),
            std::string::npos)
      << table;
  EXPECT_EQ(count_of(table, "tensor ops:"), 1u);
}

}  // namespace
}  // namespace rooftop::report
