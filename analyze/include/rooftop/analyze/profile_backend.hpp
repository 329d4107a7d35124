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

// How rooftop's PyTorch launcher runs a program (src/torch_program.hpp).
enum class LauncherMode : int;

struct ProfileRun {
  std::vector<std::string> command;  // the program and its arguments
  ProfileTool tool = ProfileTool::automatic;
  std::string connector;             // as find_connector takes it
  std::string injection;             // as find_injection takes it
  inject::Selection selection;       // the launches the injection library counts
  // A torch.profiler trace of the program (written by this run or an earlier one): each
  // kernel's description names the operators that launched it. Empty: none. With `torch`,
  // where the trace the run writes is kept.
  std::string trace;
  // A PyTorch program (`python3 SCRIPT ARGS`) run through rooftop's launcher under
  // torch.profiler: on a CPU one run, its operators placed from the trace; with the
  // injection library and a GPU two, the first counted, the second traced (kineto is a
  // CUPTI subscriber, and CUPTI takes one a process), joined by kernel names.
  bool torch = false;
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
  // The program's exit status (--torch keeps it: its operators until then are placed);
  // 0 before collect().
  int program_status() const { return program_status_; }

 private:
  std::vector<std::string> counting_environment(const std::string& out) const;
  std::vector<core::KernelRecord> read_counts(const std::string& profile,
                                              std::vector<std::string>& notes) const;
  std::vector<core::KernelRecord> collect_torch(std::vector<std::string>& notes);
  // The launcher's run; its exit status. Throws where the launcher could not run the
  // program (torch not importable), or on Ctrl-C.
  int run_launcher(LauncherMode mode, const std::string& trace, std::vector<std::string> env);

  std::vector<std::string> command_;
  std::string connector_;  // one of the two is set
  std::string injection_;
  inject::Selection selection_;
  std::string trace_;
  bool torch_ = false;
  std::vector<std::string> python_, target_;  // --torch: the interpreter, what it runs
  std::string launcher_;
  std::string torch_version_;
  int program_status_ = 0;
};

}  // namespace rooftop::analyze
