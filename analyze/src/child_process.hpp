#pragma once
// Running a program for the profile backend: a scratch file for what it writes, the file a
// command name runs, its environment, and the run itself with rooftop's stop signals
// passed on to it. Private to rooftop_analyze.

#include <string>
#include <vector>

namespace rooftop::analyze {

// `given` (Error where it does not exist), else `file` in `folder` of the build tree or in
// lib/ of an install, beside this program; empty when none is there. `what` names it.
std::string find_beside_program(const std::string& given, const char* folder, const char* file,
                                const char* what);

// A fresh, empty path (nothing there) for a child's output, ending in `suffix` (a tool
// that adds its own extension otherwise: nsys's ".sqlite"); removed when done.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& suffix = "");
  ~ScratchFile();
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The file a command name runs: as given when it holds a '/', else the first executable
// of that name on PATH (what posix_spawnp runs); empty when there is none.
std::string resolve_program(const std::string& name);

// The environment of this process without the variables of `drop`, then `set`.
std::vector<std::string> child_environment(const std::vector<std::string>& drop,
                                           const std::vector<std::string>& set);

// Where a program's output goes: files (created or truncated) where named, else its stdout
// to our stderr and its stderr to ours (stdout is rooftop's table or JSON).
struct ProgramOutput {
  std::string stdout_path;
  std::string stderr_path;
};

// Runs the program to completion; returns its exit status (128 + signal when killed). A
// stop signal rooftop gets meanwhile is passed on to it; then Ctrl-C throws
// rooftop::Interrupted and any other stop rooftop::Error.
int run_program(const std::vector<std::string>& command, std::vector<std::string> env,
                const ProgramOutput& output = {});

}  // namespace rooftop::analyze
