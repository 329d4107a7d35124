// rooftop_ceilings: the ceilings file (round trip, atomic writes, what is refused and
// why, files of older minor versions). No Kokkos here: files are built from plain values.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "h5_files.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/model.hpp"
#include "rooftop/core/output_file.hpp"
#include "support.hpp"

namespace rooftop::ceilings {
namespace {

using core::check_writable;
using core::write_text_file;

using rooftop::testing::TempDir;

using rooftop::testing::error_of;
using rooftop::testing::expect_same_ceiling;
using rooftop::testing::expect_same_machine;

// HDF5: round trip and atomic writes

TEST(CeilingsFileIo, RoundTripKeepsEveryField) {
  TempDir dir;
  const core::CeilingsFile original = rooftop::testing::sample_ceilings_file();
  const std::string path = dir.file("c.h5");
  write_file(path, original);
  const core::CeilingsFile back = read_file(path);

  const core::Provenance& p = back.provenance;
  EXPECT_EQ(p.schema_version, std::to_string(kSchemaMajor) + "." + std::to_string(kSchemaMinor));
  EXPECT_EQ(p.tool_version, original.provenance.tool_version);
  EXPECT_EQ(p.git_revision, original.provenance.git_revision);
  EXPECT_EQ(p.created_utc, original.provenance.created_utc);
  EXPECT_EQ(p.command_line, original.provenance.command_line);
  expect_same_machine(back.machine, original.machine);

  ASSERT_EQ(back.ceilings.size(), original.ceilings.size());
  for (std::size_t i = 0; i < original.ceilings.size(); ++i)
    expect_same_ceiling(back.ceilings[i], original.ceilings[i]);
  EXPECT_TRUE(back.ceilings[0].theoretical.has_value());
  EXPECT_FALSE(back.ceilings[1].theoretical.has_value());

  ASSERT_EQ(back.sweeps.compute.size(), original.sweeps.compute.size());
  for (std::size_t i = 0; i < original.sweeps.compute.size(); ++i) {
    SCOPED_TRACE("compute point " + std::to_string(i));
    const core::ComputePoint& a = back.sweeps.compute[i];
    const core::ComputePoint& b = original.sweeps.compute[i];
    EXPECT_EQ(a.precision, b.precision);
    EXPECT_EQ(a.mode, b.mode);
    EXPECT_EQ(a.flops_per_element, b.flops_per_element);
    EXPECT_EQ(a.mul_add_ratio, b.mul_add_ratio);
    EXPECT_EQ(a.ilp, b.ilp);
    EXPECT_EQ(a.working_set_bytes, b.working_set_bytes);
    EXPECT_EQ(a.seconds, b.seconds);
    EXPECT_EQ(a.values, b.values);
    EXPECT_EQ(a.clock_ghz, b.clock_ghz);
  }
  ASSERT_EQ(back.sweeps.bandwidth.size(), original.sweeps.bandwidth.size());
  for (std::size_t i = 0; i < original.sweeps.bandwidth.size(); ++i) {
    SCOPED_TRACE("bandwidth point " + std::to_string(i));
    const core::BandwidthPoint& a = back.sweeps.bandwidth[i];
    const core::BandwidthPoint& b = original.sweeps.bandwidth[i];
    EXPECT_EQ(a.pattern, b.pattern);
    EXPECT_EQ(a.working_set_bytes, b.working_set_bytes);
    EXPECT_EQ(a.seconds, b.seconds);
    EXPECT_EQ(a.values, b.values);
    EXPECT_EQ(a.clock_ghz, b.clock_ghz);
  }
}

// Two kernel records as the analyzer writes them: every field set, one with three
// levels of bytes, one imported with no time and an unknown FMA fraction.
std::vector<core::KernelRecord> sample_kernels() {
  core::KernelRecord a;
  a.name = "gpp::v9_cache_blocking";
  a.id = "v9";
  a.group = "gpp";
  a.order = 8;
  a.description = "G in blocks, every G' of a block before the next";
  a.source = "declared";
  a.precision = "fp64";
  a.flops_fp64 = 4.33e10;
  a.flops_fp32 = 1.5;
  a.flops_fp16 = 0.25;
  a.fma_fraction = 0.515;
  a.tensor_instructions = 7.0;
  a.tensor_ops = {{"tc_fp16", 1.375e11}, {"tc_int8", 3.0}};
  a.bytes = {{"l1", 1e12}, {"l2", 3e11}, {"dram", 1.4e8}};
  a.time_s = 0.75;
  a.time_min = 0.74;
  a.time_max = 0.8;
  a.samples = 5;
  a.invocations = 1;
  a.time_source = "wall clock, fenced, median of 5 samples";
  a.check = "passed";
  a.note = "size small";
  a.limiter = "fp64_fma";
  a.attainable_gflop_per_s = 110.0;
  a.fraction_of_roof = 0.52;
  a.above = "";
  core::KernelRecord b;
  b.name = std::string(300, 'k');  // longer than the field: kept as its head
  b.id = "k1";
  b.group = "import";
  b.source = "ncu-import";
  b.bytes = {{"dram", 64.0}};
  b.above = "dram,l2";
  return {a, b};
}

TEST(CeilingsFileIo, KernelsRoundTrip) {
  TempDir dir;
  core::CeilingsFile original = rooftop::testing::sample_ceilings_file();
  original.kernels = sample_kernels();
  const std::string path = dir.file("k.h5");
  write_file(path, original);
  const core::CeilingsFile back = read_file(path);
  ASSERT_EQ(back.kernels.size(), 2u);
  const core::KernelRecord& a = back.kernels[0];
  const core::KernelRecord& x = original.kernels[0];
  EXPECT_EQ(a.name, x.name);
  EXPECT_EQ(a.id, x.id);
  EXPECT_EQ(a.group, x.group);
  EXPECT_EQ(a.order, x.order);
  EXPECT_EQ(a.description, x.description);
  EXPECT_EQ(a.source, x.source);
  EXPECT_EQ(a.precision, x.precision);
  EXPECT_EQ(a.flops_fp64, x.flops_fp64);
  EXPECT_EQ(a.flops_fp32, x.flops_fp32);
  EXPECT_EQ(a.flops_fp16, x.flops_fp16);
  EXPECT_EQ(a.fma_fraction, x.fma_fraction);
  EXPECT_EQ(a.tensor_instructions, x.tensor_instructions);
  ASSERT_EQ(a.tensor_ops.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(a.tensor_ops[i].figure, x.tensor_ops[i].figure);
    EXPECT_EQ(a.tensor_ops[i].ops, x.tensor_ops[i].ops);
  }
  ASSERT_EQ(a.bytes.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(a.bytes[i].level, x.bytes[i].level);
    EXPECT_EQ(a.bytes[i].bytes, x.bytes[i].bytes);
  }
  EXPECT_EQ(a.time_s, x.time_s);
  EXPECT_EQ(a.time_min, x.time_min);
  EXPECT_EQ(a.time_max, x.time_max);
  EXPECT_EQ(a.samples, x.samples);
  EXPECT_EQ(a.invocations, x.invocations);
  EXPECT_EQ(a.time_source, x.time_source);
  EXPECT_EQ(a.check, x.check);
  EXPECT_EQ(a.note, x.note);
  EXPECT_EQ(a.limiter, x.limiter);
  EXPECT_EQ(a.attainable_gflop_per_s, x.attainable_gflop_per_s);
  EXPECT_EQ(a.fraction_of_roof, x.fraction_of_roof);

  const core::KernelRecord& b = back.kernels[1];
  EXPECT_EQ(b.name, std::string(255, 'k'));
  EXPECT_LT(b.fma_fraction, 0.0) << "unknown stays unknown";
  EXPECT_EQ(b.time_s, 0.0);
  EXPECT_EQ(b.above, "dram,l2");
  ASSERT_EQ(b.bytes.size(), 1u);
  EXPECT_EQ(b.bytes[0].level, "dram");
  EXPECT_TRUE(b.tensor_ops.empty());
}

TEST(CeilingsFileIo, KernelsWithoutTensorOpsWriteNoTensorOpsTable) {
  // A file whose kernels ran no matrix unit is laid out as before schema 1.7's table.
  TempDir dir;
  core::CeilingsFile original = rooftop::testing::sample_ceilings_file();
  original.kernels = sample_kernels();
  original.kernels[0].tensor_ops.clear();
  const std::string path = dir.file("k.h5");
  write_file(path, original);
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  EXPECT_EQ(H5Lexists(f, "kernels/tensor_ops", H5P_DEFAULT), 0);
  H5Fclose(f);
  EXPECT_TRUE(read_file(path).kernels[0].tensor_ops.empty());
}

TEST(CeilingsFileIo, TensorOpsOfAnUnknownUnitOrNegativeAreRefused) {
  TempDir dir;
  for (const core::TensorOps& bad :
       {core::TensorOps{"tc_fp4", 1.0}, core::TensorOps{"fp32_fma", 1.0},
        core::TensorOps{"tc_fp16", -1.0}}) {
    core::CeilingsFile original = rooftop::testing::sample_ceilings_file();
    original.kernels = sample_kernels();
    original.kernels[1].tensor_ops = {bad};
    EXPECT_THROW(write_file(dir.file("bad.h5"), original), rooftop::Error)
        << bad.figure << " " << bad.ops;
  }
}

TEST(CeilingsFileIo, FileWithoutKernelsHasNoKernelsGroup) {
  TempDir dir;
  const std::string path = dir.file("c.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  EXPECT_TRUE(read_file(path).kernels.empty());
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  EXPECT_EQ(H5Lexists(f, "kernels", H5P_DEFAULT), 0);
  H5Fclose(f);
}

// A file without a ceiling is of no use to any reader: not written (and not read).
TEST(CeilingsFileIo, FileWithoutCeilingsIsNotWritten) {
  TempDir dir;
  core::CeilingsFile empty;
  const std::string path = dir.file("empty.h5");
  const std::string msg = error_of([&] { write_file(path, empty); });
  EXPECT_NE(msg.find(path + ": not written: /ceilings: no ceilings"), std::string::npos) << msg;
  EXPECT_TRUE(dir.entries().empty());
}

TEST(CeilingsFileIo, WriteLeavesOnlyTheDestinationInTheDirectory) {
  TempDir dir;
  write_file(dir.file("c.h5"), rooftop::testing::sample_ceilings_file());
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"c.h5"});
}

TEST(CeilingsFileIo, WriteReplacesAnExistingFile) {
  TempDir dir;
  const std::string path = dir.file("c.h5");
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  write_file(path, f);
  f.machine.hostname = "second-write";
  write_file(path, f);
  EXPECT_EQ(read_file(path).machine.hostname, "second-write");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"c.h5"});
}

TEST(CeilingsFileIo, WriteIntoMissingDirectoryThrowsAndLeavesNothing) {
  TempDir dir;
  const std::string path = (dir.path() / "no-such-dir" / "c.h5").string();
  const std::string msg =
      error_of([&] { write_file(path, rooftop::testing::sample_ceilings_file()); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_TRUE(dir.entries().empty());
}

TEST(CeilingsFileIo, FailedWriteKeepsTheExistingFile) {
  TempDir dir;
  const std::string path = dir.file("c.h5");
  core::CeilingsFile good = rooftop::testing::sample_ceilings_file();
  good.machine.hostname = "the-original";
  write_file(path, good);
  const std::string before = rooftop::testing::read_bytes(path);

  core::CeilingsFile bad = good;
  bad.machine.hostname = "the-replacement";
  bad.ceilings[0].name = std::string(40, 'x');  // the name field holds 31 characters
  const std::string msg = error_of([&] { write_file(path, bad); });
  EXPECT_NE(msg.find("name"), std::string::npos) << msg;

  EXPECT_EQ(rooftop::testing::read_bytes(path), before);
  EXPECT_EQ(read_file(path).machine.hostname, "the-original");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"c.h5"}) << "temporary file left behind";
}

TEST(CheckWritable, AcceptsAWritableDirectoryAndLeavesNothing) {
  TempDir dir;
  EXPECT_NO_THROW(check_writable(dir.file("later.h5")));
  EXPECT_TRUE(dir.entries().empty());
}

TEST(CheckWritable, RejectsAMissingDirectoryNamingThePath) {
  TempDir dir;
  const std::string path = (dir.path() / "no-such-dir" / "later.h5").string();
  const std::string msg = error_of([&] { check_writable(path); });
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
}

// ---------------------------------------------------------------------------------------
// HDF5: rejection of files that are not ours or not readable

// read_file must throw rooftop::Error with one line naming the file and the reason.
void expect_rejected(const std::string& path, const std::string& reason) {
  const std::string msg = error_of([&] { read_file(path); });
  EXPECT_NE(msg.find(path), std::string::npos) << "message does not name the file: " << msg;
  EXPECT_NE(msg.find(reason), std::string::npos) << "message does not say why: " << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << "more than one line: " << msg;
}

TEST(CeilingsFileRejection, MissingFile) {
  TempDir dir;
  expect_rejected(dir.file("missing.h5"), "no such file");
}

TEST(CeilingsFileRejection, Directory) {
  TempDir dir;
  expect_rejected(dir.path().string(), "not a regular file");
}

TEST(CeilingsFileRejection, RandomBytes) {
  TempDir dir;
  const std::string path = dir.file("noise.h5");
  rooftop::testing::write_random_bytes(path, 4096);
  expect_rejected(path, "not an HDF5 file");
}

TEST(CeilingsFileRejection, TruncatedCopyOfAValidFile) {
  TempDir dir;
  const std::string good = dir.file("good.h5");
  const std::string cut = dir.file("cut.h5");
  write_file(good, rooftop::testing::sample_ceilings_file());
  rooftop::testing::write_truncated_copy(good, cut, 0.5);
  expect_rejected(cut, "truncated");
}

TEST(CeilingsFileRejection, ForeignHdf5File) {
  TempDir dir;
  const std::string path = dir.file("foreign.h5");
  rooftop::testing::write_foreign_hdf5(path);
  expect_rejected(path, "not a rooftop ceilings file");
}

TEST(CeilingsFileRejection, UnknownMajorSchemaVersion) {
  TempDir dir;
  const std::string path = dir.file("future.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  rooftop::testing::rewrite_root_string_attr(path, "schema_version", "2.0");
  expect_rejected(path, "schema version 2.0");
  expect_rejected(path, "not supported");
}

TEST(CeilingsFileRejection, UnparsableSchemaVersion) {
  TempDir dir;
  const std::string path = dir.file("odd.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  rooftop::testing::rewrite_root_string_attr(path, "schema_version", "one");
  expect_rejected(path, "schema version");
}

TEST(CeilingsFileIo, FileWrittenBeforeTheLaterMachineAttributesIsRead) {
  TempDir dir;
  const std::string path = dir.file("early.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  rooftop::testing::delete_attr(path, "machine", "store_bytes_per_cycle");
  rooftop::testing::delete_attr(path, "machine", "hardware_model");
  core::CeilingsFile back;
  ASSERT_NO_THROW(back = read_file(path));
  EXPECT_EQ(back.machine.store_bytes_per_cycle, 0.0) << "unknown";
  EXPECT_TRUE(back.machine.hardware_model.empty());
  EXPECT_EQ(back.machine.cpu_model, "Test CPU 9000");
}

TEST(CeilingsFileIo, SchemaOneZeroExampleIsReadWithoutIlp) {
  core::CeilingsFile f;
  ASSERT_NO_THROW(f = read_file(std::string(ROOFTOP_DATA_DIR) + "/example-ceilings.h5"));
  EXPECT_EQ(f.provenance.schema_version, "1.0");
  ASSERT_FALSE(f.sweeps.compute.empty());
  for (const core::ComputePoint& p : f.sweeps.compute)
    EXPECT_EQ(p.ilp, 0) << "not recorded before 1.3";
}

TEST(CeilingsFileRejection, NewerMinorVersionIsStillRead) {
  TempDir dir;
  const std::string path = dir.file("newer.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  rooftop::testing::rewrite_root_string_attr(path, "schema_version", "1.7");
  core::CeilingsFile back;
  ASSERT_NO_THROW(back = read_file(path));
  EXPECT_EQ(back.provenance.schema_version, "1.7");
  EXPECT_EQ(back.ceilings.size(), 2u);
}

}  // namespace
}  // namespace rooftop::ceilings
