#pragma once
// What measure and analyze share around their Kokkos work: Kokkos itself, host threads
// spread over cores, and Ctrl-C turned into a flag the long loops poll (so nothing
// half-done is ever written).

#include <Kokkos_Core.hpp>
#include <atomic>
#include <cstddef>
#include <functional>
#include <string>

#include "rooftop/core/progress.hpp"

namespace rooftop::app {

// Set by the first Ctrl-C while a KokkosRun is alive; a second one stops at once.
const std::atomic<bool>& interrupted();

// "[done/total] what" on stderr, rewritten in place, when stderr is a terminal; an empty
// function (no progress) otherwise.
core::Progress progress_printer();

class KokkosRun {
 public:
  KokkosRun();   // initializes Kokkos, pins host threads one per core unless the user chose
  ~KokkosRun();  // restores the default Ctrl-C behaviour
  KokkosRun(const KokkosRun&) = delete;
  KokkosRun& operator=(const KokkosRun&) = delete;
  // Throws rooftop::Interrupted if Ctrl-C was pressed.
  void throw_if_interrupted() const;

 private:
  bool pin_threads_;  // declared first: decided, and the environment set, before Kokkos starts
  Kokkos::ScopeGuard kokkos_;
};

}  // namespace rooftop::app
