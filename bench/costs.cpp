// The transfer and launch sweeps and their figures, printed as a table: the host's
// launch sweeps (Kokkos's parallel dispatch and fence), or with --device in a CUDA
// build the GPU's transfers and launches and the PCIe link NVML reports.
//   costs [--device] [--quick]
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "rooftop/ceilings/transfer_figures.hpp"
#include "rooftop/microbench/device.hpp"
#include "rooftop/microbench/host.hpp"
#include "rooftop/microbench/costs/transfer_costs.hpp"

namespace {

using namespace rooftop;

void print_sweeps(const std::vector<core::SweepPoint>& points) {
  std::printf("%-14s %14s %12s %12s %12s %3s\n", "sweep", "x", "median", "min", "max", "n");
  for (const core::SweepPoint& p : points) {
    std::vector<double> v = p.values;
    std::sort(v.begin(), v.end());
    std::printf("%-14s %14.0f %12.4g %12.4g %12.4g %3zu\n", p.sweep.c_str(), p.x, v[v.size() / 2],
                v.front(), v.back(), v.size());
  }
}

void print_figures(const std::vector<core::Ceiling>& figures,
                   const std::vector<std::string>& skipped) {
  for (const core::Ceiling& c : figures) {
    std::printf("%-17s %10.4g %-5s (min %.4g, max %.4g, n %d)", c.name.c_str(), c.value,
                c.units.c_str(), c.min, c.max, c.samples);
    if (c.theoretical) std::printf(" theoretical %.4g", *c.theoretical);
    if (c.disturbance) std::printf(" lost %.1f%%", 100.0 * *c.disturbance);
    std::printf("\n    %s\n", c.note.c_str());
  }
  for (const std::string& s : skipped) std::printf("skipped: %s\n", s.c_str());
}

template <class Space>
void run(bool quick, bool device, core::Sampling base) {
  std::vector<std::string> skipped;
  if (device) {
    microbench::TransferPlan transfers = microbench::make_transfer_plan(
        microbench::device_free_bytes(), microbench::host_available_bytes(), quick);
    transfers.sampling.watch = base.watch;
    const auto points = microbench::run_transfer_costs<Space>(transfers, {}, &skipped);
    const ceilings::PcieLink link = microbench::pcie_link();
    print_sweeps(points);
    print_figures(ceilings::transfer_figures(points, link, &skipped), skipped);
    skipped.clear();
  }
  microbench::LaunchPlan launches = microbench::make_launch_plan(quick);
  launches.sampling.watch = base.watch;
  const auto points = microbench::run_launch_costs<Space>(launches, {}, &skipped);
  print_sweeps(points);
  print_figures(ceilings::launch_figures(points, device ? "GPU" : "host", &skipped), skipped);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, device = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--device") == 0) {
      device = true;
    } else {
      std::fprintf(stderr, "usage: costs [--device] [--quick]\n");
      return 2;
    }
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  core::Sampling base;  // the host's samples are watched for time lost to others, as measure's
  if (!device) {
    base.watch = &microbench::host_watch();
    run<Kokkos::DefaultHostExecutionSpace>(quick, false, base);
    return 0;
  }
#if defined(KOKKOS_ENABLE_CUDA)
  run<Kokkos::Cuda>(quick, true, base);
  return 0;
#else
  std::fprintf(stderr, "costs: --device needs a CUDA build\n");
  return 2;
#endif
}
