#pragma once
// Sampling of the device kernels: the one sampling loop (core/sampling.hpp) with the SM
// clock probe around the timed launches of every sample (and the sampling's watch, NVML
// on a GPU, read by core::sample right before and right after them).

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "device/kernels.hpp"
#include "rooftop/core/sampling.hpp"
#include "rooftop/microbench/device.hpp"

namespace rooftop::microbench::device {

using Index = Kokkos::IndexType<std::int64_t>;
// One full wave: 2048 threads per SM resident whatever the kernel's register use.
template <class Space>
using WavePolicy = Kokkos::RangePolicy<Space, Kokkos::LaunchBounds<256, 8>, Index>;
// Stream kernels and l1 (whose eight 16-byte loads in flight need more than 32 registers):
// up to 64 registers, at least 1024 threads per SM resident (kL1ThreadsPerSm).
template <class Space>
using StreamPolicy = Kokkos::RangePolicy<Space, Kokkos::LaunchBounds<256, 4>, Index>;

// `kernels(reps)` launches the timed kernels reps times without fencing; the probe
// runs before and after them in the same stream, and the fence follows. The SM clock
// during each sample goes in the sample set's clock_ghz, as the host's does.
template <class Space, class Kernels>
core::SampleSet sample_with_clock(const core::Sampling& sampling, Kernels&& kernels) {
  Kokkos::View<std::int64_t[4], typename Space::memory_space> stamps("rooftop::clock_stamps");
  auto host = Kokkos::create_mirror_view(stamps);
  const std::int64_t probe_threads = Space().concurrency();
  std::vector<double> per_launch;
  auto launch = [&](std::int64_t reps) {
    Kokkos::parallel_for("rooftop::device_clock", WavePolicy<Space>(0, probe_threads),
                         ClockProbe<Space>{stamps, 0});
    kernels(reps);
    Kokkos::parallel_for("rooftop::device_clock", WavePolicy<Space>(0, probe_threads),
                         ClockProbe<Space>{stamps, 1});
    Space().fence();
    Kokkos::deep_copy(host, stamps);
    const double ns = static_cast<double>(host(3) - host(1));
    per_launch.push_back(ns > 0.0 ? static_cast<double>(host(2) - host(0)) / ns : 0.0);
  };
  core::SampleSet out = core::sample(sampling, 1, launch);
  out.clock_ghz.clear();
  for (int n : out.launch) out.clock_ghz.push_back(per_launch.at(static_cast<std::size_t>(n)));
  return out;
}

// The repetition count the samples run with: `count` as given without `scaling`;
// otherwise one untimed launch (module load, first touch), then up to four times the
// shorter of two timed ones rescales the count (scaled_repetitions) until a launch lasts
// about scaling->launch_seconds. `launch(count)` launches the kernel once without fencing.
template <class Space, class LaunchOnce>
std::int64_t scaled_count(std::int64_t count, const core::Sampling& sampling,
                          LaunchScaling* scaling, LaunchOnce&& launch) {
  if (!scaling || scaling->launch_seconds <= 0.0) {
    if (scaling) scaling->used = count;
    return count;
  }
  core::throw_if_cancelled(sampling);
  launch(count);
  Space().fence();
  for (int attempt = 0; attempt < 4; ++attempt) {
    // The shorter of two launches: a preempted or delayed launch only ever lasts longer.
    double seconds = 0.0;
    for (int twice = 0; twice < 2; ++twice) {
      core::throw_if_cancelled(sampling);
      const auto t0 = std::chrono::steady_clock::now();
      launch(count);
      Space().fence();
      const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      seconds = twice == 0 ? t : std::min(seconds, t);
    }
    const std::int64_t next = scaled_repetitions(count, seconds, scaling->launch_seconds);
    if (next == count) break;
    count = next;
  }
  scaling->used = count;
  return count;
}

}  // namespace rooftop::microbench::device
