#include "contained_read.hpp"

#include <fcntl.h>
#include <hdf5.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "rooftop/core/error.hpp"

// Set where a sanitizer runs (its runtime defines it): libFuzzer's callback would record
// a report in the child as the fuzzer's own crash; the child's end is the parent's to report.
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

namespace rooftop::ceilings::detail {
namespace {

// How the child ended, as its exit status.
enum ChildExit : int { kEnded = 0, kOutOfMemory = 2, kOtherFailure = 3 };

// This process's address space now (bytes): the limits count from here, so that a
// sanitizer's large reservations count as already used.
unsigned long long address_space_in_use() {
  unsigned long long pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  return pages * static_cast<unsigned long long>(sysconf(_SC_PAGESIZE));
}

// The child: no core file, no output (a crash report from the C library or a sanitizer
// would break the one line the parent prints), the default action for every signal
// that ends a process, then the read. _exit: nothing of the parent's is flushed or torn
// down twice.
[[noreturn]] void run_child(int pipe_out, const std::function<void()>& read,
                            const ReadLimits& limits) {
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  const int null = open("/dev/null", O_WRONLY);
  if (null >= 0) {
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
  }
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGINT, SIGTERM, SIGHUP})
    std::signal(sig, SIG_DFL);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(nullptr);
  (void)pipe_out;  // held open until the child ends: its end of file tells the parent
  int status = kEnded;
  try {
    const ReadMemoryLimit limit(limits.memory_bytes);
    read();
  } catch (const Error&) {
  } catch (const std::bad_alloc&) {
    status = kOutOfMemory;
  } catch (...) {
    status = kOtherFailure;
  }
  // What the read left behind in the library is torn down too, as the parent will at its
  // exit: damage that shows only then shows here.
  if (status == kEnded) H5close();
  _exit(status);
}

// Waits for the child's end of file on `pipe_in` for at most `seconds`; false on time out.
bool wait_for_end(int pipe_in, int seconds) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::seconds(seconds);
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd p{pipe_in, POLLIN, 0};
    const int n = poll(&p, 1, static_cast<int>(left));
    if (n > 0) {
      char byte;
      if (::read(pipe_in, &byte, 1) <= 0) return true;  // the child never writes: this is its end
    } else if (n < 0 && errno != EINTR) {
      return true;  // cannot wait on it: waitpid below blocks instead
    }
  }
}

std::string memory_text(unsigned long long bytes) {
  return bytes >= (1ULL << 30) ? std::to_string(bytes >> 30) + " GiB"
                               : std::to_string(bytes >> 20) + " MiB";
}

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

}  // namespace

ReadMemoryLimit::ReadMemoryLimit(unsigned long long bytes) {
  rlimit now{};
  if (getrlimit(RLIMIT_AS, &now) != 0) return;
  unsigned long long wanted = address_space_in_use() + bytes;
  if (now.rlim_max != RLIM_INFINITY && wanted > now.rlim_max) wanted = now.rlim_max;
  if (now.rlim_cur != RLIM_INFINITY && now.rlim_cur <= wanted) return;  // already lower
  saved_soft_ = now.rlim_cur;
  const rlimit lowered{static_cast<rlim_t>(wanted), now.rlim_max};
  lowered_ = setrlimit(RLIMIT_AS, &lowered) == 0;
}

ReadMemoryLimit::~ReadMemoryLimit() {
  if (!lowered_) return;
  rlimit now{};
  if (getrlimit(RLIMIT_AS, &now) != 0) return;
  const rlimit restored{static_cast<rlim_t>(saved_soft_), now.rlim_max};
  setrlimit(RLIMIT_AS, &restored);
}

void rehearse_read(const std::string& path, const std::function<void()>& read,
                   const ReadLimits& limits) {
  const std::string damaged = path + ": damaged HDF5 file: ";
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    throw Error(path + ": cannot read it safely (pipe: " + std::strerror(errno) + ")");
  const pid_t pid = fork();
  if (pid < 0) {
    const int e = errno;
    close(fds[0]);
    close(fds[1]);
    throw Error(path + ": cannot read it safely (fork: " + std::strerror(e) + ")");
  }
  if (pid == 0) {
    close(fds[0]);
    run_child(fds[1], read, limits);
  }
  close(fds[1]);
  const bool ended = wait_for_end(fds[0], limits.seconds);
  close(fds[0]);
  if (!ended) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!ended)
    throw Error(damaged + "the HDF5 library was still reading it after " +
                std::to_string(limits.seconds) + " s");
  if (WIFSIGNALED(status))
    throw Error(damaged + "the HDF5 library crashed reading it (" +
                signal_name(WTERMSIG(status)) + ")");
  if (WIFEXITED(status) && WEXITSTATUS(status) == kOutOfMemory)
    throw Error(damaged + "reading it needed more than " +
                memory_text(limits.memory_bytes) + " of memory");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != kEnded)
    throw Error(damaged + "reading it failed (exit status " +
                std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
}

}  // namespace rooftop::ceilings::detail
