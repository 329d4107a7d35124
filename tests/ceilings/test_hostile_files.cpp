// Hostile input to rooftop_ceilings: damaged and implausible ceilings files, planted
// links, special paths, oversized input, terminal escapes. Every reproducer of a crash,
// hang or overwrite found by mutating inputs is kept here (fixtures under fixtures/h5).

#include <grp.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>

#include "h5_files.hpp"
#include "rooftop/ceilings/ert.hpp"
#include "rooftop/ceilings/export.hpp"
#include "rooftop/ceilings/fleet.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/ceilings/validate.hpp"
#include "rooftop/core/input_file.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/terminal.hpp"
#include "samples.hpp"
#include "support.hpp"

namespace rooftop::ceilings {
namespace {

using core::check_writable;
using core::write_text_file;

using rooftop::testing::error_of;
using rooftop::testing::TempDir;

const std::string kFixtures = ROOFTOP_TEST_FIXTURES;
const std::string kData = ROOFTOP_DATA_DIR;

void expect_read_fails(const std::string& path, const std::string& reason) {
  const std::string msg = error_of([&] { read_file(path); });
  EXPECT_EQ(msg.rfind(path + ": ", 0), 0u) << "message does not start with the file: " << msg;
  EXPECT_NE(msg.find(reason), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

// A one-byte change put a column of /sweeps/bandwidth outside its row; libhdf5 1.10's
// compound conversion read out of bounds and crashed.
TEST(HostileCeilingsFile, ColumnOutsideItsRowIsRejectedBeforeAnyRead) {
  expect_read_fails(kFixtures + "/h5/bandwidth-member-offset.h5",
                    "table 'bandwidth': column 4 lies outside its row");
}

// One byte changed in an old-format object header: libhdf5 1.10 crashes in H5Aexists
// (SIGSEGV) or reads freed memory and goes on, depending on what the process allocated
// before. Either way the read ends in one line naming the file, and this process lives.
TEST(HostileCeilingsFile, ObjectHeadersThatCrashLibhdf5EndInOneLine) {
  for (const char* name : {"object-header-segv-1.h5", "object-header-segv-2.h5"}) {
    const std::string path = kFixtures + "/h5/" + name;
    const std::string msg = error_of([&] { read_file(path); });
    EXPECT_EQ(msg.rfind(path + ": ", 0), 0u) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

// Sizes damaged in old-format files: the reader allocated them (4 GiB for one row, 2.3 GB
// for millions of sweep points) before HDF5 failed.
TEST(HostileCeilingsFile, ImplausibleTableSizesAreRefusedBeforeAllocating) {
  expect_read_fails(kFixtures + "/h5/caches-row-4gib.h5",
                    "table 'caches': rows of 4294967280 bytes, wider than the 64 KiB");
  expect_read_fails(kFixtures + "/h5/compute-sweep-rows-damaged.h5",
                    "table 'compute' has 7012352 rows, more than the 256 MiB");
}

// 5e-324 GB/s made the chart's axis loop run for ever.
TEST(HostileCeilingsFile, DenormalBandwidthIsRejected) {
  expect_read_fails(kFixtures + "/h5/bandwidth-denormal.h5", "is not a plausible rate");
}

TEST(HostileCeilingsFile, SweepPointWithoutAWorkingSetIsRejected) {
  expect_read_fails(kFixtures + "/h5/sweep-working-set-zero.h5",
                    "/sweeps/bandwidth point 0: working_set_bytes is 0");
}

// /ceilings rewritten with only a name column: the value was once shown as 0.0.
TEST(HostileCeilingsFile, AMissingColumnIsAnErrorNotZero) {
  TempDir dir;
  const std::string path = dir.file("no-value.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  ASSERT_GE(H5Ldelete(file, "ceilings", H5P_DEFAULT), 0);
  const hid_t name = H5Tcopy(H5T_C_S1);
  H5Tset_size(name, 32);
  const hid_t row = H5Tcreate(H5T_COMPOUND, 32);
  H5Tinsert(row, "name", 0, name);
  const hsize_t dims[1] = {1};
  const hid_t space = H5Screate_simple(1, dims, nullptr);
  const hid_t set = H5Dcreate2(file, "ceilings", row, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  char text[32] = "fp64_fma";
  EXPECT_GE(H5Dwrite(set, row, H5S_ALL, H5S_ALL, H5P_DEFAULT, text), 0);
  H5Dclose(set);
  H5Sclose(space);
  H5Tclose(row);
  H5Tclose(name);
  H5Fclose(file);
  expect_read_fails(path, "table 'ceilings' has no column 'kind'");
}

TEST(HostileCeilingsFile, SchemaVersionMustBeExactlyMajorDotMinor) {
  TempDir dir;
  const std::string path = dir.file("v.h5");
  for (const std::string& bad : {std::string("1.3.7"), std::string(" 1.3"), std::string("1.3 "),
                                 std::string("1.3\0junk", 8), std::string("1."), std::string(".3"),
                                 std::string("+1.3"), std::string("1.-3"), std::string("")}) {
    write_file(path, rooftop::testing::sample_ceilings_file());
    rooftop::testing::rewrite_root_string_attr(path, "schema_version", bad);
    const std::string msg = error_of([&] { read_file(path); });
    EXPECT_TRUE(msg.find("schema version") != std::string::npos ||
                msg.find("after a NUL") != std::string::npos)
        << "'" << bad << "' was accepted: " << msg;
  }
  write_file(path, rooftop::testing::sample_ceilings_file());
  rooftop::testing::rewrite_root_string_attr(path, "schema_version", "1.99");
  EXPECT_EQ(read_file(path).provenance.schema_version, "1.99");  // a newer minor is read
}

TEST(HostileCeilingsFile, NewFilesCarryMetadataChecksumsOldOnesStillRead) {
  TempDir dir;
  const std::string path = dir.file("new.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  // Superblock version 2 and later checksum the superblock and object headers.
  EXPECT_GE(static_cast<unsigned char>(rooftop::testing::read_bytes(path)[8]), 2);
  for (const char* old : {"/example-ceilings.h5", "/epyc-zen4-ceilings.h5", "/v100-ert.h5"}) {
    EXPECT_EQ(static_cast<unsigned char>(rooftop::testing::read_bytes(kData + old)[8]), 0);
    EXPECT_NO_THROW(read_file(kData + old)) << old;
  }
}

template <class T>
hid_t h5_type_of() {
  if constexpr (std::is_same_v<T, std::int64_t>)
    return H5T_NATIVE_INT64;
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    return H5T_NATIVE_UINT64;
  else
    return H5T_NATIVE_DOUBLE;
}

// Replaces attribute `name` of the group `group` with one number of T, as another tool
// (h5py, a script) might have stored it.
template <class T>
void rewrite_number_attr(const std::string& path, const char* group, const char* name, T value) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  const hid_t g = H5Gopen2(file, group, H5P_DEFAULT);
  ASSERT_GE(g, 0);
  ASSERT_GE(H5Adelete(g, name), 0) << name;
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attr = H5Acreate2(g, name, h5_type_of<T>(), space, H5P_DEFAULT, H5P_DEFAULT);
  EXPECT_GE(H5Awrite(attr, h5_type_of<T>(), &value), 0);
  H5Aclose(attr);
  H5Sclose(space);
  H5Gclose(g);
  H5Fclose(file);
}

// A sample file whose /machine attribute `name` holds `value` of T.
template <class T>
std::string machine_attr_file(const TempDir& dir, const char* name, T value) {
  const std::string path = dir.file(std::string(name) + ".h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  rewrite_number_attr(path, "machine", name, value);
  return path;
}

// 64-bit attributes were read into 32-bit fields by a cast: 4294967298 cores read as 2,
// INT64_MAX as -1 (then "negative"), INT64_MIN as 0; a fraction was cut to its whole part.
TEST(HostileCeilingsFile, IntegerAttributesAreReadWholeAndRefusedOutOfRange) {
  using I = std::int64_t;
  using U = std::uint64_t;
  TempDir dir;
  const auto refused = [&](const std::string& path, const std::string& field,
                           const std::string& value) {
    EXPECT_EQ(error_of([&] { read_file(path); }),
              path + ": /machine: attribute '" + field + "' is " + value + ", out of range");
  };
  refused(machine_attr_file(dir, "cores", I{4294967298}), "cores", "4294967298");
  refused(machine_attr_file(dir, "threads", std::numeric_limits<I>::max()), "threads",
          "9223372036854775807");
  refused(machine_attr_file(dir, "simd_bits", std::numeric_limits<I>::min()), "simd_bits",
          "-9223372036854775808");
  refused(machine_attr_file(dir, "fma_pipes", std::numeric_limits<U>::max()), "fma_pipes",
          "18446744073709551615");
  refused(machine_attr_file(dir, "load_ports", 2.5), "load_ports", "2.5");
  refused(machine_attr_file(dir, "hardware_threads", 1e20), "hardware_threads", "1e+20");
  refused(machine_attr_file(dir, "memory_bus_bits", std::nan("")), "memory_bus_bits", "nan");
  // memory_bytes is unsigned in memory, an int64 in the file.
  refused(machine_attr_file(dir, "memory_bytes", I{-1}), "memory_bytes", "-1");
  refused(machine_attr_file(dir, "memory_bytes", U{1} << 63), "memory_bytes",
          "9223372036854775808");
  // Whole numbers in range are read whatever their stored type.
  EXPECT_EQ(read_file(machine_attr_file(dir, "cores", U{64})).machine.cores, 64);
  EXPECT_EQ(read_file(machine_attr_file(dir, "cores", 48.0)).machine.cores, 48);
  EXPECT_EQ(read_file(machine_attr_file(dir, "cores", I{2147483647})).machine.cores, 2147483647);
  EXPECT_EQ(read_file(machine_attr_file(dir, "memory_bytes", std::numeric_limits<I>::max()))
                .machine.memory_bytes,
            std::uint64_t{9223372036854775807u});
}

TEST(HostileCeilingsFile, AFleetRankNumberIsReadWhole) {
  TempDir dir;
  const std::string path = dir.file("fleet.h5");
  write_fleet_file(path, rooftop::testing::sample_fleet());
  rewrite_number_attr(path, "ranks/0", "rank", std::int64_t{1} << 32);  // once read as rank 0
  EXPECT_EQ(error_of([&] { read_fleet_file(path); }),
            path + ": /ranks/0: attribute 'rank' is 4294967296, out of range");
  rewrite_number_attr(path, "ranks/0", "rank", std::uint64_t{0});
  EXPECT_EQ(read_fleet_file(path).ranks[0].rank, 0);
}

// /machine/caches rewritten with 64-bit or float columns: HDF5's conversion to the
// reader's 32-bit and unsigned members clamped what did not fit (4294967298 to 2^31 - 1,
// -1 bytes to 0) and cut fractions.
template <class Bytes, class SharedBy>
std::string wide_caches_file(const TempDir& dir, Bytes bytes, SharedBy shared_by) {
  struct Row {
    char level[16];
    Bytes bytes;
    SharedBy shared_by;
  };
  const std::string path = dir.file("caches.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t machine = H5Gopen2(file, "machine", H5P_DEFAULT);
  EXPECT_GE(H5Ldelete(machine, "caches", H5P_DEFAULT), 0);
  const hid_t level = H5Tcopy(H5T_C_S1);
  H5Tset_size(level, 16);
  const hid_t row = H5Tcreate(H5T_COMPOUND, sizeof(Row));
  H5Tinsert(row, "level", offsetof(Row, level), level);
  H5Tinsert(row, "bytes", offsetof(Row, bytes), h5_type_of<Bytes>());
  H5Tinsert(row, "shared_by", offsetof(Row, shared_by), h5_type_of<SharedBy>());
  const hsize_t dims[1] = {2};
  const hid_t space = H5Screate_simple(1, dims, nullptr);
  const hid_t set =
      H5Dcreate2(machine, "caches", row, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const Row rows[2] = {{"L1", Bytes(32768), SharedBy(1)}, {"L2", bytes, shared_by}};
  EXPECT_GE(H5Dwrite(set, row, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows), 0);
  H5Dclose(set);
  H5Sclose(space);
  H5Tclose(row);
  H5Tclose(level);
  H5Gclose(machine);
  H5Fclose(file);
  return path;
}

TEST(HostileCeilingsFile, IntegerColumnsAreCheckedAtTheirStoredWidth) {
  using I = std::int64_t;
  TempDir dir;
  const auto refused = [&](const std::string& path, const std::string& column,
                           const std::string& value) {
    expect_read_fails(
        path, "table 'caches' row 1: column '" + column + "' is " + value + ", out of range");
  };
  refused(wide_caches_file(dir, I{1048576}, I{4294967298}), "shared_by", "4294967298");
  refused(wide_caches_file(dir, I{-1}, I{2}), "bytes", "-1");
  refused(wide_caches_file(dir, I{1048576}, 2.5), "shared_by", "2.5");
  refused(wide_caches_file(dir, 1e30, I{2}), "bytes", "1e+30");
  const core::Machine m = read_file(wide_caches_file(dir, I{1048576}, 4.0)).machine;
  ASSERT_EQ(m.caches.size(), 2u);
  EXPECT_EQ(m.caches[1].bytes, 1048576u);
  EXPECT_EQ(m.caches[1].shared_by, 4);
}

TEST(HostileCeilingsFile, AFlippedByteInANewFileIsDetected) {
  TempDir dir;
  const std::string path = dir.file("new.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  std::string bytes = rooftop::testing::read_bytes(path);
  const std::size_t at = bytes.find("gbyte_per_s");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 16] = static_cast<char>(0xF0);  // where the old format keeps the column offset
  rooftop::testing::write_bytes(path, bytes);
  EXPECT_THROW(read_file(path), Error);
}

core::CeilingsFile with(const std::function<void(core::CeilingsFile&)>& change) {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  change(f);
  return f;
}

// Writers refuse what readers reject: each of these would be read back as damage.
TEST(Validation, ImplausibleCeilingsAreRefusedByTheWriter) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::pair<std::function<void(core::CeilingsFile&)>, const char*> cases[] = {
      {[&](core::CeilingsFile& f) { f.ceilings[0].value = nan; }, "not a plausible rate"},
      {[&](core::CeilingsFile& f) { f.ceilings[0].value = inf; }, "not a plausible rate"},
      {[&](core::CeilingsFile& f) { f.ceilings[0].value = -inf; }, "not a plausible rate"},
      {[&](core::CeilingsFile& f) { f.ceilings[0].value = -1.0; }, "not a plausible rate"},
      {[&](core::CeilingsFile& f) { f.ceilings[0].value = 0.0; }, "not a plausible rate"},
      {[&](core::CeilingsFile& f) { f.ceilings[0].value = 1e308; }, "not a plausible rate"},
      {[&](core::CeilingsFile& f) { f.ceilings[0].theoretical = 1e308; }, "theoretical"},
      {[&](core::CeilingsFile& f) { f.ceilings[0].samples = -1; }, "samples -1 is negative"},
      {[&](core::CeilingsFile& f) { std::swap(f.ceilings[0].min, f.ceilings[0].max); },
       "not in order"},
      {[&](core::CeilingsFile& f) { f.ceilings[0].kind = "speed"; }, "kind \"speed\""},
      {[&](core::CeilingsFile& f) { f.ceilings[0].units = "furlongs"; }, "units \"furlongs\""},
      {[&](core::CeilingsFile& f) { f.ceilings[0].name = "fp128_fma"; }, "unknown ceiling name"},
      {[&](core::CeilingsFile& f) { f.ceilings.push_back(f.ceilings[0]); }, "a second row for"},
      {[&](core::CeilingsFile& f) { f.ceilings.clear(); }, "no ceilings"},
      {[&](core::CeilingsFile& f) { f.sweeps.bandwidth[0].working_set_bytes = 0; },
       "working_set_bytes is 0"},
      {[&](core::CeilingsFile& f) { f.sweeps.compute[0].values[0] = nan; }, "sample rate"},
      {[&](core::CeilingsFile& f) { f.machine.clock_ghz = -2.0; }, "clock_ghz"},
      {[&](core::CeilingsFile& f) { f.machine.cores = -4; }, "cores -4 is negative"},
      // What the reader refuses as damage: text it cannot hold whole, an int64 overflow.
      {[&](core::CeilingsFile& f) { f.machine.gpu_name.assign(2000000, 'x'); },
       "/machine: gpu_name is 2000000 bytes of text, more than the 1048575 a file holds"},
      {[&](core::CeilingsFile& f) { f.machine.gpu_name = std::string("x\x1b[2J\ny\0z", 9); },
       "/machine: gpu_name holds a NUL (byte 7)"},
      {[&](core::CeilingsFile& f) { f.machine.caches[0].name = std::string("l\0", 2); },
       "/machine/caches row 0: level holds a NUL"},
      {[&](core::CeilingsFile& f) { f.machine.memory_bytes = ~std::uint64_t{0}; },
       "memory_bytes 18446744073709551615 is out of range (at most 9223372036854775807)"},
      {[&](core::CeilingsFile& f) { f.provenance.command_line.assign(kMaxTextBytes + 1, 'a'); },
       "command_line is 1048576 bytes of text"},
  };
  TempDir dir;
  const std::string path = dir.file("bad.h5");
  for (const auto& [change, reason] : cases) {
    const std::string msg = error_of([&] { write_file(path, with(change)); });
    EXPECT_NE(msg.find(path + ": not written: "), std::string::npos) << msg;
    EXPECT_NE(msg.find(reason), std::string::npos) << msg;
    // The reader's check is the same function.
    const std::string read_msg = error_of([&] { validate_ceilings_file(with(change)); });
    EXPECT_NE(read_msg.find(reason), std::string::npos) << read_msg;
  }
  EXPECT_TRUE(dir.entries().empty());
  EXPECT_NO_THROW(validate_ceilings_file(rooftop::testing::sample_ceilings_file()));
}

// The writer's limits are the reader's: text of the longest length and the widest
// integers are written and read back; a table's text with a NUL, which the reader would
// cut there, is refused.
TEST(Validation, WhatTheWriterWritesAtItsLimitsIsReadBack) {
  TempDir dir;
  const std::string path = dir.file("limits.h5");
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  f.machine.gpu_name.assign(kMaxTextBytes, 'g');
  f.machine.launch_geometry = "x\x1b[2J\ny";  // control characters are text, shown escaped
  f.machine.memory_bytes = std::numeric_limits<std::int64_t>::max();
  f.machine.cores = std::numeric_limits<int>::max();
  write_file(path, f);
  rooftop::testing::expect_same_machine(read_file(path).machine, f.machine);

  f.ceilings[0].note = std::string("a\0b", 3);
  const std::string msg = error_of([&] { write_file(path, f); });
  EXPECT_EQ(msg, path + ": value for field 'note' holds a NUL: \"a\\x00b\"");
  EXPECT_EQ(read_file(path).machine.gpu_name.size(), kMaxTextBytes);  // the file before stays
}

// One sample on a busy machine can be a thousand times slower than the rest: still data.
TEST(Validation, ASlowSampleIsStillData) {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  f.sweeps.bandwidth[0].values[0] = 1.7e-4;
  f.ceilings[0].min = 1.7e-4;
  EXPECT_NO_THROW(validate_ceilings_file(f));
  f.sweeps.bandwidth[0].values[0] = 0.0;
  EXPECT_NE(error_of([&] { validate(f); }).find("sample rate 0 is not a positive rate"),
            std::string::npos);
}

TEST(Validation, AMissingValueColumnIsAnErrorNotZero) {
  // A table read by column name: a file whose /ceilings lacks `value` reads it as 0,
  // which the plausibility check refuses.
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  f.ceilings[0].value = 0.0;
  EXPECT_NE(error_of([&] { validate(f); }).find("value 0 is not a plausible rate"),
            std::string::npos);
}

// The old temporary name was predictable (<out>.tmp<PID>) and opened with O_TRUNC: a link
// planted there made writers truncate or overwrite the link's target.
TEST(SafeOutput, ALinkPlantedAtTheOldTemporaryNameIsNeverFollowed) {
  TempDir dir;
  const std::string victim = dir.file("victim.txt");
  rooftop::testing::write_bytes(victim, "precious");
  for (const char* name : {"c.h5", "chart.svg"}) {
    const std::string out = dir.file(name);
    const std::string planted = out + ".tmp" + std::to_string(getpid());
    ASSERT_EQ(symlink(victim.c_str(), planted.c_str()), 0);
    check_writable(out);
    if (std::string(name) == "c.h5")
      write_file(out, rooftop::testing::sample_ceilings_file());
    else
      write_text_file(out, "<svg/>");
    EXPECT_EQ(rooftop::testing::read_bytes(victim), "precious") << name;
    std::remove(planted.c_str());
  }
}

TEST(SafeOutput, NewFilesHaveTheUsualPermissions) {
  TempDir dir;
  const mode_t mask = umask(022);
  write_text_file(dir.file("a.svg"), "<svg/>");
  umask(mask);
  struct stat st {};
  ASSERT_EQ(stat(dir.file("a.svg").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
}

TEST(SafeOutput, DirectoriesAndSpecialFilesAreRefusedUpFront) {
  TempDir dir;
  const std::string d = dir.path().string();
  EXPECT_NE(error_of([&] { check_writable(d); }).find("is a directory"), std::string::npos);
  EXPECT_NE(error_of([&] { check_writable(d + "/"); }).find("is a directory"), std::string::npos);
  EXPECT_NE(error_of([&] { check_writable(dir.file("new") + "/"); }).find("is a directory"),
            std::string::npos);
  EXPECT_NE(error_of([&] { check_writable("/dev/null"); }).find("not a regular file"),
            std::string::npos);
  EXPECT_TRUE(dir.entries().empty());
}

TEST(BoundedInput, AFileOverTheLimitStopsThereWithOneLine) {
  TempDir dir;
  const std::string big = dir.file("big.json");
  rooftop::testing::write_bytes(big, "");
  std::filesystem::resize_file(big, 2 << 20);  // sparse: zeros
  const std::string msg = error_of([&] { core::read_input_file(big, 1 << 20, "test input"); });
  EXPECT_EQ(msg, big + ": more than the 1 MiB a test input may have; not read");
}

// A named pipe without a writer once blocked the reader for ever; /dev/zero never ended.
TEST(BoundedInput, PipesAndDevicesAreRefusedUnopened) {
  TempDir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  for (const std::string& path : {fifo, std::string("/dev/zero")}) {
    const std::string want = path + ": cannot read (not a regular file: a pipe, device or socket)";
    EXPECT_EQ(error_of([&] { core::read_input_file(path, 1 << 20, "test input"); }), want);
    EXPECT_EQ(error_of([&] { core::require_regular_file(path); }), want);
  }
  EXPECT_EQ(error_of([&] { core::require_regular_file(dir.file("none")); }),
            dir.file("none") + ": cannot read (No such file or directory)");
}

// What `f` returns, computed by a process without root's right to read every file: this
// one where it is not root, else a child that became uid and gid 65534 (nobody) and hands
// the text back through a pipe (or why it could not drop root).
std::string as_unprivileged_user(const std::function<std::string()>& f) {
  if (geteuid() != 0) return f();
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string text;
    if (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0 || geteuid() == 0)
      text = std::string("cannot become uid 65534: ") + std::strerror(errno);
    else
      text = f();
    const bool sent = write(fds[1], text.data(), text.size()) == static_cast<ssize_t>(text.size());
    _exit(sent ? 0 : 1);
  }
  close(fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) text += " (the child failed)";
  return text;
}

TEST(BoundedInput, AnUnreadableFileSaysPermissionDenied) {
  TempDir dir;
  chmod(dir.path().c_str(), 0755);  // the folder open to all, the file to its owner alone
  const std::string path = dir.file("secret.h5");
  write_file(path, rooftop::testing::sample_ceilings_file());
  chmod(path.c_str(), 0);
  const std::string expected = path + ": cannot read (Permission denied)";
  const auto messages = [&] {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0)  // a folder above it is closed: not what is tested
      return path + " is out of reach: " + std::strerror(errno);
    return error_of([&] { read_file(path); }) + "\n" +
           error_of([&] { core::read_input_file(path, 1 << 20, "x"); });
  };
  EXPECT_EQ(as_unprivileged_user(messages), expected + "\n" + expected);
}

TEST(TerminalText, ControlCharactersAreEscaped) {
  EXPECT_EQ(core::terminal_text("a\x1b]0;owned\x07z"), "a\\x1b]0;owned\\x07z");
  EXPECT_EQ(core::terminal_text("\x1b[2J"), "\\x1b[2J");
  EXPECT_EQ(core::terminal_text("x\xc2\x9b"
                                "2Jy"),
            "x\\u009b2Jy");  // the one-byte CSI
  EXPECT_EQ(core::terminal_text("caf\xc3\xa9\tline\n"), "caf\xc3\xa9\tline\n");
  EXPECT_EQ(core::terminal_text(std::string("a\0b", 3)), "a\\x00b");
}

// One rule for a file's value in a one-line message, whichever reader quotes it.
TEST(HostileText, AForeignValueIsQuotedOnOneLineEscapedAndCut) {
  EXPECT_EQ(core::quoted("furlongs"), "\"furlongs\"");
  EXPECT_EQ(core::quoted("a\nb\r\tc\x1b[2J"), "\"a\\nb\\r\\tc\\x1b[2J\"");
  const std::string quoted_long = core::quoted(std::string(500, 'x'));
  EXPECT_EQ(quoted_long, "\"" + std::string(64, 'x') + "...\"");
  EXPECT_EQ(quoted_long.find('\n'), std::string::npos);
}

TEST(HostileErt, DuplicateKeysAreRejected) {
  const std::string path = kFixtures + "/ert-duplicate-key.json";
  EXPECT_NE(error_of([&] { read_ert_file(path); }).find(path + ": key \"data\" appears twice"),
            std::string::npos);
}

TEST(HostileErt, ImplausibleValuesAreRejected) {
  for (const char* name : {"/ert-huge-spec.json", "/ert-denormal-bandwidth.json"}) {
    const std::string msg = error_of([&] { read_ert_file(kFixtures + name); });
    EXPECT_NE(msg.find("is not a plausible rate"), std::string::npos) << msg;
  }
}

TEST(HostileErt, ATypeErrorNamesTheFileAndHidesTheLibrary) {
  const std::string path = kFixtures + "/ert-wrong-type-metadata.json";
  const std::string msg = error_of([&] { read_ert_file(path); });
  EXPECT_EQ(msg.rfind(path + ": ", 0), 0u) << msg;
  EXPECT_EQ(msg.find("json.exception"), std::string::npos) << msg;
}

// Found by fuzz_ert_json: a number beyond a double escaped as the JSON library's exception.
TEST(HostileErt, ANumberBeyondADoubleIsInvalidJson) {
  const std::string path = kFixtures + "/ert-number-overflow.json";
  EXPECT_EQ(error_of([&] { read_ert_file(path); }),
            path + ": not valid JSON (a number too large for a double)");
}

TEST(HostileErt, AnEndlessFileIsNotReadWhole) {
  // /dev/zero is no regular file: refused before any read.
  EXPECT_NE(error_of([] { read_ert_file("/dev/zero"); }).find("not a regular file"),
            std::string::npos);
}

TEST(CsvExport, NotANumberIsAnEmptyFieldNeverNull) {
  core::CeilingsFile f = rooftop::testing::sample_ceilings_file();
  f.ceilings[0].value = std::numeric_limits<double>::quiet_NaN();
  const std::string csv = to_csv(f);
  EXPECT_EQ(csv.find("null"), std::string::npos) << csv;
  EXPECT_NE(csv.find("fp64_fma,compute,,"), std::string::npos) << csv;
}

}  // namespace
}  // namespace rooftop::ceilings
