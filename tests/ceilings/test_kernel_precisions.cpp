// rooftop_ceilings: what schema 1.8 adds to /kernels (BF16 and FP8 FLOPs, bytes that count
// only reads or writes), written and read back, and a real 1.7 file still read as before.

#include <gtest/gtest.h>

#include <string>

#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/roofline.hpp"
#include "support.hpp"

namespace rooftop::ceilings {
namespace {

using rooftop::testing::TempDir;

TEST(KernelPrecisions, Bf16Fp8AndPartialBytesRoundTrip) {
  TempDir dir;
  core::CeilingsFile original = rooftop::testing::sample_ceilings_file();
  core::KernelRecord k;
  k.name = "flash_fwd_kernel";
  k.id = "k1";
  k.group = "import";
  k.source = "pytorch-import";
  k.precision = "bf16";
  k.flops_bf16 = 1.72e10;
  k.flops_fp8 = 3.5e9;
  k.flops_fp32 = 2.0;
  k.bytes = {{"dram", 4.5e7, "read"}, {"l2", 9.0e7, ""}};
  k.time_s = 4.9e-5;
  original.kernels = {k};
  const std::string path = dir.file("k.h5");
  write_file(path, original);
  const core::CeilingsFile back = read_file(path);
  EXPECT_EQ(back.provenance.schema_version, "1.8");
  ASSERT_EQ(back.kernels.size(), 1u);
  const core::KernelRecord& r = back.kernels[0];
  EXPECT_EQ(r.precision, "bf16");
  EXPECT_EQ(r.flops_bf16, 1.72e10);
  EXPECT_EQ(r.flops_fp8, 3.5e9);
  EXPECT_EQ(r.flops(), 1.72e10 + 3.5e9 + 2.0);
  ASSERT_EQ(r.bytes.size(), 2u);
  EXPECT_EQ(r.bytes[0].counted, "read");
  EXPECT_EQ(r.bytes[0].bytes, 4.5e7);
  EXPECT_TRUE(r.bytes[1].counted.empty());
}

TEST(KernelPrecisions, AnOlderFileReadsWithNoBf16FlopsAndWholeBytes) {
  // A real schema 1.7 kernels file (fixtures/README.md: the GPP ladder counted by CUPTI on
  // an H200): its rows have no flops_bf16, flops_fp8 or counted column, which read as 0 and
  // as bytes counted whole; its FP64 counts and placements are as written.
  const core::CeilingsFile f =
      read_file(std::string(ROOFTOP_TEST_FIXTURES) + "/h5/h200-gpp-small-cupti.h5");
  EXPECT_EQ(f.provenance.schema_version, "1.7");
  ASSERT_EQ(f.kernels.size(), 9u);
  for (const core::KernelRecord& k : f.kernels) {
    SCOPED_TRACE(k.name);
    EXPECT_EQ(k.flops_bf16, 0.0);
    EXPECT_EQ(k.flops_fp8, 0.0);
    EXPECT_GT(k.flops_fp64, 0.0);
    EXPECT_EQ(k.precision, "fp64");
    for (const core::LevelBytes& b : k.bytes) EXPECT_TRUE(b.counted.empty()) << b.level;
    EXPECT_EQ(core::place(k, f).limiter, k.limiter);
  }
}

TEST(KernelPrecisions, BytesCountedAsNeitherHalfAreRefused) {
  TempDir dir;
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  core::KernelRecord k;
  k.name = "k";
  k.id = "k1";
  k.bytes = {{"dram", 1.0, "reads"}};
  f.kernels = {k};
  const std::string e = rooftop::testing::error_of([&] { write_file(dir.file("x.h5"), f); });
  EXPECT_NE(e.find("bytes counted as \"reads\", not \"read\", \"write\" or \"minimum\""), std::string::npos)
      << e;
}

}  // namespace
}  // namespace rooftop::ceilings
