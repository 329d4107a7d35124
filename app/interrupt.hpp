#pragma once
// What measure and analyze share around their Kokkos work: Kokkos itself, host threads
// spread over cores, and Ctrl-C turned into a flag the long loops poll (so nothing
// half-done is ever written).

#include <Kokkos_Core.hpp>
#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <thread>

#include "rooftop/core/progress.hpp"

namespace rooftop::app {

// Set by the first Ctrl-C (or SIGTERM, SIGHUP) while a KokkosRun is alive; a second one
// stops at once, and so does the first after half a second without reaching a poll point.
const std::atomic<bool>& interrupted();

// "[done/total] what" on stderr, rewritten in place, when stderr is a terminal; an empty
// function (no progress) otherwise.
core::Progress progress_printer();

class KokkosRun {
 public:
  // Initializes Kokkos (on GPU `device` when >= 0), pins host threads one per core unless
  // the user chose a binding.
  explicit KokkosRun(int device = -1);
  ~KokkosRun();  // hands the stop signals back to core::remove_temporary_files_when_stopped()
  KokkosRun(const KokkosRun&) = delete;
  KokkosRun& operator=(const KokkosRun&) = delete;
  // Throws rooftop::Interrupted if Ctrl-C was pressed.
  void throw_if_interrupted() const;

 private:
  bool pin_threads_;  // declared first: decided, and the environment set, before Kokkos starts
  Kokkos::ScopeGuard kokkos_;
  std::atomic<bool> done_{false};
  std::thread watchdog_;  // ends the process half a second after a stop signal
};

}  // namespace rooftop::app
