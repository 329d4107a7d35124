#pragma once
// Helpers shared by the test suites: scratch directories, raw file contents, errors,
// and a complete sample ceilings file.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "rooftop/core/error.hpp"
#include "rooftop/core/model.hpp"

namespace rooftop::testing {

// The checked-in inputs of the tests (tests/fixtures).
inline const std::string kFixtures = ROOFTOP_TEST_FIXTURES;

inline constexpr std::uint64_t KiB = 1024;
inline constexpr std::uint64_t MiB = 1024 * KiB;

// A fresh directory under the system's temporary directory, removed with its contents.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rooftop-test-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

  // Names of the entries in the directory, sorted.
  std::vector<std::string> entries() const { return entries_of(path_); }
  // And of any other directory.
  static std::vector<std::string> entries_of(const std::filesystem::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
      out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::filesystem::path path_;
};

// The message of the rooftop::Error thrown by `f`, or a test failure if none is thrown.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const rooftop::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected rooftop::Error, nothing was thrown";
  return {};
}

// How many times `what` occurs in `text` (overlapping ones too).
inline std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  if (!out) throw std::runtime_error("cannot write " + path);
}

inline void write_random_bytes(const std::string& path, std::size_t size) {
  std::mt19937 rng(12345);
  std::string bytes(size, '\0');
  for (char& c : bytes) c = static_cast<char>(rng() & 0xff);
  write_bytes(path, bytes);
}

// The first `fraction` of `from`, as a file that was cut off while being copied.
inline void write_truncated_copy(const std::string& from, const std::string& to, double fraction) {
  const std::string bytes = read_bytes(from);
  write_bytes(to, bytes.substr(0, static_cast<std::size_t>(static_cast<double>(bytes.size()) * fraction)));
}

// A ceiling named as rooftop names them (fp… compute, the rest bandwidth) with the
// units that go with its kind; `samples` 0 means never measured.
inline core::Ceiling make_ceiling(const std::string& name, double value, double min, double max,
                                  int samples) {
  core::Ceiling c;
  c.name = name;
  c.kind = name.rfind("fp", 0) == 0 ? "compute" : "bandwidth";
  c.units = c.kind == "compute" ? "GFLOP/s" : "GB/s";
  c.value = c.median = value;
  c.min = min;
  c.max = max;
  c.samples = samples;
  return c;
}

inline void expect_same_machine(const core::Machine& a, const core::Machine& b) {
  EXPECT_EQ(a.hostname, b.hostname);
  EXPECT_EQ(a.execution_space, b.execution_space);
  EXPECT_EQ(a.cpu_model, b.cpu_model);
  EXPECT_EQ(a.gpu_name, b.gpu_name);
  EXPECT_EQ(a.compute_capability, b.compute_capability);
  EXPECT_EQ(a.cores, b.cores);
  EXPECT_EQ(a.threads, b.threads);
  EXPECT_EQ(a.hardware_threads, b.hardware_threads);
  ASSERT_EQ(a.caches.size(), b.caches.size());
  for (std::size_t i = 0; i < a.caches.size(); ++i) {
    SCOPED_TRACE(a.caches[i].name);
    EXPECT_EQ(a.caches[i].name, b.caches[i].name);
    EXPECT_EQ(a.caches[i].bytes, b.caches[i].bytes);
    EXPECT_EQ(a.caches[i].shared_by, b.caches[i].shared_by);
  }
  EXPECT_EQ(a.simd_bits, b.simd_bits);
  EXPECT_EQ(a.fma_pipes, b.fma_pipes);
  EXPECT_EQ(a.add_pipes, b.add_pipes);
  EXPECT_EQ(a.load_ports, b.load_ports);
  EXPECT_EQ(a.store_bytes_per_cycle, b.store_bytes_per_cycle);
  EXPECT_EQ(a.hardware_model, b.hardware_model);
  EXPECT_EQ(a.clock_ghz, b.clock_ghz);
  EXPECT_EQ(a.clock_method, b.clock_method);
  EXPECT_EQ(a.compiler, b.compiler);
  EXPECT_EQ(a.compile_flags, b.compile_flags);
  EXPECT_EQ(a.kokkos_version, b.kokkos_version);
  EXPECT_EQ(a.device_arch, b.device_arch);
  EXPECT_EQ(a.cuda_version, b.cuda_version);
  EXPECT_EQ(a.driver_version, b.driver_version);
  EXPECT_EQ(a.memory_bytes, b.memory_bytes);
  EXPECT_EQ(a.memory_clock_ghz, b.memory_clock_ghz);
  EXPECT_EQ(a.memory_bus_bits, b.memory_bus_bits);
  EXPECT_EQ(a.nominal_clock_ghz, b.nominal_clock_ghz);
  EXPECT_EQ(a.launch_geometry, b.launch_geometry);
}

inline void expect_same_ceiling(const core::Ceiling& a, const core::Ceiling& b) {
  SCOPED_TRACE(a.name);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.units, b.units);
  EXPECT_EQ(a.median, b.median);
  EXPECT_EQ(a.min, b.min);
  EXPECT_EQ(a.max, b.max);
  EXPECT_EQ(a.samples, b.samples);
  EXPECT_EQ(a.pattern, b.pattern);
  EXPECT_EQ(a.working_set_bytes, b.working_set_bytes);
  EXPECT_EQ(a.flops_per_element, b.flops_per_element);
  EXPECT_EQ(a.theoretical, b.theoretical);
  EXPECT_EQ(a.theoretical_basis, b.theoretical_basis);
  EXPECT_EQ(a.note, b.note);
}

// A complete, plausible ceilings file: every machine field set, three cache levels,
// ceilings with and without a theoretical peak, sweeps with several points and samples.
inline core::CeilingsFile sample_ceilings_file() {
  core::CeilingsFile f;
  f.provenance.schema_version = "1.0";
  f.provenance.tool_version = "0.1.0";
  f.provenance.git_revision = "0123456789ab";
  f.provenance.created_utc = "2026-11-21T12:34:56Z";
  f.provenance.command_line = "rooftop measure --quick --out ceilings.h5";

  core::Machine& m = f.machine;
  m.hostname = "node017";
  m.execution_space = "OpenMP";
  m.cpu_model = "Test CPU 9000";
  m.gpu_name = "Test GPU";
  m.compute_capability = "9.0";
  m.cores = 2;
  m.threads = 4;
  m.caches = {{"l1", 48 * KiB, 2}, {"l2", 2 * MiB, 2}, {"l3", 105 * MiB, 4}};
  m.simd_bits = 512;
  m.fma_pipes = 2;
  m.add_pipes = 1;
  m.load_ports = 3;
  m.store_bytes_per_cycle = 64;
  m.hardware_model = "Test CPU 9000 (vendor optimization guide)";
  m.clock_ghz = 2.125;
  m.clock_method = "dependent integer-add chain";
  m.compiler = "GCC 12.2.0";
  m.compile_flags = "-O3 -march=native";
  m.kokkos_version = "5.0.2";
  m.device_arch = "sm_90";
  m.cuda_version = "13.0";
  m.driver_version = "580.65";
  m.memory_bytes = 80 * 1024 * MiB;
  m.memory_clock_ghz = 2.619;
  m.memory_bus_bits = 5120;
  m.nominal_clock_ghz = 1.98;
  m.launch_geometry = "compute: one wave\nl1: one wave";

  core::Ceiling fma;
  fma.name = "fp64_fma";
  fma.kind = "compute";
  fma.value = fma.median = 101.5;
  fma.units = "GFLOP/s";
  fma.min = 99.25;
  fma.max = 102.75;
  fma.samples = 5;
  fma.pattern = "fma";
  fma.working_set_bytes = 1 * MiB;
  fma.flops_per_element = 1024;
  fma.theoretical = 136.0;
  fma.theoretical_basis = "2 cores x 8 lanes x 4 FLOP/cycle/lane x 2.125 GHz";
  fma.note = "";

  core::Ceiling dram;
  dram.name = "dram";
  dram.kind = "bandwidth";
  dram.value = dram.median = 11.5;
  dram.units = "GB/s";
  dram.min = 11.0;
  dram.max = 12.25;
  dram.samples = 3;
  dram.pattern = "triad";
  dram.working_set_bytes = 512 * MiB;
  dram.note = "measured with another job running";
  f.ceilings = {fma, dram};

  core::ComputePoint c1;
  c1.precision = "fp64";
  c1.mode = "fma";
  c1.flops_per_element = 1024;
  c1.mul_add_ratio = 1.0;
  c1.ilp = 8;
  c1.working_set_bytes = 1 * MiB;
  c1.seconds = {0.051, 0.052, 0.0505};
  c1.values = {101.5, 99.25, 102.75};
  c1.clock_ghz = {1.98, 1.965, 1.98};
  core::ComputePoint c2 = c1;
  c2.precision = "fp32";
  c2.mode = "nofma";
  c2.flops_per_element = 1;
  c2.mul_add_ratio = 0.0;
  c2.seconds = {0.06, 0.061};
  c2.values = {3.5, 3.25};
  c2.clock_ghz = {1.5, 1.25};
  f.sweeps.compute = {c1, c2};

  core::BandwidthPoint b1;
  b1.pattern = "read";
  b1.working_set_bytes = 16 * KiB;
  b1.seconds = {0.05, 0.0501};
  b1.values = {300.5, 299.0};
  b1.clock_ghz = {1.755, 1.98};
  core::BandwidthPoint b2;
  b2.pattern = "triad";
  b2.working_set_bytes = 512 * MiB;
  b2.seconds = {0.2, 0.21, 0.205};
  b2.values = {11.5, 11.0, 12.25};
  core::BandwidthPoint b3;
  b3.pattern = "rmw";
  b3.working_set_bytes = 1 * MiB;
  b3.seconds = {0.07};
  b3.values = {150.0};
  f.sweeps.bandwidth = {b1, b2, b3};
  return f;
}

}  // namespace rooftop::testing
