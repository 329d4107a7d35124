// rooftop_analyze: the import backend reads the files and hands them to counters' parser.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "rooftop/analyze/import_backend.hpp"
#include "support.hpp"

namespace rooftop::analyze {
namespace {

using core::KernelRecord;
using rooftop::testing::error_of;

#define EXPECT_REL(actual, expected, rel) EXPECT_NEAR(actual, expected, std::abs(expected) * (rel))

std::string fixture(const std::string& name) {
  return std::string(ROOFTOP_TEST_FIXTURES) + "/import/" + name;
}

// ---------------------------------------------------------------------------------------
// The backend.

TEST(ImportBackend, ReadsTheFilesAndAppendsItsNotes) {
  ImportBackend backend(fixture("nvprof-metrics.csv"), fixture("nvprof-summary.csv"));
  EXPECT_EQ(backend.name(), "import");
  std::vector<std::string> notes = {"earlier note"};
  const std::vector<KernelRecord> kernels = backend.collect(notes);
  EXPECT_EQ(backend.format(), "nvprof-metrics");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_REL(kernels[0].time_s, 51e-6, 1e-12);
  ASSERT_GE(notes.size(), 2u);
  EXPECT_EQ(notes[0], "earlier note");
  EXPECT_NE(notes[1].find(fixture("nvprof-summary.csv")), std::string::npos) << notes[1];
}

TEST(ImportBackend, AMissingFileCannotBeRead) {
  rooftop::testing::TempDir dir;
  const std::string missing = dir.file("missing.csv");
  ImportBackend backend(missing);
  std::vector<std::string> notes;
  const std::string e = error_of([&] { backend.collect(notes); });
  EXPECT_EQ(e, missing + ": cannot read (No such file or directory)");
  ImportBackend timing(fixture("nvprof-metrics.csv"), dir.path().string());
  const std::string d = error_of([&] { timing.collect(notes); });
  EXPECT_EQ(d, dir.path().string() + ": cannot read (a directory)");
}

// `import /dev/zero` once read without end.
TEST(ImportBackend, AnEndlessReportStopsAtTheLimit) {
  ImportBackend backend("/dev/zero");
  std::vector<std::string> notes;
  const std::string msg = error_of([&] { backend.collect(notes); });
  EXPECT_NE(msg.find("/dev/zero: more than the 256 MiB a profiler report may have"),
            std::string::npos)
      << msg;
}

}  // namespace
}  // namespace rooftop::analyze
