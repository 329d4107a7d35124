// The Kokkos Tools connector without Kokkos and without a GPU: the profile file (written,
// read back, malformed input, atomic writes), the C entry points of
// librooftop_kokkos_connector.so as Kokkos calls them, and the library loaded into an
// unmodified Kokkos program. The kernel tracker and the CUPTI metric math have files of
// their own (test_kernel_tracker.cpp, test_cupti_metrics.cpp).

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "connector_support.hpp"
#include "rooftop/connector/kernel_tracker.hpp"
#include "rooftop/connector/profile_file.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "support.hpp"

extern "C" {
struct Kokkos_Profiling_KokkosPDeviceInfo {
  std::size_t deviceID;
};
void kokkosp_init_library(int, std::uint64_t, std::uint32_t, Kokkos_Profiling_KokkosPDeviceInfo*);
void kokkosp_finalize_library();
void kokkosp_begin_parallel_for(const char*, std::uint32_t, std::uint64_t*);
void kokkosp_end_parallel_for(std::uint64_t);
void kokkosp_begin_parallel_reduce(const char*, std::uint32_t, std::uint64_t*);
void kokkosp_end_parallel_reduce(std::uint64_t);
void kokkosp_begin_parallel_scan(const char*, std::uint32_t, std::uint64_t*);
void kokkosp_end_parallel_scan(std::uint64_t);
}

namespace rooftop::connector {
namespace {

using core::KernelRecord;
using namespace rooftop::connector::testing;
using rooftop::testing::error_of;

// ------------------------------------------------------------------------------------
// The profile file

LabelStats timed_label() {
  LabelStats s;
  s.label = "gpp::v3_team_size";
  s.kinds = {"parallel_reduce"};
  s.spaces = {"OpenMP"};
  s.invocations = 4;
  s.total_s = 0.4;
  s.min_s = 0.09;
  s.max_s = 0.11;
  return s;
}

TEST(ProfileFile, TimingOnlyRecord) {
  LabelStats s = timed_label();
  s.unfinished = 1;
  s.max_depth = 1;
  const KernelRecord r = to_record(s, 2);
  EXPECT_EQ(r.name, "gpp::v3_team_size");
  EXPECT_EQ(r.id, "k3");
  EXPECT_EQ(r.group, "");  // a program's kernels are no ladder
  EXPECT_EQ(r.order, 2);
  EXPECT_EQ(r.source, "kokkos-tools-timing");
  EXPECT_EQ(r.invocations, 4);
  EXPECT_EQ(r.samples, 4);
  EXPECT_DOUBLE_EQ(r.time_s, 0.4);
  EXPECT_DOUBLE_EQ(r.time_min, 0.09);
  EXPECT_DOUBLE_EQ(r.time_max, 0.11);
  EXPECT_TRUE(contains(r.time_source, "sum of 4 invocations")) << r.time_source;
  EXPECT_DOUBLE_EQ(r.flops(), 0.0);
  EXPECT_TRUE(r.bytes.empty());
  EXPECT_TRUE(contains(r.note, "1 invocation begun and never ended")) << r.note;
  EXPECT_TRUE(contains(r.note, "times are inclusive")) << r.note;
}

TEST(ProfileFile, CountedRecordUsesTheGpuDuration) {
  LabelStats s = timed_label();
  s.spaces = {"Cuda"};
  s.counters = hopper_range();
  s.counted_invocations = 4;
  const KernelRecord r = to_record(s, 0);
  EXPECT_EQ(r.source, "cupti");
  EXPECT_DOUBLE_EQ(r.flops_fp64, 550.0);
  EXPECT_DOUBLE_EQ(bytes_at(r, "dram"), 300.0);
  EXPECT_DOUBLE_EQ(r.time_s, 1.5e-6);  // gpu__time_duration.sum, not the replayed wall clock
  EXPECT_TRUE(contains(r.time_source, "gpu__time_duration.sum")) << r.time_source;
  EXPECT_TRUE(contains(r.note, "wall clock with profiling 0.4 s")) << r.note;

  s.counted_invocations = 3;  // counters missing for one: keep the wall clock, say so
  const KernelRecord partial = to_record(s, 0);
  EXPECT_DOUBLE_EQ(partial.time_s, 0.4);
  EXPECT_TRUE(contains(partial.note, "counters cover 3 of 4 invocations")) << partial.note;
}

TEST(ProfileFile, TextRoundTrip) {
  ProfileHeader h;
  h.kokkos_interface_version = 20211015;
  h.pid = 42;
  h.notes = {"times only"};
  LabelStats counted = timed_label();
  counted.label = "daxpy \"quoted\"\tand tabbed";
  counted.counters = hopper_range();
  counted.counted_invocations = 4;
  const std::string text = profile_text(h, {timed_label(), counted});
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
  EXPECT_EQ(text.rfind("{\"format\":\"rooftop-kokkos-profile\",\"version\":\"1.1\"", 0), 0u)
      << text.substr(0, 80);

  const Profile p = parse_profile(text, "mem.jsonl");
  EXPECT_EQ(p.version, "1.1");
  EXPECT_EQ(p.source, "kokkos-tools-timing");
  EXPECT_EQ(p.notes, std::vector<std::string>{"times only"});
  ASSERT_EQ(p.kernels.size(), 2u);
  const KernelRecord& a = p.kernels[0];
  EXPECT_EQ(a.name, "gpp::v3_team_size");
  EXPECT_EQ(a.id, "k1");
  EXPECT_EQ(a.invocations, 4);
  EXPECT_DOUBLE_EQ(a.time_s, 0.4);
  EXPECT_DOUBLE_EQ(a.fma_fraction, -1.0);
  const KernelRecord& b = p.kernels[1];
  EXPECT_EQ(b.name, "daxpy \"quoted\"\tand tabbed");
  EXPECT_EQ(b.source, "cupti");
  EXPECT_DOUBLE_EQ(b.flops_fp64, 550.0);
  EXPECT_DOUBLE_EQ(b.flops_fp32, 50.0);
  EXPECT_DOUBLE_EQ(b.fma_fraction, 440.0 / 600.0);
  EXPECT_EQ(b.precision, "fp64");
  EXPECT_DOUBLE_EQ(b.tensor_instructions, 7.0);
  ASSERT_EQ(b.bytes.size(), 3u);
  EXPECT_EQ(b.bytes[0].level, "l1");  // in the order written
  EXPECT_EQ(b.bytes[2].level, "dram");
  EXPECT_DOUBLE_EQ(bytes_at(b, "l2"), 800.0);
  EXPECT_DOUBLE_EQ(b.time_s, 1.5e-6);
}

TEST(ProfileFile, ReaderIgnoresUnknownKeysAndBlankLines) {
  const std::string text =
      "{\"format\":\"rooftop-kokkos-profile\",\"version\":\"1.7\",\"source\":\"cupti\",\"new\":1}\n"
      "\n"
      "{\"name\":\"k\",\"time_s\":0.5,\"bytes\":{\"dram\":64},\"someday\":[1,2]}\n";
  const Profile p = parse_profile(text, "f");
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].name, "k");
  EXPECT_EQ(p.kernels[0].source, "cupti");  // the header's, where a record has none
  EXPECT_EQ(p.kernels[0].id, "k1");
  EXPECT_DOUBLE_EQ(bytes_at(p.kernels[0], "dram"), 64.0);
}

TEST(ProfileFile, MalformedInputIsRejectedWithFileAndLine) {
  const std::string header = "{\"format\":\"rooftop-kokkos-profile\",\"version\":\"1.0\"}\n";
  EXPECT_TRUE(contains(error_of([] { parse_profile("", "p.jsonl"); }), "p.jsonl:1: empty profile"));
  EXPECT_TRUE(contains(error_of([] { parse_profile("{\"x\":1}\n", "p.jsonl"); }),
                       "p.jsonl:1: not a rooftop Kokkos profile"));
  EXPECT_TRUE(contains(
      error_of([] {
        parse_profile("{\"format\":\"rooftop-kokkos-profile\",\"version\":\"2.0\"}\n", "p.jsonl");
      }),
      "p.jsonl:1: profile format version 2.0 is not supported"));
  EXPECT_TRUE(contains(error_of([&] { parse_profile(header + "{oops\n", "p.jsonl"); }),
                       "p.jsonl:2: not JSON"));
  EXPECT_TRUE(contains(error_of([&] { parse_profile(header + "[1]\n", "p.jsonl"); }),
                       "p.jsonl:2: not a JSON object"));
  EXPECT_TRUE(contains(error_of([&] { parse_profile(header + "{\"time_s\":1}\n", "p.jsonl"); }),
                       "p.jsonl:2: kernel without a \"name\""));
  EXPECT_TRUE(contains(error_of([&] {
                         parse_profile(header + "{\"name\":\"k\",\"time_s\":\"slow\"}\n",
                                       "p.jsonl");
                       }),
                       "p.jsonl:2: \"time_s\" has the wrong type"));
  EXPECT_TRUE(contains(error_of([&] {
                         parse_profile(header + "{\"name\":\"k\",\"bytes\":{\"l1\":\"x\"}}\n",
                                       "p.jsonl");
                       }),
                       "p.jsonl:2: bytes \"l1\" is not a number"));
}

using rooftop::testing::TempDir;

TEST(ProfileFile, WriteIsAtomicAndReadable) {
  TempDir dir;
  const std::string path = dir.file("profile.jsonl");
  write_profile(path, ProfileHeader{}, {timed_label()});
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"profile.jsonl"});  // no temporary left
  const Profile p = read_profile(path);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].name, "gpp::v3_team_size");
  EXPECT_TRUE(contains(error_of([&] { write_profile(dir.file("no/such/dir/p.jsonl"), {}, {}); }),
                       "no/such/dir/p.jsonl: cannot write"));
  EXPECT_TRUE(contains(error_of([&] { read_profile(dir.file("missing.jsonl")); }),
                       "missing.jsonl: cannot read"));
}

// A link planted at the temporary name the connector once used (<out>.tmp<pid>) is never
// followed: the profile is written as every rooftop output, under a fresh random name.
TEST(ProfileFile, ALinkAtTheTemporaryNameIsNotFollowed) {
  TempDir dir;
  const std::string path = dir.file("profile.jsonl");
  const std::string victim = dir.file("victim.txt");
  rooftop::testing::write_bytes(victim, "precious");
  const std::string planted = path + ".tmp" + std::to_string(getpid());
  ASSERT_EQ(symlink(victim.c_str(), planted.c_str()), 0);
  write_profile(path, ProfileHeader{}, {timed_label()});
  EXPECT_EQ(read_profile(path).kernels.size(), 1u);
  EXPECT_EQ(rooftop::testing::read_bytes(victim), "precious");
}

// ------------------------------------------------------------------------------------
// The C entry points, as Kokkos calls them (the shared library's own session)

class ConnectorEntryPoints : public ::testing::Test {
 protected:
  void SetUp() override { setenv("ROOFTOP_PROFILE_OUT", out.c_str(), 1); }
  void TearDown() override { unsetenv("ROOFTOP_PROFILE_OUT"); }
  TempDir dir;
  std::string out = dir.file("app.jsonl");
};

TEST_F(ConnectorEntryPoints, FakeKokkosRunIsWrittenAtFinalize) {
  kokkosp_init_library(0, 20211015, 0, nullptr);
  std::uint64_t id = 0, outer = 0, inner = 0, lost = 0;
  for (int i = 0; i < 3; ++i) {
    kokkosp_begin_parallel_for("axpy", kOpenMP, &id);
    EXPECT_NE(id, 0u);
    kokkosp_end_parallel_for(id);
  }
  kokkosp_begin_parallel_reduce("dot", kOpenMP, &outer);
  kokkosp_begin_parallel_scan("prefix", kOpenMP, &inner);  // nested inside "dot"
  kokkosp_end_parallel_scan(inner);
  kokkosp_end_parallel_reduce(outer);
  kokkosp_begin_parallel_for("never_ends", kOpenMP, &lost);
  kokkosp_end_parallel_for(999999);  // a stray end
  kokkosp_finalize_library();

  const Profile p = read_profile(out);
  EXPECT_EQ(p.source, "kokkos-tools-timing");
  ASSERT_EQ(p.kernels.size(), 4u);
  EXPECT_EQ(p.kernels[0].name, "axpy");
  EXPECT_EQ(p.kernels[0].invocations, 3);
  EXPECT_GE(p.kernels[0].time_s, 0.0);
  EXPECT_LE(p.kernels[0].time_min, p.kernels[0].time_max);
  EXPECT_EQ(p.kernels[1].name, "dot");
  EXPECT_EQ(p.kernels[1].invocations, 1);
  EXPECT_EQ(p.kernels[2].name, "prefix");
  EXPECT_TRUE(contains(p.kernels[2].note, "depth 1")) << p.kernels[2].note;
  EXPECT_EQ(p.kernels[3].name, "never_ends");
  EXPECT_EQ(p.kernels[3].invocations, 0);
  EXPECT_TRUE(contains(p.kernels[3].note, "1 invocation begun and never ended"))
      << p.kernels[3].note;
  for (const KernelRecord& k : p.kernels) EXPECT_EQ(k.source, "kokkos-tools-timing");

  std::ifstream in(out);
  std::string header;
  std::getline(in, header);
  EXPECT_TRUE(contains(header, "\"stray_ends\":1")) << header;
  EXPECT_TRUE(contains(header, "\"kokkos_interface_version\":20211015")) << header;
}

TEST_F(ConnectorEntryPoints, EachInitStartsAFreshSession) {
  std::uint64_t id = 0;
  kokkosp_init_library(0, 20211015, 0, nullptr);
  kokkosp_begin_parallel_for("first_run", kSerial, &id);
  kokkosp_end_parallel_for(id);
  kokkosp_finalize_library();
  kokkosp_init_library(0, 20211015, 0, nullptr);
  kokkosp_begin_parallel_for("second_run", kSerial, &id);
  kokkosp_end_parallel_for(id);
  kokkosp_finalize_library();
  const Profile p = read_profile(out);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].name, "second_run");
  kokkosp_finalize_library();  // a second finalize writes nothing and does not crash
  EXPECT_EQ(read_profile(out).kernels.size(), 1u);
}

TEST_F(ConnectorEntryPoints, UnwritableOutputIsReportedNotThrown) {
  setenv("ROOFTOP_PROFILE_OUT", dir.file("no/such/dir/app.jsonl").c_str(), 1);
  std::uint64_t id = 0;
  kokkosp_init_library(0, 20211015, 0, nullptr);
  kokkosp_begin_parallel_for("k", kSerial, &id);
  kokkosp_end_parallel_for(id);
  ::testing::internal::CaptureStderr();
  kokkosp_finalize_library();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(contains(err, "rooftop connector: kokkosp_finalize_library:")) << err;
  EXPECT_TRUE(contains(err, "cannot write")) << err;
}

TEST_F(ConnectorEntryPoints, WithoutAnOutputFileATableGoesToStderr) {
  unsetenv("ROOFTOP_PROFILE_OUT");
  std::uint64_t id = 0;
  kokkosp_init_library(0, 20211015, 0, nullptr);
  kokkosp_begin_parallel_for("visible_kernel", kSerial, &id);
  kokkosp_end_parallel_for(id);
  ::testing::internal::CaptureStderr();
  kokkosp_finalize_library();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(contains(err, "visible_kernel")) << err;
  EXPECT_TRUE(contains(err, "ROOFTOP_PROFILE_OUT")) << err;
}

// ------------------------------------------------------------------------------------
// Loaded into an unmodified Kokkos program, as a user loads it

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

TEST(ConnectorLibrary, ReportsEveryLabelledKernelOfAKokkosProgram) {
  TempDir dir;
  const std::string out = dir.file("app.jsonl");
  const std::string command =
      "KOKKOS_TOOLS_LIBS=" + quoted(ROOFTOP_CONNECTOR_LIBRARY) +  // the app's Kokkos is >= 4.5
      " ROOFTOP_PROFILE_OUT=" + quoted(out) + " OMP_NUM_THREADS=2 OMP_PROC_BIND=false " +
      quoted(ROOFTOP_CONNECTOR_APP) + " > " + quoted(dir.file("log")) + " 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const Profile p = read_profile(out);
  const auto find = [&](const std::string& name) -> const KernelRecord* {
    for (const KernelRecord& k : p.kernels)
      if (k.name == name) return &k;
    return nullptr;
  };
  const KernelRecord* axpy = find("app::axpy");
  const KernelRecord* dot = find("app::dot");
  const KernelRecord* prefix = find("app::prefix");
  ASSERT_TRUE(axpy && dot && prefix) << p.kernels.size() << " kernels";
  EXPECT_EQ(axpy->invocations, 3);
  EXPECT_EQ(dot->invocations, 1);
  EXPECT_EQ(prefix->invocations, 1);
  EXPECT_GT(axpy->time_s, 0.0);
  EXPECT_LE(axpy->time_min, axpy->time_max);
  EXPECT_LT(axpy->order, dot->order);  // in launch order
  EXPECT_LT(dot->order, prefix->order);
  for (const KernelRecord& k : p.kernels) {
    EXPECT_FALSE(contains(k.note, "never ended")) << k.name << ": " << k.note;
    EXPECT_EQ(k.group, "");
  }
}

}  // namespace
}  // namespace rooftop::connector
