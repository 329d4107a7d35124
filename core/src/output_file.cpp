#include "rooftop/core/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "rooftop/core/error.hpp"

namespace rooftop::core {
namespace {

mode_t file_mode() {
  static const mode_t mode = [] {
    const mode_t mask = umask(0);
    umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

}  // namespace

void check_writable(const std::string& path) {
  if (path.empty()) throw Error("output path is empty");
  if (path.back() == '/') throw Error(path + ": is a directory, not a file name");
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw Error(path + ": is a directory, not a file name");
    if (!S_ISREG(st.st_mode)) throw Error(path + ": not a regular file; will not replace it");
  }
  TempFile probe(path);  // the folder exists and takes new files
}

TempFile::TempFile(const std::string& target) : target_(target) {
  if (target.empty()) throw Error("output path is empty");
  std::vector<char> pattern(target.begin(), target.end());
  for (char c : std::string(".tmpXXXXXX")) pattern.push_back(c);
  pattern.push_back('\0');
  fd_ = mkstemp(pattern.data());
  if (fd_ < 0) throw Error(target + ": cannot write here (" + std::strerror(errno) + ")");
  path_ = pattern.data();
}

TempFile::~TempFile() {
  close_fd();
  if (!committed_) std::remove(path_.c_str());
}

void TempFile::close_fd() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void TempFile::commit() {
  if (chmod(path_.c_str(), file_mode()) != 0 || std::rename(path_.c_str(), target_.c_str()) != 0)
    throw Error(target_ + ": cannot replace (" + std::strerror(errno) + ")");
  committed_ = true;
}

void write_text_file(const std::string& path, const std::string& text) {
  check_writable(path);
  TempFile tmp(path);
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(tmp.fd(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(path + ": write failed (" + std::strerror(errno) + ")");
    done += static_cast<std::size_t>(n);
  }
  tmp.close_fd();
  tmp.commit();
}

}  // namespace rooftop::core
