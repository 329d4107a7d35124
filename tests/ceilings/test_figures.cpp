// The figures of schema 1.7 (/costs, /matrix): written and read back whole, absent from
// files that have none, and checked like the ceilings on both sides.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "samples.hpp"
#include "support.hpp"

namespace rooftop::ceilings {
namespace {

using rooftop::testing::TempDir;

core::Ceiling figure(const std::string& name, double value, double min, double max) {
  const core::Figure* row = core::find_figure(name);
  core::Ceiling c;
  c.name = name;
  c.kind = std::string(row->kind);
  c.units = std::string(row->units);
  c.value = c.median = value;
  c.min = min;
  c.max = max;
  c.samples = 3;
  return c;
}

core::SweepPoint point(const std::string& sweep, double x, std::vector<double> values) {
  core::SweepPoint p;
  p.sweep = sweep;
  p.x = x;
  p.values = values;
  for (double v : values) p.seconds.push_back(1e-3 / v);
  return p;
}

core::CeilingsFile with_figures() {
  core::CeilingsFile f = rooftop::testing::cpu_file();
  core::Ceiling h2d = figure("h2d", 25.1, 24.9, 25.3);
  h2d.theoretical = 31.5;
  h2d.theoretical_basis = "PCIe 4.0 x16: 16 GT/s x 16 lanes x 128/130 / 8";
  h2d.pattern = "pinned";
  h2d.working_set_bytes = 1ull << 30;
  f.costs.figures = {h2d, figure("launch_latency", 4.2, 4.1, 4.9)};
  f.costs.sweeps = {point("h2d:pinned", 4096, {2.0, 2.1, 1.9}),
                    point("h2d:pinned", 1 << 30, {25.1, 24.9, 25.3}),
                    point("launch:sync", 1, {4.2, 4.1, 4.9})};
  f.costs.sweeps[0].clock_ghz = {1.98, 1.98, 1.97};
  f.costs.sweeps[2].disturbance = {0.0, 0.01, 0.0};
  core::Ceiling bf16 = figure("bf16_dot", 880.0, 870.0, 890.0);
  bf16.pattern = "vdpbf16ps";
  bf16.disturbance = 0.0;
  f.matrix.figures = {bf16};
  f.matrix.sweeps = {point("bf16_dot", 8, {860.0, 870.0, 880.0})};
  return f;
}

void expect_same(const core::Figures& a, const core::Figures& b) {
  ASSERT_EQ(a.figures.size(), b.figures.size());
  for (std::size_t i = 0; i < a.figures.size(); ++i) {
    const core::Ceiling &x = a.figures[i], &y = b.figures[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.units, y.units);
    EXPECT_EQ(x.pattern, y.pattern);
    EXPECT_EQ(x.value, y.value);
    EXPECT_EQ(x.min, y.min);
    EXPECT_EQ(x.max, y.max);
    EXPECT_EQ(x.samples, y.samples);
    EXPECT_EQ(x.working_set_bytes, y.working_set_bytes);
    EXPECT_EQ(x.theoretical, y.theoretical);
    EXPECT_EQ(x.theoretical_basis, y.theoretical_basis);
    EXPECT_EQ(x.disturbance, y.disturbance);
  }
  ASSERT_EQ(a.sweeps.size(), b.sweeps.size());
  for (std::size_t i = 0; i < a.sweeps.size(); ++i) {
    EXPECT_EQ(a.sweeps[i].sweep, b.sweeps[i].sweep);
    EXPECT_EQ(a.sweeps[i].x, b.sweeps[i].x);
    EXPECT_EQ(a.sweeps[i].values, b.sweeps[i].values);
    EXPECT_EQ(a.sweeps[i].seconds, b.sweeps[i].seconds);
    EXPECT_EQ(a.sweeps[i].clock_ghz, b.sweeps[i].clock_ghz);
    EXPECT_EQ(a.sweeps[i].disturbance, b.sweeps[i].disturbance);
  }
}

bool has_group(const std::string& path, const char* name) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const bool found = H5Lexists(file, name, H5P_DEFAULT) > 0;
  H5Fclose(file);
  return found;
}

TEST(Figures, CostsAndMatrixUnitsComeBackAsWritten) {
  TempDir dir;
  const std::string path = dir.file("figures.h5");
  const core::CeilingsFile written = with_figures();
  write_file(path, written);
  const core::CeilingsFile read = read_file(path);
  EXPECT_EQ(read.provenance.schema_version, "1.8");  // as this rooftop writes
  expect_same(written.costs, read.costs);
  expect_same(written.matrix, read.matrix);
  ASSERT_NE(read.costs.find("h2d"), nullptr);
  EXPECT_DOUBLE_EQ(*read.costs.find("h2d")->fraction_of_theoretical(), 25.1 / 31.5);
  EXPECT_EQ(read.costs.find("d2h"), nullptr);
}

TEST(Figures, AFileWithoutFiguresHasNoGroupsForThem) {
  TempDir dir;
  const std::string path = dir.file("plain.h5");
  write_file(path, rooftop::testing::cpu_file());
  EXPECT_FALSE(has_group(path, "costs"));
  EXPECT_FALSE(has_group(path, "matrix"));
  const core::CeilingsFile read = read_file(path);
  EXPECT_TRUE(read.costs.empty());
  EXPECT_TRUE(read.matrix.empty());
}

TEST(Figures, AnOlderFileReadsWithNone) {
  const core::CeilingsFile old = read_file(std::string(ROOFTOP_DATA_DIR) + "/epyc-zen4-ceilings.h5");
  EXPECT_NE(old.provenance.schema_version, "1.7");
  EXPECT_TRUE(old.costs.empty());
  EXPECT_TRUE(old.matrix.empty());
}

// Writers refuse what readers reject, with one line naming the group, row and field.
TEST(Figures, ImplausibleFiguresAreRefused) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::pair<std::function<void(core::CeilingsFile&)>, const char*> cases[] = {
      {[](core::CeilingsFile& f) { f.costs.figures[0].units = "GFLOP/s"; }, "units"},
      {[](core::CeilingsFile& f) { f.costs.figures[0].kind = "bandwidth"; }, "kind"},
      {[](core::CeilingsFile& f) { f.costs.figures[0].value = -1.0; }, "value"},
      {[&](core::CeilingsFile& f) { f.costs.figures[0].value = inf; }, "value"},
      {[&](core::CeilingsFile& f) { f.costs.figures[0].theoretical = inf; }, "theoretical"},
      {[](core::CeilingsFile& f) { f.costs.figures[0].min = 30.0; }, "not in order"},
      {[](core::CeilingsFile& f) { f.costs.figures[1] = f.costs.figures[0]; }, "a second row"},
      {[](core::CeilingsFile& f) { f.costs.figures[0].name = "H2D <b>"; }, "plain"},
      {[](core::CeilingsFile& f) { f.matrix.figures.push_back(f.costs.figures[0]); }, "/costs"},
      {[](core::CeilingsFile& f) { f.costs.figures[1].name = "next_one"; f.costs.figures[1].units = "furlongs"; }, "unknown units"},
      {[](core::CeilingsFile& f) { f.costs.sweeps[0].x = -4.0; }, "x -4"},
      {[](core::CeilingsFile& f) { f.costs.sweeps[0].values[1] = 0.0; }, "sample value"},
      {[](core::CeilingsFile& f) { f.costs.sweeps[2].disturbance[0] = 2.0; }, "disturbance"},
      {[](core::CeilingsFile& f) { f.matrix.sweeps[0].sweep = "d2d"; }, "a sweep of /costs"},
  };
  TempDir dir;
  for (const auto& [change, why] : cases) {
    core::CeilingsFile f = with_figures();
    change(f);
    try {
      write_file(dir.file("bad.h5"), f);
      ADD_FAILURE() << "written: " << why;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  }
}

TEST(Figures, ANameOfALaterVersionIsKeptWhenItsUnitsAreKnown) {
  core::CeilingsFile f = with_figures();
  f.costs.figures[1].name = "graph_launch";  // not in this rooftop's table
  TempDir dir;
  write_file(dir.file("later.h5"), f);
  EXPECT_NE(read_file(dir.file("later.h5")).costs.find("graph_launch"), nullptr);
}

TEST(Figures, EverySweepAndFigureRowHasAKnownGroupAndUnit) {
  const auto known_group = [](std::string_view g) {
    for (const core::FigureGroup& group : core::kFigureGroups)
      if (group.name == g) return true;
    return false;
  };
  for (const core::Sweep& s : core::kSweeps) {
    EXPECT_TRUE(known_group(s.group)) << s.name;
    EXPECT_NE(core::find_unit(s.units), nullptr) << s.name;
  }
  for (const core::Figure& f : core::kFigures) {
    EXPECT_TRUE(known_group(f.group)) << f.name;
    EXPECT_NE(core::find_unit(f.units), nullptr) << f.name;
  }
}

}  // namespace
}  // namespace rooftop::ceilings
