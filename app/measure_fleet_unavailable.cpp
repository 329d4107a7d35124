// A build without MPI started by an MPI launcher: refuse, so that N processes never
// race to write one file.

#include "fleet.hpp"
#include "rooftop/core/error.hpp"

namespace rooftop::app {

int run_measure_fleet(const MeasureOptions&, const std::string&) {
  throw Error("started as one of " + std::to_string(launcher_ranks()) +
              " MPI ranks, but this rooftop was built without MPI (install libopenmpi-dev and "
              "reconfigure; ROOFTOP_MPI=0 makes each process measure on its own)");
}

}  // namespace rooftop::app
