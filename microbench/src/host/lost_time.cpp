// The time the measuring threads lose to others while they measure (host_watch, the
// host's core::Sampling::watch): a sample is only the machine's when no other task and no hypervisor
// took its CPUs. Two sources the kernel already keeps, read with a few system calls
// around samples of 10 ms and more (a quiet `measure` as a whole takes 1.025 x as long
// with them: RELIABILITY.md):
// - run_delay, the second field of /proc/self/task/<tid>/schedstat: nanoseconds the
//   thread spent runnable, waiting for a CPU (another task on its core, a busy loop
//   of a neighbour, a noisy kernel thread);
// - steal, the eighth value of each cpuN line of /proc/stat: clock ticks the hypervisor
//   ran something else on that virtual CPU, counted for the CPUs this process may use.

#include <dirent.h>
#include <sched.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "rooftop/microbench/host.hpp"

namespace rooftop::microbench {
namespace {

// Nanoseconds every thread of this process has waited runnable; -1 when no thread's
// schedstat can be read (a kernel without scheduler statistics).
double run_delay_ns() {
  DIR* tasks = opendir("/proc/self/task");
  if (!tasks) return -1.0;
  double total = 0.0;
  bool any = false;
  while (const dirent* e = readdir(tasks)) {
    if (e->d_name[0] == '.') continue;
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/task/%.20s/schedstat", e->d_name);
    if (FILE* f = std::fopen(path, "r")) {
      unsigned long long on_cpu = 0, waited = 0;
      if (std::fscanf(f, "%llu %llu", &on_cpu, &waited) == 2) {
        total += static_cast<double>(waited);
        any = true;
      }
      std::fclose(f);
    }
  }
  closedir(tasks);
  return any ? total : -1.0;
}

// Seconds stolen by the hypervisor from the CPUs this process may run on.
double steal_seconds() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 0.0;
  std::ifstream in("/proc/stat");
  std::string line;
  double ticks = 0.0;
  while (std::getline(in, line)) {
    int cpu = -1;
    if (std::sscanf(line.c_str(), "cpu%d", &cpu) != 1 || cpu < 0 || cpu >= CPU_SETSIZE ||
        !CPU_ISSET(cpu, &allowed))
      continue;
    std::istringstream fields(line.substr(line.find(' ')));
    unsigned long long v[8] = {};
    for (auto& x : v) fields >> x;  // user nice system idle iowait irq softirq steal
    if (fields) ticks += static_cast<double>(v[7]);
  }
  const long hz = sysconf(_SC_CLK_TCK);
  return hz > 0 ? ticks / static_cast<double>(hz) : 0.0;
}

}  // namespace

bool host_lost_time_readable() { return run_delay_ns() >= 0.0; }

double host_lost_seconds() {
  const double threads = std::max(1, Kokkos::DefaultHostExecutionSpace().concurrency());
  return (std::max(0.0, run_delay_ns()) * 1e-9 + steal_seconds()) / threads;
}

core::Watch& host_watch() {
  static core::LostTimeWatch watch(host_lost_seconds);
  return watch;
}

}  // namespace rooftop::microbench
