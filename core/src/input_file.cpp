#include "rooftop/core/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "rooftop/core/error.hpp"
#include "rooftop/core/output_file.hpp"

namespace rooftop::core {

namespace {

void check_kind(const std::string& path, const struct stat& st) {
  if (S_ISDIR(st.st_mode)) throw Error(path + ": cannot read (a directory)");
  if (!S_ISREG(st.st_mode))
    throw Error(path + ": cannot read (not a regular file: a pipe, device or socket)");
}

}  // namespace

void require_regular_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw Error(path + ": cannot read (" + std::strerror(errno) + ")");
  check_kind(path, st);
}

void check_distinct(const std::vector<std::string>& paths, const std::string& why) {
  for (std::size_t i = 0; i < paths.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      if (same_file(paths[i], paths[j]))
        throw Error(paths[i] + ": given twice" +
                    (paths[i] == paths[j] ? "" : " (as " + paths[j] + ")") + "; " + why);
    }
}

std::string read_input_file(const std::string& path, std::size_t limit, const char* what) {
  // O_NONBLOCK: opening a named pipe must not wait for a writer; a regular file ignores it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw Error(path + ": cannot read (" + std::strerror(errno) + ")");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (fstat(fd, &st) != 0) throw Error(path + ": cannot read (" + std::strerror(errno) + ")");
  check_kind(path, st);
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(path + ": cannot read (" + std::strerror(errno) + ")");
    if (n == 0) break;
    if (text.size() + static_cast<std::size_t>(n) > limit)
      throw Error(path + ": more than the " + std::to_string(limit >> 20) + " MiB a " + what +
                  " may have; not read");
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

}  // namespace rooftop::core
