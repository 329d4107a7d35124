#pragma once
// Output files written safely, the twin of input_file.hpp: every path checked before any
// work, and each file written under a fresh temporary name beside its destination
// (mkstemp: created exclusively, so a link planted there is never followed), then renamed
// into place. Every output rooftop writes (HDF5, charts, exports, reports) goes through it.

#include <string>

namespace rooftop::core {

// Throws one line unless `path` names a file that can be written (before a long
// measurement, so that it fails early): not empty, not a
// directory (nor a name ending in '/'), not a device or other special file, in a folder
// that takes new files.
void check_writable(const std::string& path);

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

// Writes any text output (chart, export, report) that way: an existing `path` survives a
// failed write.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace rooftop::core
