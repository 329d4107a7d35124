#pragma once
// Output files written safely: every path checked before any work, and each file written
// under a fresh temporary name beside its destination (mkstemp: created exclusively, so a
// link planted there is never followed), then renamed into place. Private to this library.

#include <string>

namespace rooftop::ceilings::output {

// Throws one line unless `path` names a file that can be written: not empty, not a
// directory (nor a name ending in '/'), not a device or other special file, in a folder
// that takes new files.
void check_path(const std::string& path);

// A new, empty file beside `target`, open as fd(); removed unless commit() renamed it
// onto `target`.
class TempFile {
 public:
  explicit TempFile(const std::string& target);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  void close_fd();
  // Gives the file the usual permissions (0666 less the umask: mkstemp makes it 0600),
  // then renames it onto the target.
  void commit();

 private:
  std::string target_, path_;
  int fd_ = -1;
  bool committed_ = false;
};

}  // namespace rooftop::ceilings::output
