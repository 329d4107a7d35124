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

#include "rooftop/connector/profile_file.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/format.hpp"
#include "rooftop/core/input_file.hpp"
#include "rooftop/counters/import.hpp"
#include "rooftop/inject/selection.hpp"

extern char** environ;

namespace rooftop::analyze {
namespace {

namespace fs = std::filesystem;

constexpr const char* kConnectorName = "librooftop_kokkos_connector.so";
constexpr const char* kInjectionName = "librooftop_cuda_injection.so";

// `given`, else `file` in `folder` of the build tree or lib/ of an install, beside this
// program; empty when none is there.
std::string find_library(const std::string& given, const char* folder, const char* file,
                         const char* what) {
  if (!given.empty()) {
    if (!fs::exists(given)) throw Error(given + ": no such " + what + " library");
    return fs::absolute(given).string();
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  for (const fs::path& candidate : {exe.parent_path().parent_path() / folder / file,
                                    exe.parent_path().parent_path() / "lib" / file})
    if (fs::exists(candidate)) return candidate.string();
  return "";
}

}  // namespace

std::string find_connector(const std::string& given) {
  std::string found = find_library(given, "connector", kConnectorName, "connector");
  if (found.empty())
    throw Error(std::string("cannot find ") + kConnectorName +
                " beside the rooftop program; name it with --connector");
  return found;
}

std::string find_injection(const std::string& given) {
  std::string found = find_library(given, "inject", kInjectionName, "injection");
  if (found.empty())
    throw Error(std::string("cannot find ") + kInjectionName +
                " beside the rooftop program (only the CUDA build with CUPTI has it); name it "
                "with --injection");
  return found;
}

namespace {

// A fresh, empty path for the connector's output; removed when done.
class ScratchFile {
 public:
  ScratchFile() {
    std::string pattern = (fs::temp_directory_path() / "rooftop-profile-XXXXXX").string();
    const int fd = mkstemp(pattern.data());
    if (fd < 0) throw Error(std::string("cannot create a temporary file: ") + std::strerror(errno));
    close(fd);
    fs::remove(pattern);  // the connector writes it atomically; absent means "nothing written"
    path_ = pattern;
  }
  ~ScratchFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The file a command name runs: as given when it holds a '/', else the first executable
// of that name on PATH (what posix_spawnp runs); empty when there is none.
std::string resolve_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    const std::string candidate = dir + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

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

// The environment of this process without the variables of `drop`, then `set`.
std::vector<std::string> child_environment(const std::vector<std::string>& drop,
                                           const std::vector<std::string>& set) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string key = entry.substr(0, entry.find('='));
    if (std::find(drop.begin(), drop.end(), key) == drop.end()) env.push_back(entry);
  }
  env.insert(env.end(), set.begin(), set.end());
  return env;
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

// The program being profiled, and the stop signal rooftop got while it ran: the program
// is stopped with the same signal rather than left running on its own.
volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_stop_signal = 0;
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void forward_stop(int sig) {
  g_stop_signal = sig;
  if (g_child > 0) kill(static_cast<pid_t>(g_child), sig);
}

// Forwards stop signals to the program while it runs; the previous handlers come back after.
class ForwardStops {
 public:
  ForwardStops() {
    struct sigaction action {};
    action.sa_handler = forward_stop;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < std::size(kStopSignals); ++i)
      sigaction(kStopSignals[i], &action, &previous_[i]);
  }
  ~ForwardStops() {
    g_child = 0;
    for (std::size_t i = 0; i < std::size(kStopSignals); ++i)
      sigaction(kStopSignals[i], &previous_[i], nullptr);
  }
  void started(pid_t pid) {
    g_child = pid;
    if (g_stop_signal) kill(pid, g_stop_signal);  // it came before the pid was known
  }
  ForwardStops(const ForwardStops&) = delete;
  ForwardStops& operator=(const ForwardStops&) = delete;

 private:
  struct sigaction previous_[std::size(kStopSignals)]{};
};

// Runs the program to completion; returns its exit status (128 + signal when killed).
// Its stdout goes to our stderr.
int run_program(const std::vector<std::string>& command, std::vector<std::string> env) {
  std::vector<std::string> args = command;
  std::vector<char*> argv, envp;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  // The program's own output goes to stderr: stdout is rooftop's (the table or JSON).
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_adddup2(&files, STDERR_FILENO, STDOUT_FILENO);
  pid_t pid = -1;
  ForwardStops forward;
  const int rc = posix_spawnp(&pid, argv[0], &files, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&files);
  if (rc != 0) throw Error(command[0] + ": cannot run (" + std::strerror(rc) + ")");
  forward.started(pid);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw Error(std::string("waitpid: ") + std::strerror(errno));
  }
  if (g_stop_signal == SIGINT) throw Interrupted();
  if (g_stop_signal)
    throw Error(std::string("stopped by SIG") + sigabbrev_np(g_stop_signal) + "; " + command[0] +
                " was stopped with it; nothing written");
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
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

// Traces of long PyTorch runs reach hundreds of megabytes; gzip keeps them smaller.
constexpr std::size_t kMaxTraceBytes = std::size_t{1} << 30;

// The operators of a torch.profiler trace named on `kernels` (counters::name_operators).
void name_operators(std::vector<core::KernelRecord>& kernels, const std::string& trace,
                    std::vector<std::string>& notes) {
  const std::string text = core::read_input_file(trace, kMaxTraceBytes, "PyTorch trace");
  counters::name_operators(kernels, {text, trace}, notes);
}

}  // namespace

ProfileBackend::ProfileBackend(ProfileRun run)
    : command_(std::move(run.command)),
      selection_(std::move(run.selection)),
      trace_(std::move(run.trace)) {
  if (command_.empty()) throw Error("profile needs a program to run after --");
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

std::vector<core::KernelRecord> ProfileBackend::collect(std::vector<std::string>& notes) {
  ScratchFile profile;
  const int status = run_program(
      command_, injected() ? injection_environment(injection_, selection_, profile.path())
                           : connector_environment(command_[0], connector_, profile.path()));
  if (status == 130 || status == 128 + SIGINT) throw Interrupted();
  if (status != 0)
    throw Error(command_[0] + " exited with status " + std::to_string(status) +
                "; nothing written");
  if (!fs::exists(profile.path())) {
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
  connector::Profile p = connector::read_profile(profile.path());
  if (injected() && std::none_of(p.kernels.begin(), p.kernels.end(), [](const auto& k) {
        return k.source == "cupti";
      }))
    throw Error(why_nothing_counted(command_[0], p));
  if (p.kernels.empty()) throw Error(command_[0] + " launched no labelled Kokkos kernel");
  notes.insert(notes.end(), p.notes.begin(), p.notes.end());
  if (p.source != "cupti")
    notes.push_back("no counters (" + p.source +
                    "): kernels have times only and cannot be placed by intensity");
  // The counts are in hand: a trace that cannot be read costs the names, not the profile.
  if (!trace_.empty()) {
    try {
      if (!fs::exists(trace_)) throw Error(trace_ + ": no such file after the run");
      name_operators(p.kernels, trace_, notes);
    } catch (const Error& e) {
      notes.push_back(std::string(e.what()) + ": kernels keep their names only");
    }
  }
  return std::move(p.kernels);
}

}  // namespace rooftop::analyze
