#pragma once
// The profile backend: an unmodified Kokkos program run with rooftop's Kokkos Tools
// connector loaded (KOKKOS_TOOLS_LIBS for Kokkos 4 and 5, KOKKOS_PROFILE_LIBRARY for
// Kokkos 3, whichever the program reads); every labelled kernel it launched is one record.
// With CUPTI on a GPU the connector counts FLOPs and bytes (source "cupti"); elsewhere it
// records invocations and times only, and a note says so. The program's own output goes
// to stderr; a stop signal rooftop gets while it runs is passed on to it.

#include <string>
#include <vector>

#include "rooftop/analyze/backend.hpp"

namespace rooftop::analyze {

// The connector library: `given` when not empty (an error when it does not exist), else
// the one beside this program (connector/ in the build tree, ../lib in an install).
std::string find_connector(const std::string& given);

class ProfileBackend final : public Backend {
 public:
  // `command`: the program and its arguments; `connector` as find_connector takes it.
  // Throws rooftop::Error for an empty command or a connector that cannot be found.
  ProfileBackend(std::vector<std::string> command, std::string connector);
  std::string name() const override { return "profile"; }
  // Runs the program to its end. Throws rooftop::Error when it fails, writes no profile or
  // launched no labelled kernel, rooftop::Interrupted on Ctrl-C.
  std::vector<core::KernelRecord> collect(std::vector<std::string>& notes) override;

 private:
  std::vector<std::string> command_;
  std::string connector_;
};

}  // namespace rooftop::analyze
