#pragma once
// Output files written safely, the twin of input_file.hpp: every path checked before any
// work, and each file written under a fresh temporary name beside its destination
// (mkstemp: created exclusively, so a link planted there is never followed), then renamed
// into place. Every output rooftop writes (HDF5, charts, exports, reports) goes through it.
// A destination that is a symbolic link is written through: the file it names gets the new
// contents, and the link stays.

#include <string>
#include <vector>

namespace rooftop::core {

// Throws one line unless `path` names a file that can be written (before a long
// measurement, so that it fails early): not empty, not a
// directory (nor a name ending in '/'), not a device or other special file, not a link to
// nothing, in a folder that takes new files, and none of the command's `inputs` (the same
// file under another name or link included): a command never writes over what it reads.
void check_writable(const std::string& path, const std::vector<std::string>& inputs = {});

// Throws where two outputs of one command name one file (the second would replace the
// first); an empty path is no output.
void check_apart(const std::string& first, const std::string& second);

// Whether two paths name one file: the same inode where both exist (hard links too), else
// the same path once links and "." and ".." are resolved (an output not written yet).
bool same_file(const std::string& a, const std::string& b);

// Removes the temporary files of the writes under way, for a stop signal: an interrupted
// write leaves nothing beside its destination. Async-signal-safe (unlink only).
void remove_temporary_files() noexcept;

// From the start of every command: a stop signal (SIGINT, SIGTERM, SIGHUP) removes them,
// then ends the process as it would have; a signal the process ignores (nohup) stays
// ignored. The handler is for code that takes the signals over for a while, to hand back.
void remove_temporary_files_when_stopped();
extern "C" void stop_after_removing_temporary_files(int sig);

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
  void forget();  // no longer a file for remove_temporary_files()
  std::string target_, path_;
  int fd_ = -1;
  int slot_ = -1;  // its entry among the files under way, or -1
  bool committed_ = false;
};

// Writes any text output (chart, export, report) that way: an existing `path` survives a
// failed write.
void write_text_file(const std::string& path, const std::string& text);

// One file of a folder written by write_text_folder: a plain name, no '/'.
struct FolderFile {
  std::string name;
  std::string text;
};

// Throws one line unless `path` can become a new folder: nothing there, or an empty
// folder (replaced); never a file, a link or a folder with entries (nothing is written
// over or merged into), and its parent takes new entries.
void check_folder_writable(const std::string& path);

// Writes `files` as the folder `path`, all or nothing: into a new folder beside it
// (mkdtemp), renamed onto `path` once every file is written. A failure or a stop signal
// leaves nothing behind, and `path` as it was.
void write_text_folder(const std::string& path, const std::vector<FolderFile>& files);

}  // namespace rooftop::core
