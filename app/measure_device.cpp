// `measure --space device`: the GPU's ceilings from the device kernels, their
// theoretical peaks at the SM clock measured during every sample (and, when that clock
// is throttled, their share of the peak at the nominal clock too), and what else NVML
// saw on the GPU during each ceiling's samples.
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>

#include "measure.hpp"
#include "rooftop/ceilings/device_peaks.hpp"
#include "rooftop/ceilings/extract.hpp"
#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/statistics.hpp"
#include "rooftop/microbench/device.hpp"
#include "rooftop/microbench/device/watch.hpp"

namespace rooftop::app {

core::CeilingsFile characterize_device(const MeasureOptions& options,
                                       const std::string& command_line, const KokkosRun& run,
                                       std::vector<std::string>& skipped) {
  using Device = Kokkos::DefaultExecutionSpace;
  core::CeilingsFile file;
  file.provenance = ceilings::current_provenance(command_line);
  file.machine = microbench::describe_device();
  microbench::DevicePlan plan = microbench::make_device_plan(
      file.machine, microbench::device_limits(), Device().concurrency(),
      microbench::device_free_bytes(), options.quick);
  plan.sampling.cancel = &interrupted();
  // NVML read around every sample, of the ceilings and of the figures; what it cannot
  // read is said once. Where it reads nothing the samples carry no disturbance (unknown).
  const auto nvml = microbench::NvmlWatch::of_device();
  if (!nvml->readable().why_not.empty())
    skipped.push_back("GPU watch: " + nvml->readable().why_not);
  const auto own_pid = static_cast<unsigned>(getpid());
  microbench::DeviceWatch watch([&nvml] { return nvml->read(); }, nvml->readable(), own_pid);
  if (nvml->readable().any()) plan.sampling.watch = &watch;
  // A step the GPU refuses is skipped with its reason; the others still run.
  file.sweeps = microbench::run_device_sweeps<Device>(plan, progress_printer(), &skipped);
  // With the repetitions the launches were scaled to.
  file.machine.launch_geometry = microbench::launch_geometry(plan);

  // The theoretical peaks must be upper bounds: the highest SM clock of any sample.
  std::vector<double> clocks;
  for (const auto& p : file.sweeps.compute)
    clocks.insert(clocks.end(), p.clock_ghz.begin(), p.clock_ghz.end());
  for (const auto& p : file.sweeps.bandwidth)
    clocks.insert(clocks.end(), p.clock_ghz.begin(), p.clock_ghz.end());
  if (!clocks.empty()) {
    const core::Summary s = core::summarize(clocks);
    file.machine.clock_ghz = s.max;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "SM clock64() over %%globaltimer on SM 0 around the timed launches of every "
                  "sample (as nvbench measures it); highest of %d samples (min %.3f, median "
                  "%.3f GHz); the driver's nominal clock %.3f GHz",
                  s.count, s.min, s.median, file.machine.nominal_clock_ghz);
    file.machine.clock_method = buf;
    if (ceilings::device_clock_throttled(s.max, file.machine.nominal_clock_ghz)) {
      std::snprintf(buf, sizeof buf,
                    "; THROTTLED: below %.1f x the nominal clock (each clock-bound ceiling's "
                    "theoretical basis gives its share of the peak at the nominal clock)",
                    ceilings::kDeviceThrottledClock);
      file.machine.clock_method += buf;
    }
  }
  file.ceilings = ceilings::extract_ceilings(file.machine, file.sweeps, &skipped);
  // Another process, a slowdown not the GPU's own, an XID or ECC error: said in the
  // ceiling's note; a ceiling whose median sample saw one is disturbed, and `measure
  // --strict` fails on it as on a host's.
  microbench::watch_ceilings(file, watch.entries(), nvml->readable(), own_pid);
  run.throw_if_interrupted();
  measure_device_figures(options, plan, run, file, skipped);
  return file;
}

}  // namespace rooftop::app
