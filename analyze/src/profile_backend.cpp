#include "rooftop/analyze/profile_backend.hpp"

#include <limits.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "torch_program.hpp"
#include "rooftop/connector/profile_file.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/input_file.hpp"
#include "rooftop/core/output_file.hpp"
#include "rooftop/counters/import.hpp"
#include "rooftop/inject/selection.hpp"

namespace rooftop::analyze {
namespace {

namespace fs = std::filesystem;

constexpr const char* kConnectorName = "librooftop_kokkos_connector.so";
constexpr const char* kInjectionName = "librooftop_cuda_injection.so";

}  // namespace

std::string find_connector(const std::string& given) {
  std::string found = find_beside_program(given, "connector", kConnectorName, "connector library");
  if (found.empty())
    throw Error(std::string("cannot find ") + kConnectorName +
                " beside the rooftop program; name it with --connector");
  return found;
}

std::string find_injection(const std::string& given) {
  std::string found = find_beside_program(given, "inject", kInjectionName, "injection library");
  if (found.empty())
    throw Error(std::string("cannot find ") + kInjectionName +
                " beside the rooftop program (only the CUDA build with CUPTI has it); name it "
                "with --injection");
  return found;
}

namespace {

bool file_contains(const std::string& path, const std::string& needle) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string buffer(1 << 20, '\0'), tail;
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::string chunk = tail + buffer.substr(0, static_cast<std::size_t>(in.gcount()));
    if (chunk.find(needle) != std::string::npos) return true;
    tail = chunk.size() >= needle.size() ? chunk.substr(chunk.size() - needle.size() + 1) : chunk;
  }
  return false;
}

// The Kokkos libraries a dynamically linked program loads, as the dynamic loader
// resolves them (ldd), so that a Kokkos built as shared libraries is found too.
std::vector<std::string> kokkos_libraries(const std::string& program) {
  std::vector<std::string> found;
  if (program.find('\'') != std::string::npos) return found;  // not quotable for the shell
  const std::string command = "ldd '" + program + "' 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return found;
  char line[4096];
  while (std::fgets(line, sizeof line, pipe)) {
    const std::string text = line;
    const std::size_t arrow = text.find("=> ");
    if (arrow == std::string::npos || text.find("kokkos") == std::string::npos) continue;
    const std::size_t start = arrow + 3, end = text.find(" (", start);
    found.push_back(text.substr(start, end == std::string::npos ? end : end - start));
  }
  pclose(pipe);
  return found;
}

// Which variable loads a tool into this program: Kokkos 3.7 and later read
// KOKKOS_TOOLS_LIBS and warn about KOKKOS_PROFILE_LIBRARY as deprecated; older Kokkos
// reads KOKKOS_PROFILE_LIBRARY alone. The program and its Kokkos libraries name the ones
// they read; when neither name is found (a wrapper script, mpirun), both are set.
std::vector<std::string> tool_variables(const std::string& program) {
  const std::string file = resolve_program(program);
  if (file.empty()) return {"KOKKOS_TOOLS_LIBS", "KOKKOS_PROFILE_LIBRARY"};
  std::vector<std::string> files = kokkos_libraries(file);
  files.insert(files.begin(), file);
  for (const std::string& f : files) {
    if (file_contains(f, "KOKKOS_TOOLS_LIBS")) return {"KOKKOS_TOOLS_LIBS"};
    if (file_contains(f, "KOKKOS_PROFILE_LIBRARY")) return {"KOKKOS_PROFILE_LIBRARY"};
  }
  return {"KOKKOS_TOOLS_LIBS", "KOKKOS_PROFILE_LIBRARY"};
}

// The connector's variables set (replacing any tool library the user had set: one tool
// at a time is what Kokkos 3 loads).
std::vector<std::string> connector_environment(const std::string& program,
                                               const std::string& connector,
                                               const std::string& out) {
  std::vector<std::string> set;
  for (const std::string& variable : tool_variables(program))
    set.push_back(variable + "=" + connector);
  set.push_back(std::string(inject::kEnvironment.profile_out) + "=" + out);
  return child_environment({"KOKKOS_PROFILE_LIBRARY", "KOKKOS_TOOLS_LIBS",
                            inject::kEnvironment.profile_out},
                           set);
}

// The injection library and its selection set (replacing any the user had set: the
// CUDA driver loads one injection library).
std::vector<std::string> injection_environment(const std::string& injection,
                                               const inject::Selection& selection,
                                               const std::string& out) {
  const inject::EnvironmentNames& n = inject::kEnvironment;
  std::vector<std::string> set = {
      "CUDA_INJECTION64_PATH=" + injection, std::string(n.profile_out) + "=" + out,
      std::string(n.launch_skip) + "=" + std::to_string(selection.launch_skip),
      std::string(n.launch_count) + "=" + std::to_string(selection.launch_count)};
  if (!selection.kernel_regex.empty())
    set.push_back(std::string(n.kernel_regex) + "=" + selection.kernel_regex);
  return child_environment({"CUDA_INJECTION64_PATH", n.profile_out, n.kernel_regex,
                            n.launch_skip, n.launch_count},
                           set);
}

}  // namespace

namespace {

bool selects(const inject::Selection& s) {
  return !s.kernel_regex.empty() || s.launch_skip > 0 || s.launch_count > 0;
}

// Which tool sees the kernels of `run` (ProfileTool's rules); the injection library's
// path, or empty for the connector.
std::string injection_for(const ProfileRun& run) {
  if (run.tool == ProfileTool::kokkos) return "";
  if (run.tool == ProfileTool::cuda || selects(run.selection) || !run.injection.empty())
    return find_injection(run.injection);
  const std::string program = resolve_program(run.command.front());
  if (!program.empty() && tool_variables(program).size() == 1) return "";  // a Kokkos program
  try {
    return find_injection("");
  } catch (const Error&) {  // a build without it: the connector, as before
    return "";
  }
}

// The one line for a profile of the injection library in which nothing was counted.
std::string why_nothing_counted(const std::string& program, const connector::Profile& p) {
  std::vector<std::string> reasons;  // the notes that say why
  for (const std::string& n : p.notes)
    for (const char* start : {"no counters", "counters off", "not profiling"})
      if (n.rfind(start, 0) == 0) reasons.push_back(n);
  const std::string why = core::join(reasons, "; ");
  if (why.find("INSUFFICIENT_PRIVILEGES") != std::string::npos)
    return program + ": no kernel counted: the GPU's performance counters are not permitted "
                     "to this user (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: the driver's "
                     "RmProfilingAdminOnly is 1); run as root, or load the nvidia module with "
                     "NVreg_RestrictProfilingToAdminUsers=0";
  if (p.kernels.empty() && why.empty())
    return program + ": no kernel counted: it launched no CUDA kernel";
  return program + ": no kernel counted" + (why.empty() ? "" : ": " + why);
}

// The operators of a torch.profiler trace named on `kernels` (counters::name_operators).
void name_operators(std::vector<core::KernelRecord>& kernels, const std::string& trace,
                    std::vector<std::string>& notes) {
  const std::string text = core::read_input_file(trace, kMaxTraceBytes, "PyTorch trace");
  counters::name_operators(kernels, {text, trace}, notes);
}

// A run's end where it did not end well: Ctrl-C, or a status that is not 0.
void stop_unless_done(const std::string& program, int status) {
  if (status == 130 || status == 128 + SIGINT) throw Interrupted();
  if (status != 0)
    throw Error(program + " exited with status " + std::to_string(status) + "; nothing written");
}

// The operators of `trace` named on kernels counted in the same run or another one.
void name_operators_after_run(std::vector<core::KernelRecord>& kernels, const std::string& trace,
                              std::vector<std::string>& notes) {
  // The counts are in hand: a trace that cannot be read costs the names, not the profile.
  try {
    if (!fs::exists(trace)) throw Error(trace + ": no such file after the run");
    name_operators(kernels, trace, notes);
  } catch (const Error& e) {
    notes.push_back(std::string(e.what()) + ": kernels keep their names only");
  }
}

}  // namespace

ProfileBackend::ProfileBackend(ProfileRun run)
    : command_(std::move(run.command)),
      selection_(std::move(run.selection)),
      trace_(std::move(run.trace)),
      torch_(run.torch) {
  if (command_.empty()) throw Error("profile needs a program to run after --");
  if (torch_) {
    const PythonCommand python = python_command(command_);
    python_ = python.interpreter;
    target_ = python.target;
    if (resolve_program(python_.front()).empty())
      throw Error(python_.front() + ": program not found");
    launcher_ = find_launcher();
    // The GPU's two runs where the injection library is here and a GPU is seen (or --cuda
    // asks for them); on a CPU one run, its operators from the trace.
    if (run.tool == ProfileTool::cuda || selects(run.selection) || !run.injection.empty()) {
      injection_ = find_injection(run.injection);
      inject::LaunchSelector check(selection_);
    } else if (fs::exists("/dev/nvidiactl")) {
      try {
        injection_ = find_injection("");
      } catch (const Error&) {  // a build without it: the CPU's operators
      }
    }
    return;
  }
  // A trace already there is checked before the run: one the run writes is read after it.
  if (!trace_.empty() && fs::exists(trace_)) {
    std::vector<core::KernelRecord> none;
    std::vector<std::string> ignored;
    name_operators(none, trace_, ignored);
  }
  run.command = command_;
  injection_ = injection_for(run);
  if (injection_.empty()) {
    connector_ = find_connector(run.connector);
    return;
  }
  inject::LaunchSelector check(selection_);  // a regex that does not compile fails here
  if (resolve_program(command_.front()).empty())
    throw Error(command_.front() + ": program not found");
}

ProfileBackend::ProfileBackend(std::vector<std::string> command, std::string connector)
    : ProfileBackend(ProfileRun{std::move(command), ProfileTool::kokkos, std::move(connector),
                                "", {}, ""}) {}

std::vector<std::string> ProfileBackend::counting_environment(const std::string& out) const {
  return injected() ? injection_environment(injection_, selection_, out)
                    : connector_environment(command_[0], connector_, out);
}

std::vector<core::KernelRecord> ProfileBackend::read_counts(const std::string& profile,
                                                            std::vector<std::string>& notes) const {
  if (!fs::exists(profile)) {
    if (!injected())
      throw Error(command_[0] +
                  " wrote no profile: it is not a Kokkos program, or it never called "
                  "Kokkos::finalize() (any CUDA program: --cuda, in the CUDA build)");
    if (!fs::exists("/dev/nvidiactl"))
      throw Error(command_[0] + ": no kernel counted: this machine has no NVIDIA GPU (no "
                                "/dev/nvidiactl)");
    throw Error(command_[0] + ": no kernel counted: it never initialized CUDA, or the CUDA "
                              "driver did not load the injection library");
  }
  connector::Profile p = connector::read_profile(profile);
  if (injected() && std::none_of(p.kernels.begin(), p.kernels.end(), [](const auto& k) {
        return k.source == "cupti";
      }))
    throw Error(why_nothing_counted(command_[0], p));
  if (p.kernels.empty()) throw Error(command_[0] + " launched no labelled Kokkos kernel");
  notes.insert(notes.end(), p.notes.begin(), p.notes.end());
  if (p.source != "cupti")
    notes.push_back("no counters (" + p.source +
                    "): kernels have times only and cannot be placed by intensity");
  return std::move(p.kernels);
}

std::vector<core::KernelRecord> ProfileBackend::collect(std::vector<std::string>& notes) {
  if (torch_) return collect_torch(notes);
  ScratchFile profile;
  stop_unless_done(command_[0], run_program(command_, counting_environment(profile.path())));
  std::vector<core::KernelRecord> kernels = read_counts(profile.path(), notes);
  if (!trace_.empty()) name_operators_after_run(kernels, trace_, notes);
  return kernels;
}

int ProfileBackend::run_launcher(LauncherMode mode, const std::string& trace,
                                 std::vector<std::string> env) {
  ScratchFile status;
  const std::vector<std::string> command =
      launcher_command({python_, target_}, launcher_, mode, trace, status.path());
  const int exit = run_program(command, std::move(env));
  const LauncherStatus s = read_launcher_status(status.path());
  if (!s.error.empty()) throw Error(s.error);
  if (exit == 130 || exit == 128 + SIGINT) throw Interrupted();
  if (!s.torch.empty()) torch_version_ = s.torch;
  return s.exit.value_or(exit);
}

std::vector<core::KernelRecord> ProfileBackend::collect_torch(std::vector<std::string>& notes) {
  const std::string& program = python_.front();
  ScratchFile trace;
  std::string text;  // the trace, where read
  std::vector<core::KernelRecord> kernels;
  if (injected()) {
    // Counting first, then tracing: CUPTI takes one subscriber a process, and kineto is one.
    ScratchFile profile;
    program_status_ = run_launcher(LauncherMode::plain, "",
                                   counting_environment(profile.path()));
    kernels = read_counts(profile.path(), notes);
    if (program_status_ == 0) {
      program_status_ = run_launcher(
          LauncherMode::cuda, trace.path(),
          child_environment({"CUDA_INJECTION64_PATH", "KOKKOS_TOOLS_LIBS", "KOKKOS_PROFILE_LIBRARY"},
                            {}));
      name_operators_after_run(kernels, trace.path(), notes);
      notes.push_back("2 runs of " + program +
                      ": the first counted by the CUDA injection library, the second traced "
                      "by torch.profiler (kineto is a CUPTI subscriber, and CUPTI takes one a "
                      "process), joined by kernel names");
    } else {
      notes.push_back("1 run of " + program + ", counted: it exited with status " +
                      std::to_string(program_status_) + ", so no second run traced it");
    }
  } else {
    program_status_ = run_launcher(LauncherMode::cpu, trace.path(),
                                   child_environment({}, {}));
    if (!fs::exists(trace.path()))
      throw Error(program + " wrote no trace: it ended without Python's own exit (os._exit, "
                            "or killed; status " + std::to_string(program_status_) + ")");
    // Read under the name the user knows it by: no temporary path in the notes.
    text = core::read_input_file(trace.path(), kMaxTraceBytes, "PyTorch trace");
    counters::ImportResult r =
        counters::parse_report(text, trace_.empty() ? "the trace" : trace_);
    if (r.kernels.empty()) throw Error(program + ": its trace holds no operator");
    notes.insert(notes.end(), r.notes.begin(), r.notes.end());
    kernels = std::move(r.kernels);
    notes.push_back("1 run of " + program + " under torch.profiler" +
                    (torch_version_.empty() ? "" : " (PyTorch " + torch_version_ + ")") +
                    ", its CPU operators placed on the ceilings");
  }
  if (!trace_.empty() && fs::exists(trace.path())) {
    if (text.empty()) text = core::read_input_file(trace.path(), kMaxTraceBytes, "PyTorch trace");
    core::write_text_file(trace_, text);
    notes.push_back("the trace is kept in " + trace_);
  }
  if (program_status_ != 0)
    notes.push_back(program + " exited with status " + std::to_string(program_status_) +
                    ": what it ran until then is placed, and rooftop exits with its status");
  return kernels;
}

}  // namespace rooftop::analyze
