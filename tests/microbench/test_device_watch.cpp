// The GPU watch without a GPU: the verdict on a device ceiling from fake NVML readings,
// the watch when NVML is absent (nothing readable, nothing changed), and the device
// watch in the sampling loop (disturbed samples taken again, the readings kept per
// sample), run under the host space.

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <functional>
#include <string>
#include <vector>

#include "device/timing.hpp"
#include "rooftop/ceilings/extract.hpp"
#include "rooftop/microbench/device.hpp"
#include "rooftop/microbench/device/watch.hpp"

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

// Readings as NVML would give them: rooftop alone, and pid 777 too during the readings
// `foreign` says so of (counted from 1).
template <class Foreign>
std::function<WatchSample()> fake_nvml(int& reads, Foreign foreign) {
  return [&reads, foreign] {
    ++reads;
    return WatchSample{0, foreign(reads) ? std::vector<unsigned>{kOwn, 777} : std::vector{kOwn},
                       0, {}};
  };
}

TEST(DeviceWatch, ADisturbedSampleIsTakenAgainAndKeepsItsOwnReadings) {
  // Any launch is long enough: launch 0 warms up, 1 to 3 are the samples. Another process
  // holds the GPU during launches 2 and 3 (readings 5 to 8): the median sample is
  // disturbed, so the worst is taken again until a minority is.
  int reads = 0;
  DeviceWatch watch(fake_nvml(reads, [](int r) { return r >= 5 && r <= 8; }), all_readable(),
                    kOwn);
  core::Sampling sampling{.samples = 3, .min_sample_seconds = 1e-9};
  sampling.watch = &watch;
  int launches = 0;
  const core::SampleSet s = core::sample(sampling, 1, [&](std::int64_t) { ++launches; });
  EXPECT_EQ(reads, 2 * launches);
  EXPECT_EQ(launches, 5);  // one retake: launch 4 replaces sample 2 (launch 2)
  EXPECT_EQ(s.launch, (std::vector<int>{1, 4, 3}));
  EXPECT_EQ(s.disturbance, (std::vector<double>{0.0, 0.0, 1.0}));
  ASSERT_EQ(watch.entries().size(), 1u);
  const DeviceWatch::Entry& entry = watch.entries()[0];
  EXPECT_EQ(entry.seconds, s.seconds);
  ASSERT_EQ(entry.samples.size(), 3u);
  // Each kept sample has its launch's readings, before and after.
  EXPECT_EQ(entry.samples[0].processes, (std::vector<unsigned>{kOwn, kOwn}));
  EXPECT_EQ(entry.samples[1].processes, (std::vector<unsigned>{kOwn, kOwn}));
  EXPECT_EQ(entry.samples[2].processes, (std::vector<unsigned>{kOwn, 777, kOwn, 777}));
}

TEST(DeviceWatch, EveryDeviceSampleIsWatchedAndTheCeilingSaysWhatNvmlSaw) {
  int reads = 0;
  // Another process from the fourth reading on: every launch after the first.
  DeviceWatch watch(fake_nvml(reads, [](int r) { return r >= 4; }), all_readable(), kOwn);
  core::Sampling sampling = kTiny;
  sampling.watch = &watch;
  const core::ComputePoint point = measure_device_compute_fma<Space>("fp32", 64, 1, sampling);
  ASSERT_EQ(watch.entries().size(), 1u);
  EXPECT_EQ(watch.entries()[0].seconds, point.seconds);
  ASSERT_EQ(watch.entries()[0].samples.size(), point.seconds.size());
  EXPECT_EQ(reads % 2, 0);
  ASSERT_EQ(point.disturbance.size(), point.seconds.size());
  ASSERT_EQ(point.clock_ghz.size(), point.seconds.size());

  // Every sample saw pid 777 (retakes too): fp32_fma is disturbed, and says by whom.
  core::CeilingsFile file;
  file.sweeps.compute = {point};
  file.ceilings = ceilings::extract_ceilings(file.machine, file.sweeps);
  watch_ceilings(file, watch.entries(), all_readable(), kOwn);
  const core::Ceiling* c = file.find("fp32_fma");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->disturbed());
  EXPECT_NE(c->note.find("pid 777"), std::string::npos) << c->note;

  // Without the watch the same measurement is not read at all.
  const int before = reads;
  measure_device_compute_fma<Space>("fp32", 64, 1, kTiny);
  EXPECT_EQ(reads, before);
}

TEST(DeviceWatch, AnAbsentNvmlChangesNothing) {
  NvmlWatch nvml("00000000:01:00.0", "libnvidia-ml-absent.so.1");
  EXPECT_FALSE(nvml.readable().any());  // so measure sets no watch: the samples carry none
  const core::ComputePoint point = measure_device_compute_fma<Space>("fp32", 64, 1, kTiny);
  EXPECT_TRUE(point.disturbance.empty());
  core::CeilingsFile file;
  file.sweeps.compute = {point};
  file.ceilings = ceilings::extract_ceilings(file.machine, file.sweeps);
  const std::vector<core::Ceiling> before = file.ceilings;
  watch_ceilings(file, {}, nvml.readable(), kOwn);
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
