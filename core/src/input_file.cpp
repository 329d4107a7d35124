#include "rooftop/core/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "rooftop/core/error.hpp"

namespace rooftop::core {

std::string read_input_file(const std::string& path, std::size_t limit, const char* what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(path + ": cannot read (" + std::strerror(errno) + ")");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) throw Error(path + ": cannot read (a directory)");
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
