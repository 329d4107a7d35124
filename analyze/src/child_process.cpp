#include "child_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iterator>

#include "rooftop/core/error.hpp"

extern char** environ;

namespace rooftop::analyze {
namespace {

namespace fs = std::filesystem;

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

}  // namespace

std::string find_beside_program(const std::string& given, const char* folder, const char* file,
                                const char* what) {
  if (!given.empty()) {
    if (!fs::exists(given)) throw Error(given + ": no such " + what);
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

ScratchFile::ScratchFile(const std::string& suffix) {
  std::string pattern = (fs::temp_directory_path() / "rooftop-profile-XXXXXX").string() + suffix;
  const int fd = mkstemps(pattern.data(), static_cast<int>(suffix.size()));
  if (fd < 0) throw Error(std::string("cannot create a temporary file: ") + std::strerror(errno));
  close(fd);
  fs::remove(pattern);  // the child writes it atomically; absent means "nothing written"
  path_ = pattern;
}

ScratchFile::~ScratchFile() {
  std::error_code ec;
  fs::remove(path_, ec);
}

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

int run_program(const std::vector<std::string>& command, std::vector<std::string> env,
                const ProgramOutput& output) {
  std::vector<std::string> args = command;
  std::vector<char*> argv, envp;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  constexpr int kWrite = O_WRONLY | O_CREAT | O_TRUNC;
  if (!output.stdout_path.empty())
    posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, output.stdout_path.c_str(), kWrite,
                                     0600);
  else  // stdout is rooftop's (the table or JSON)
    posix_spawn_file_actions_adddup2(&files, STDERR_FILENO, STDOUT_FILENO);
  if (!output.stderr_path.empty())
    posix_spawn_file_actions_addopen(&files, STDERR_FILENO, output.stderr_path.c_str(), kWrite,
                                     0600);
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

}  // namespace rooftop::analyze
