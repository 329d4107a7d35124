// rooftop_analyze: the import backend reads the files and hands them to counters' parser.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rooftop/analyze/import_backend.hpp"
#include "support.hpp"

namespace rooftop::analyze {
namespace {

using core::KernelRecord;
using rooftop::testing::error_of;

std::string fixture(const std::string& name) {
  return std::string(ROOFTOP_TEST_FIXTURES) + "/import/" + name;
}

// ---------------------------------------------------------------------------------------
// The backend.

TEST(ImportBackend, ReadsTheFilesAndAppendsItsNotes) {
  // The real matrixMul report and the GPU trace of another run of it (fixtures/README.md).
  ImportBackend backend(fixture("nvprof-metrics-matrixmul.csv"),
                        fixture("nvprof-trace-matrixmul.csv"));
  EXPECT_EQ(backend.name(), "import");
  std::vector<std::string> notes = {"earlier note"};
  const std::vector<KernelRecord> kernels = backend.collect(notes);
  EXPECT_EQ(backend.format(), "nvprof-metrics");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "void matrixMulCUDA<int=32>(float*, float*, float*, int, int)");
  EXPECT_EQ(kernels[0].invocations, 301);
  EXPECT_EQ(kernels[0].time_source, "nvprof GPU trace");
  // The sum of the trace's 301 durations (ImportNvprofReal sums them from the file).
  EXPECT_NEAR(kernels[0].time_s, 23.031098e-3, 1e-10);
  ASSERT_EQ(notes.size(), 2u);  // every launch is timed: no note about the trace
  EXPECT_EQ(notes[0], "earlier note");
  EXPECT_NE(notes.back().find(fixture("nvprof-metrics-matrixmul.csv") + ": read as"),
            std::string::npos)
      << notes.back();
}

TEST(ImportBackend, AMissingFileCannotBeRead) {
  rooftop::testing::TempDir dir;
  const std::string missing = dir.file("missing.csv");
  ImportBackend backend(missing);
  std::vector<std::string> notes;
  const std::string e = error_of([&] { backend.collect(notes); });
  EXPECT_EQ(e, missing + ": cannot read (No such file or directory)");
  ImportBackend timing(fixture("nvprof-metrics-matrixmul.csv"), dir.path().string());
  const std::string d = error_of([&] { timing.collect(notes); });
  EXPECT_EQ(d, dir.path().string() + ": cannot read (a directory)");
}

// `import /dev/zero` once read without end; a named pipe without a writer blocked.
TEST(ImportBackend, NoRegularFileNoRead) {
  std::vector<std::string> notes;
  ImportBackend endless("/dev/zero");
  EXPECT_EQ(error_of([&] { endless.collect(notes); }),
            "/dev/zero: cannot read (not a regular file: a pipe, device or socket)");
  rooftop::testing::TempDir dir;
  const std::string big = dir.file("big.csv");
  rooftop::testing::write_bytes(big, "");
  std::filesystem::resize_file(big, (256 << 20) + 1);
  ImportBackend over(big);
  EXPECT_EQ(error_of([&] { over.collect(notes); }),
            big + ": more than the 256 MiB a profiler report may have; not read");
}

}  // namespace
}  // namespace rooftop::analyze
