// The GPU watch without a GPU: the verdict on a device ceiling from fake NVML readings,
// the watch when NVML is absent (nothing readable, nothing changed), and the readings
// kept per sample by the device sampling loop, run under the host space.

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <string>
#include <vector>

#include "../../microbench/src/device_timing.hpp"
#include "rooftop/ceilings/extract.hpp"
#include "rooftop/microbench/device.hpp"
#include "rooftop/microbench/device_watch.hpp"

namespace rooftop::microbench {
namespace {

using Space = Kokkos::DefaultHostExecutionSpace;
constexpr unsigned kOwn = 4100;

WatchReadable all_readable() {
  WatchReadable r;
  r.reasons = r.processes = r.ecc = r.xid = true;
  return r;
}

// Five quiet samples: rooftop alone on the GPU, no reason, no event.
std::vector<WatchSample> quiet(int n = 5) {
  return std::vector<WatchSample>(n, {0, {kOwn}, 0, {}});
}

bool disturbed(const DeviceVerdict& v) {
  core::Ceiling c;
  c.disturbance = v.disturbance;
  return c.disturbed();
}

TEST(DeviceVerdict, QuietSamplesAreTheMeasurementsOwn) {
  const DeviceVerdict v = device_verdict(quiet(), all_readable(), kOwn);
  ASSERT_TRUE(v.disturbance);
  EXPECT_EQ(*v.disturbance, 0.0);
  EXPECT_FALSE(disturbed(v));
  EXPECT_EQ(v.note, "");
}

TEST(DeviceVerdict, AnotherProcessDuringOneSampleDisturbsTheCeiling) {
  auto samples = quiet();
  samples[3].processes = {kOwn, 4242};
  const DeviceVerdict v = device_verdict(samples, all_readable(), kOwn);
  ASSERT_TRUE(v.disturbance);
  EXPECT_DOUBLE_EQ(*v.disturbance, 0.2);
  EXPECT_TRUE(disturbed(v));
  EXPECT_NE(v.note.find("another compute process on the GPU during 1 of 5 samples (pid 4242)"),
            std::string::npos)
      << v.note;
}

TEST(DeviceVerdict, APowerCapOrIdleIsTheGpusOwnLimitNotADisturbance) {
  auto samples = quiet();
  for (auto& s : samples) s.reasons = clocks_event::kSwPowerCap | clocks_event::kGpuIdle;
  const DeviceVerdict v = device_verdict(samples, all_readable(), kOwn);
  ASSERT_TRUE(v.disturbance);
  EXPECT_EQ(*v.disturbance, 0.0);
  EXPECT_FALSE(disturbed(v));
  EXPECT_NE(v.note.find("power-capped during 5 of 5 samples: this is the rate under the GPU's "
                        "power limit"),
            std::string::npos)
      << v.note;
}

TEST(DeviceVerdict, EverySlowdownThatIsNotTheGpusOwnDisturbs) {
  namespace e = clocks_event;
  for (const auto& [bit, name] : std::vector<std::pair<std::uint64_t, std::string>>{
           {e::kHwSlowdown, "HW slowdown"},
           {e::kHwThermalSlowdown, "HW thermal slowdown"},
           {e::kHwPowerBrakeSlowdown, "HW power brake"},
           {e::kSwThermalSlowdown, "SW thermal slowdown"},
           {e::kSyncBoost, "sync boost"}}) {
    auto samples = quiet();
    samples[0].reasons = bit | e::kSwPowerCap;
    samples[1].reasons = bit;
    const DeviceVerdict v = device_verdict(samples, all_readable(), kOwn);
    ASSERT_TRUE(v.disturbance) << name;
    EXPECT_DOUBLE_EQ(*v.disturbance, 0.4) << name;
    EXPECT_NE(v.note.find("clocks slowed by " + name + " during 2 of 5 samples"), std::string::npos)
        << v.note;
  }
}

TEST(DeviceVerdict, XidAndEccErrorsDisturb) {
  auto samples = quiet();
  samples[2].xids = {79};
  DeviceVerdict v = device_verdict(samples, all_readable(), kOwn);
  EXPECT_TRUE(disturbed(v));
  EXPECT_NE(v.note.find("XID critical error 79"), std::string::npos) << v.note;
  samples = quiet();
  samples[4].ecc_uncorrected = 2;
  v = device_verdict(samples, all_readable(), kOwn);
  EXPECT_TRUE(disturbed(v));
  EXPECT_NE(v.note.find("2 uncorrected ECC error(s)"), std::string::npos) << v.note;
}

TEST(DeviceVerdict, PidsOfAnotherNamespaceCountOneAsRooftop) {
  // In a container NVML lists the host's pids: rooftop's own is not among them.
  auto samples = std::vector<WatchSample>(3, {0, {90001}, 0, {}});
  DeviceVerdict v = device_verdict(samples, all_readable(), kOwn);
  EXPECT_FALSE(disturbed(v)) << v.note;
  samples[1].processes = {90001, 90002};
  v = device_verdict(samples, all_readable(), kOwn);
  EXPECT_TRUE(disturbed(v));
  EXPECT_NE(v.note.find("another PID namespace"), std::string::npos) << v.note;
  // No process at all, not even rooftop: the list cannot be trusted, and is said so.
  v = device_verdict(std::vector<WatchSample>(3), all_readable(), kOwn);
  EXPECT_FALSE(disturbed(v));
  EXPECT_NE(v.note.find("other processes are not known"), std::string::npos) << v.note;
}

TEST(DeviceVerdict, OnlyWhatIsReadableCounts) {
  auto samples = quiet();
  samples[0].processes = {kOwn, 4242};
  samples[0].reasons = clocks_event::kHwSlowdown;
  WatchReadable r;
  EXPECT_FALSE(device_verdict(samples, r, kOwn).disturbance);  // nothing readable: unknown
  r.ecc = true;
  const DeviceVerdict v = device_verdict(samples, r, kOwn);
  ASSERT_TRUE(v.disturbance);
  EXPECT_EQ(*v.disturbance, 0.0);
}

TEST(NvmlWatch, WithoutTheLibraryNothingIsReadableAndSaidOnce) {
  NvmlWatch watch("00000000:01:00.0", "libnvidia-ml-absent.so.1");
  EXPECT_FALSE(watch.readable().any());
  EXPECT_NE(watch.readable().why_not.find("did not load"), std::string::npos)
      << watch.readable().why_not;
  const WatchSample s = watch.read();
  EXPECT_EQ(s.reasons, 0u);
  EXPECT_TRUE(s.processes.empty());
  EXPECT_TRUE(s.xids.empty());
#if !defined(KOKKOS_ENABLE_CUDA)
  EXPECT_FALSE(NvmlWatch::of_device()->readable().any());
#endif
}

// Three samples of at least a millisecond.
constexpr core::Sampling kTiny{.samples = 3, .min_sample_seconds = 0.001};

TEST(WatchScope, EverySampleIsReadBeforeAndAfterAndKeptUnderItsTimes) {
  int reads = 0;
  core::ComputePoint point;
  std::vector<WatchScope::Entry> entries;
  {
    // Another process appears from the fourth reading on.
    WatchScope scope([&] {
      ++reads;
      return WatchSample{
          0, reads >= 4 ? std::vector<unsigned>{kOwn, 777} : std::vector{kOwn}, 0, {}};
    });
    point = measure_device_compute_fma<Space>("fp32", 64, 1, kTiny);
    entries = scope.entries();
  }
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].seconds, point.seconds);
  ASSERT_EQ(entries[0].samples.size(), point.seconds.size());
  EXPECT_EQ(reads % 2, 0);
  EXPECT_GE(reads, 2 * static_cast<int>(point.seconds.size()));
  EXPECT_TRUE(point.disturbance.empty());  // the hook measures no lost time

  // The point behind fp32_fma had another process in its last sample at least.
  core::CeilingsFile file;
  file.sweeps.compute = {point};
  file.ceilings = ceilings::extract_ceilings(file.machine, file.sweeps);
  watch_ceilings(file, entries, all_readable(), kOwn);
  const core::Ceiling* c = file.find("fp32_fma");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->disturbed());
  EXPECT_NE(c->note.find("pid 777"), std::string::npos) << c->note;

  // Without a scope the same measurement is not read at all.
  const int before = reads;
  measure_device_compute_fma<Space>("fp32", 64, 1, kTiny);
  EXPECT_EQ(reads, before);
}

TEST(WatchScope, AnAbsentNvmlChangesNothing) {
  NvmlWatch watch("00000000:01:00.0", "libnvidia-ml-absent.so.1");
  core::ComputePoint point;
  std::vector<WatchScope::Entry> entries;
  {
    WatchScope scope([&] { return watch.read(); });
    point = measure_device_compute_fma<Space>("fp32", 64, 1, kTiny);
    entries = scope.entries();
  }
  EXPECT_TRUE(point.disturbance.empty());
  core::CeilingsFile file;
  file.sweeps.compute = {point};
  file.ceilings = ceilings::extract_ceilings(file.machine, file.sweeps);
  const std::vector<core::Ceiling> before = file.ceilings;
  watch_ceilings(file, entries, watch.readable(), kOwn);
  ASSERT_EQ(file.ceilings.size(), before.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(file.ceilings[i].note, before[i].note);
    EXPECT_FALSE(file.ceilings[i].disturbance);
  }
}

}  // namespace
}  // namespace rooftop::microbench

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
