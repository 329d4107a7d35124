#pragma once
// The profile backend: an unmodified Kokkos program run with rooftop's Kokkos Tools
// connector loaded (KOKKOS_TOOLS_LIBS for Kokkos 4 and 5, KOKKOS_PROFILE_LIBRARY for
// Kokkos 3, whichever the program reads); every labelled kernel it launched is one record.
// Or any CUDA program (PyTorch included) with the CUDA injection library attached
// (CUDA_INJECTION64_PATH): every kernel it launched, by demangled name, the selected
// launches counted. A torch.profiler trace given with it names the operators that
// launched each kernel.
// With CUPTI on a GPU the connector counts FLOPs and bytes (source "cupti"); elsewhere it
// records invocations and times only, and a note says so. The program's own output goes
// to stderr; a stop signal rooftop gets while it runs is passed on to it.

#include <string>
#include <vector>

#include "rooftop/analyze/backend.hpp"
#include "rooftop/inject/selection.hpp"

namespace rooftop::analyze {

// The connector library: `given` when not empty (an error when it does not exist), else
// the one beside this program (connector/ in the build tree, ../lib in an install).
std::string find_connector(const std::string& given);
// The CUDA injection library, found as the connector is (inject/ in the build tree);
// built only in the CUDA build with CUPTI.
std::string find_injection(const std::string& given);

// How the program's kernels are seen: the Kokkos Tools connector (labelled Kokkos
// kernels), or the CUDA injection library (every CUDA kernel, by demangled name,
// CUDA_INJECTION64_PATH). Automatic: the connector where the program or its Kokkos
// library reads a Kokkos Tools variable, or where this build has no injection library;
// the injection library otherwise, and whenever a launch selection is given.
enum class ProfileTool { automatic, kokkos, cuda };

struct ProfileRun {
  std::vector<std::string> command;  // the program and its arguments
  ProfileTool tool = ProfileTool::automatic;
  std::string connector;             // as find_connector takes it
  std::string injection;             // as find_injection takes it
  inject::Selection selection;       // the launches the injection library counts
  // A torch.profiler trace of the program (written by this run or an earlier one): each
  // kernel's description names the operators that launched it. Empty: none.
  std::string trace;
};

class ProfileBackend final : public Backend {
 public:
  // Throws rooftop::Error for an empty command, a program that is not found, or a
  // library that cannot be found.
  explicit ProfileBackend(ProfileRun run);
  // The Kokkos connector, `connector` as find_connector takes it.
  ProfileBackend(std::vector<std::string> command, std::string connector);
  std::string name() const override { return "profile"; }
  // Whether the CUDA injection library is what sees the kernels.
  bool injected() const { return !injection_.empty(); }
  // Runs the program to its end. Throws rooftop::Error when it fails, writes no profile,
  // launched no labelled kernel, or (injection) counted none; rooftop::Interrupted on
  // Ctrl-C.
  std::vector<core::KernelRecord> collect(std::vector<std::string>& notes) override;

 private:
  std::vector<std::string> command_;
  std::string connector_;  // one of the two is set
  std::string injection_;
  inject::Selection selection_;
  std::string trace_;
};

}  // namespace rooftop::analyze
