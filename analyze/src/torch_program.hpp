#pragma once
// A PyTorch program run by `profile --torch` through rooftop's launcher
// (analyze/torch/rooftop_torch.py): the command split into its interpreter and what it
// runs, the launcher's command line, and what the launcher reports of the run. Private to
// rooftop_analyze.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rooftop::analyze {

// Traces of long PyTorch runs reach hundreds of megabytes; gzip keeps them smaller.
inline constexpr std::size_t kMaxTraceBytes = std::size_t{1} << 30;

// `python3 [OPTIONS] (SCRIPT | -m MODULE | -c CODE) [ARGS...]`, or a script whose first
// line names a python interpreter (`#!/usr/bin/env python3`).
struct PythonCommand {
  std::vector<std::string> interpreter;  // the interpreter and its options
  std::vector<std::string> target;       // SCRIPT ARGS, -m MODULE ARGS or -c CODE ARGS
};

// Throws rooftop::Error, one line, where the command is no Python program.
PythonCommand python_command(const std::vector<std::string>& command);

// The launcher beside this program (analyze/torch/ in the build tree, share/rooftop/ in an
// install); `given` where not empty. Throws rooftop::Error where none is found.
std::string find_launcher(const std::string& given = "");

// How the launcher runs the program: under torch.profiler tracing CPU operators, CPU
// operators and CUDA kernels, or with no profiler (a counting run).
enum class LauncherMode : int { cpu, cuda, plain };

std::vector<std::string> launcher_command(const PythonCommand& python,
                                          const std::string& launcher, LauncherMode mode,
                                          const std::string& trace, const std::string& status);

// What the launcher wrote to its status file.
struct LauncherStatus {
  std::string error;        // why the program could not be run (torch not importable)
  std::string torch;        // PyTorch's version
  bool kineto = false;      // whether PyTorch's kineto wrote the trace
  std::optional<int> exit;  // the program's exit status
};

// An absent or unreadable file gives a status with nothing set.
LauncherStatus read_launcher_status(const std::string& path);

}  // namespace rooftop::analyze
