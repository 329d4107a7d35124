#pragma once
// Running the built rooftop program from the CLI tests: its exit status, what it wrote
// on stdout and stderr, and how long it took. ROOFTOP_EXE is the program's path, set
// by CMake ($<TARGET_FILE:rooftop>).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "support.hpp"

extern char** environ;

namespace rooftop::testing {

struct RunResult {
  int status = -1;  // exit status, or 128 + signal number when killed (as shells report it)
  std::string out;
  std::string err;
  double seconds = 0.0;
  long max_rss_kib = 0;  // the largest resident set the program reached
};

// Starts rooftop with stdout and stderr going to files and stdin from /dev/null. The
// child gets an empty signal mask and the default SIGINT action, whatever the test
// process has.
inline pid_t spawn_rooftop(const std::vector<std::string>& args, const std::string& out_path,
                           const std::string& err_path) {
  std::vector<std::string> storage;
  storage.push_back(ROOFTOP_EXE);
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&files, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, interrupt;
  sigemptyset(&none);
  sigemptyset(&interrupt);
  sigaddset(&interrupt, SIGINT);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &interrupt);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, ROOFTOP_EXE, &files, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&files);
  if (rc != 0) throw std::runtime_error("cannot start " + std::string(ROOFTOP_EXE));
  return pid;
}

inline int decode_wait_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

// Runs rooftop to completion; its output files live in `scratch`.
inline RunResult run_rooftop(const std::vector<std::string>& args, const TempDir& scratch) {
  const std::string out_path = scratch.file("stdout.txt");
  const std::string err_path = scratch.file("stderr.txt");
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = spawn_rooftop(args, out_path, err_path);
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid) throw std::runtime_error("wait4 failed");
  RunResult r;
  r.max_rss_kib = usage.ru_maxrss;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.status = decode_wait_status(status);
  r.out = read_bytes(out_path);
  r.err = read_bytes(err_path);
  return r;
}

// The log a long command writes to stderr when it is not a terminal: a line as each
// step starts and ends ("rooftop: [1/2] reading a.csv ..."), and analyze's estimate.
inline bool is_log_line(const std::string& line) {
  return line.rfind("rooftop: [", 0) == 0 || line.rfind("rooftop: estimate: ", 0) == 0;
}

// `text` less its log lines.
inline std::string without_log(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::size_t next = end == std::string::npos ? text.size() : end + 1;
    const std::string line = text.substr(start, next - start);
    if (!is_log_line(line)) out += line;
    start = next;
  }
  return out;
}

// True when `text`, less the log of the steps before, is exactly one non-empty line
// ending in a newline.
inline bool is_one_line(const std::string& raw) {
  const std::string text = without_log(raw);
  return text.size() > 1 && text.back() == '\n' && text.find('\n') == text.size() - 1;
}

// A failure as every rooftop failure must look: a non-zero exit (not a signal) and
// exactly one line on stderr.
inline void expect_one_line_failure(const RunResult& r) {
  EXPECT_NE(r.status, 0);
  EXPECT_LT(r.status, 128) << "killed by a signal instead of exiting";
  EXPECT_TRUE(is_one_line(r.err)) << "stderr was:\n" << r.err;
}

}  // namespace rooftop::testing
