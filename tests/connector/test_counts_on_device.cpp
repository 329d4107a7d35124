// On a GPU (label device, ROOFTOP_DEVICE_TESTS with CUPTI): counts that a reader can
// work out by hand. connector_app's axpy, y(i) += 2.0 * x(i) + 1.0 over 2^16 elements,
// is three FP64 FLOPs per element (an FMA and an add, or a multiply and two adds) in
// each of its three launches, with CUPTI starting after Kokkos loaded its modules; and
// the cupti backend's counts of the reference kernels equal their declared FLOPs.

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <string>
#include <vector>

#include "rooftop/analyze/cupti_backend.hpp"
#include "rooftop/connector/profile_file.hpp"
#include "rooftop/kernels/kernel.hpp"
#include "support.hpp"

namespace rooftop {
namespace {

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The build's paths, unless the environment names others (a bundle unpacked elsewhere).
std::string path_of(const char* variable, const char* built) {
  const char* given = std::getenv(variable);
  return given && *given ? given : built;
}

TEST(CountsOnDevice, ConnectorCountsAxpyExactly) {
  testing::TempDir dir;
  const std::string out = dir.file("app.jsonl");
  const std::string command =
      "KOKKOS_TOOLS_LIBS=" +
      quoted(path_of("ROOFTOP_CONNECTOR_LIBRARY", ROOFTOP_CONNECTOR_LIBRARY)) +
      " ROOFTOP_PROFILE_OUT=" + quoted(out) + " " +
      quoted(path_of("ROOFTOP_CONNECTOR_APP", ROOFTOP_CONNECTOR_APP)) + " > " +
                              quoted(dir.file("log")) + " 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << testing::read_bytes(dir.file("log"));
  const connector::Profile p = connector::parse_profile(testing::read_bytes(out), out);
  ASSERT_EQ(p.source, "cupti") << testing::read_bytes(out);
  const core::KernelRecord* axpy = nullptr;
  for (const core::KernelRecord& k : p.kernels)
    if (k.name == "app::axpy") axpy = &k;
  ASSERT_TRUE(axpy);
  EXPECT_EQ(axpy->invocations, 3);
  EXPECT_EQ(axpy->flops_fp64, 3.0 * 3.0 * 65536) << axpy->note;
  std::string notes;
  for (const std::string& n : p.notes) notes += n + "\n";
  EXPECT_NE(notes.find("CUPTI profiler set up 1 times"), std::string::npos) << notes;
}

TEST(CountsOnDevice, CuptiBackendCountsTheDeclaredFlops) {
  kernels::KernelList list = kernels::make_kernels({"triad", "polynomial", "stencil"}, "tiny");
  std::vector<double> declared;
  for (const auto& k : list) declared.push_back(k->declared().flops());
  core::Sampling quick;
  quick.samples = 1;
  quick.min_sample_seconds = 0.001;
  auto backend = analyze::make_cupti_backend(std::move(list), quick);
  std::vector<std::string> notes;
  const std::vector<core::KernelRecord> records = backend->collect(notes);
  ASSERT_EQ(records.size(), declared.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].check, "passed") << records[i].name;
    EXPECT_EQ(records[i].flops(), declared[i]) << records[i].name << ": " << records[i].note;
  }
}

}  // namespace
}  // namespace rooftop

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
