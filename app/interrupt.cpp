#include "interrupt.hpp"

#include <csignal>
#include <cstdlib>

#include "rooftop/ceilings/error.hpp"

namespace rooftop::app {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int) {
  g_interrupted = true;
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C stops at once
}

// Kokkos with OpenMP wants threads bound; spread them over cores unless the user chose.
bool default_thread_binding() {
  setenv("OMP_PROC_BIND", "spread", 0);
  setenv("OMP_PLACES", "cores", 0);
  return true;
}

}  // namespace

const std::atomic<bool>& interrupted() { return g_interrupted; }

KokkosRun::KokkosRun() : bound_(default_thread_binding()) {
  std::signal(SIGINT, on_interrupt);
}

KokkosRun::~KokkosRun() { std::signal(SIGINT, SIG_DFL); }

void KokkosRun::throw_if_interrupted() const {
  if (g_interrupted) throw Interrupted();
}

}  // namespace rooftop::app
