#pragma once
// What measure and analyze share around their Kokkos work: thread binding, Kokkos
// itself, and Ctrl-C turned into a flag the long loops poll (so nothing half-done is
// ever written).

#include <Kokkos_Core.hpp>
#include <atomic>

namespace rooftop::app {

// Set by the first Ctrl-C while a KokkosRun is alive; a second one stops at once.
const std::atomic<bool>& interrupted();

class KokkosRun {
 public:
  KokkosRun();   // spreads OpenMP threads over cores unless the user chose, initializes Kokkos
  ~KokkosRun();  // restores the default Ctrl-C behaviour
  KokkosRun(const KokkosRun&) = delete;
  KokkosRun& operator=(const KokkosRun&) = delete;
  // Throws rooftop::Interrupted if Ctrl-C was pressed.
  void throw_if_interrupted() const;

 private:
  bool bound_;  // declared first: the binding must be set before Kokkos starts
  Kokkos::ScopeGuard kokkos_;
};

}  // namespace rooftop::app
