#include "interrupt.hpp"

#include <omp.h>
#include <sched.h>

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "rooftop/core/error.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/core/terminal.hpp"

namespace rooftop::app {
namespace {

std::atomic<bool> g_interrupted{false};

// Ctrl-C, and the ends a terminal or a batch system sends (SIGTERM, SIGHUP).
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void on_interrupt(int sig) {
  g_interrupted = true;
  std::signal(sig, core::stop_after_removing_temporary_files);  // a second one stops at once
}

// A kernel run or sweep point can take minutes and polls the flag only between them:
// half a second after a stop signal the process ends anyway. Nothing is lost: files are
// written under a temporary name and renamed only when complete.
void watch_for_stop(const std::atomic<bool>& done) {
  while (!done) {
    if (g_interrupted) {
      for (int i = 0; i < 5 && !done; ++i) usleep(100000);
      if (done) return;
      if (isatty(STDERR_FILENO)) (void)!write(STDERR_FILENO, "\n", 1);
      const char message[] = "rooftop: interrupted; nothing was written\n";
      (void)!write(STDERR_FILENO, message, sizeof message - 1);
      core::remove_temporary_files();
      _exit(130);
    }
    usleep(50000);
  }
}

// True when the user chose no binding; rooftop then pins threads itself. The variables
// are set anyway, to what rooftop does, for Kokkos: it reads them at initialization
// and otherwise prints a warning (on stdout in Kokkos 3, which would spoil --json; on
// stderr since Kokkos 4, where it would still read as a fault to the user).
bool take_over_binding() {
  const bool user_chose =
      std::getenv("OMP_PROC_BIND") || std::getenv("OMP_PLACES") || std::getenv("GOMP_CPU_AFFINITY");
  setenv("OMP_PROC_BIND", "spread", 0);
  setenv("OMP_PLACES", "cores", 0);
  return !user_chose;
}

int read_topology(int cpu, const char* what) {
  std::ifstream in("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/" + what);
  int value = -1;
  in >> value;
  return value;
}

// The CPUs this process may run on, one per physical core first (then the SMT
// siblings), so that n threads spread over n cores: what OMP_PROC_BIND=spread with
// OMP_PLACES=cores does.
std::vector<int> cpus_spread_over_cores() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return {};
  std::vector<int> first, siblings;
  std::set<std::pair<int, int>> cores;  // (package, core) already given a CPU
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed)) continue;
    const auto core =
        std::make_pair(read_topology(cpu, "physical_package_id"), read_topology(cpu, "core_id"));
    (cores.insert(core).second ? first : siblings).push_back(cpu);
  }
  first.insert(first.end(), siblings.begin(), siblings.end());
  return first;
}

// The OpenMP runtime reads OMP_PROC_BIND and OMP_PLACES when the program loads, before
// main(), so setting them here would change nothing: unless the user chose a binding,
// each host thread pins itself to its own core.
void spread_host_threads() {
  const std::vector<int> cpus = cpus_spread_over_cores();
  if (cpus.empty()) return;
  const int threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  Kokkos::parallel_for(
      "rooftop::pin_threads",
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Static>>(
          0, threads),
      [&](int) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpus[static_cast<std::size_t>(omp_get_thread_num()) % cpus.size()], &set);
        sched_setaffinity(0, sizeof set, &set);  // 0: the calling thread
      });
  Kokkos::DefaultHostExecutionSpace().fence();
}

}  // namespace

const std::atomic<bool>& interrupted() { return g_interrupted; }

// On a terminal, one line rewritten in place. Elsewhere (a log, a pipe) a line as each
// step starts and one with its seconds as it ends, so that a run stopped from outside
// (a time limit) shows the step it was in and what every step before it cost.
core::Progress progress_printer() {
  if (isatty(fileno(stderr)))
    return [](std::size_t done, std::size_t total, const std::string& what) {
      std::fprintf(stderr, "\r\033[K[%3zu/%zu] %s", done, total,
                   core::terminal_text(what).c_str());
      if (done == total) std::fprintf(stderr, "\r\033[K");
      std::fflush(stderr);
    };
  struct Step {
    std::string line;  // "[3/12] what", empty before the first step and after the last
    std::chrono::steady_clock::time_point start;
  };
  auto step = std::make_shared<Step>();
  return [step](std::size_t done, std::size_t total, const std::string& what) {
    const auto now = std::chrono::steady_clock::now();
    if (!step->line.empty())
      std::fprintf(stderr, "rooftop: %s: %.2f s\n", step->line.c_str(),
                   std::chrono::duration<double>(now - step->start).count());
    step->line.clear();
    if (done < total && !what.empty()) {
      step->line = "[" + std::to_string(done + 1) + "/" + std::to_string(total) + "] " +
                   core::terminal_text(what);
      step->start = now;
      std::fprintf(stderr, "rooftop: %s ...\n", step->line.c_str());
    }
    std::fflush(stderr);
  };
}

KokkosRun::KokkosRun(int device)
    : pin_threads_(take_over_binding()),
      kokkos_(device >= 0 ? Kokkos::InitializationSettings().set_device_id(device)
                          : Kokkos::InitializationSettings()) {
  if (pin_threads_) spread_host_threads();
  for (int sig : kStopSignals) std::signal(sig, on_interrupt);
  watchdog_ = std::thread(watch_for_stop, std::cref(done_));
}

KokkosRun::~KokkosRun() {
  done_ = true;
  watchdog_.join();
  core::remove_temporary_files_when_stopped();
}

void KokkosRun::throw_if_interrupted() const {
  if (g_interrupted) throw Interrupted();
}

}  // namespace rooftop::app
