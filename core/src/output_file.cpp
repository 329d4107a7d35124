#include "rooftop/core/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "rooftop/core/error.hpp"

namespace rooftop::core {
namespace {

// The temporary files under way, for remove_temporary_files(): fixed entries that a
// signal handler can read without locks or allocation. A path is readable only once its
// entry is live; a name too long for an entry is not listed (its file can be left over).
enum SlotState : int { kFree, kFilling, kLive };
struct Slot {
  std::atomic<int> state{kFree};
  char path[4096];
};
Slot g_slots[16];

int claim_slot(const std::string& path) {
  if (path.size() >= sizeof(Slot::path)) return -1;
  for (int i = 0; i < static_cast<int>(std::size(g_slots)); ++i) {
    int expected = kFree;
    if (g_slots[i].state.compare_exchange_strong(expected, kFilling)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
      g_slots[i].state = kLive;
      return i;
    }
  }
  return -1;
}

void release_slot(int slot) {
  if (slot >= 0) g_slots[slot].state = kFree;
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::equivalent(a, b, ec) && !ec) return true;
  // absolute first: GCC 12 leaves a relative name of no existing file as it is
  const fs::path ca = fs::weakly_canonical(fs::absolute(a, ec), ec);
  if (ec) return a == b;
  const fs::path cb = fs::weakly_canonical(fs::absolute(b, ec), ec);
  return ec ? a == b : ca == cb;
}

namespace {

// The file a destination names: itself, or where the symbolic links there lead (a file
// that does not exist yet included).
std::string resolved(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p = path;
  for (int hops = 0; hops < 40; ++hops) {  // the kernel's own limit on a chain of links
    std::error_code ec;
    if (!fs::is_symlink(p, ec)) return p.string();
    const fs::path next = fs::read_symlink(p, ec);
    if (ec) throw Error(path + ": cannot follow its link (" + ec.message() + ")");
    p = next.is_absolute() ? next : p.parent_path() / next;
  }
  throw Error(path + ": a chain of links that does not end; not written through");
}

// `mode` less the umask: what open() and mkdir() would have given (mkstemp and mkdtemp
// give 0600 and 0700).
mode_t permitted(mode_t mode) {
  static const mode_t mask = [] {
    const mode_t m = umask(0);
    umask(m);
    return m;
  }();
  return static_cast<mode_t>(mode & ~mask);
}

void write_all(int fd, const std::string& text, const std::string& path) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(path + ": write failed (" + std::strerror(errno) + ")");
    done += static_cast<std::size_t>(n);
  }
}

// A folder's name without the '/' it may end in.
std::string folder_path(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

// A new folder beside `target`, removed with its files unless commit() renamed it onto
// `target`; it and each file in it are listed for remove_temporary_files() until then.
class TempFolder {
 public:
  explicit TempFolder(const std::string& target) : target_(target) {
    std::string pattern = target + ".tmpXXXXXX";
    if (!mkdtemp(pattern.data()))
      throw Error(target + ": cannot create a folder here (" + std::strerror(errno) + ")");
    path_ = pattern;
    slots_.push_back(claim_slot(path_));
  }
  ~TempFolder() {
    std::error_code ec;
    if (!committed_) std::filesystem::remove_all(path_, ec);
    for (int slot : slots_) release_slot(slot);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  void add(const FolderFile& file) {
    ROOFTOP_REQUIRE(!file.name.empty() && file.name.find('/') == std::string::npos &&
                        file.name != "." && file.name != "..",
                    "a folder's file needs a plain name, not '" + file.name + "'");
    const std::string path = path_ + "/" + file.name, shown = target_ + "/" + file.name;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) throw Error(shown + ": cannot write (" + std::strerror(errno) + ")");
    slots_.push_back(claim_slot(path));
    try {
      write_all(fd, file.text, shown);
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0) throw Error(shown + ": write failed (" + std::strerror(errno) + ")");
  }

  void commit() {
    if (chmod(path_.c_str(), permitted(0777)) != 0 ||
        std::rename(path_.c_str(), target_.c_str()) != 0)
      throw Error(target_ + ": cannot replace (" + std::strerror(errno) + ")");
    committed_ = true;
  }

 private:
  std::string target_, path_;
  std::vector<int> slots_;
  bool committed_ = false;
};

}  // namespace

void check_writable(const std::string& path, const std::vector<std::string>& inputs) {
  if (path.empty()) throw Error("output path is empty");
  if (path.back() == '/') throw Error(path + ": is a directory, not a file name");
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw Error(path + ": is a directory, not a file name");
    if (!S_ISREG(st.st_mode)) throw Error(path + ": not a regular file; will not replace it");
  }
  for (const std::string& input : inputs)
    if (!input.empty() && same_file(path, input))
      throw Error(path + ": is also an input of this command (" + input +
                  "); write the output to another file");
  TempFile probe(path);  // the folder exists and takes new files
}

void check_apart(const std::string& first, const std::string& second) {
  if (!first.empty() && !second.empty() && same_file(first, second))
    throw Error(second + ": names the same file as " + first +
                ", another output of this command; give each output its own file");
}

void remove_temporary_files() noexcept {
  for (Slot& s : g_slots)
    if (s.state.load() == kLive) ::unlink(s.path);
  for (Slot& s : g_slots)  // then the folders, their files gone
    if (s.state.load() == kLive) ::rmdir(s.path);
}

extern "C" void stop_after_removing_temporary_files(int sig) {
  remove_temporary_files();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void remove_temporary_files_when_stopped() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    if (std::signal(sig, stop_after_removing_temporary_files) == SIG_IGN)
      std::signal(sig, SIG_IGN);
}

TempFile::TempFile(const std::string& target) {
  if (target.empty()) throw Error("output path is empty");
  target_ = resolved(target);
  std::vector<char> pattern(target_.begin(), target_.end());
  for (char c : std::string(".tmpXXXXXX")) pattern.push_back(c);
  pattern.push_back('\0');
  fd_ = mkstemp(pattern.data());
  if (fd_ < 0) throw Error(target + ": cannot write here (" + std::strerror(errno) + ")");
  path_ = pattern.data();
  slot_ = claim_slot(path_);
}

TempFile::~TempFile() {
  close_fd();
  if (!committed_) std::remove(path_.c_str());
  forget();
}

void TempFile::forget() {
  release_slot(slot_);
  slot_ = -1;
}

void TempFile::close_fd() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void TempFile::commit() {
  if (chmod(path_.c_str(), permitted(0666)) != 0 ||
      std::rename(path_.c_str(), target_.c_str()) != 0)
    throw Error(target_ + ": cannot replace (" + std::strerror(errno) + ")");
  committed_ = true;
  forget();  // renamed: a stop signal now must not remove it
}

void write_text_file(const std::string& path, const std::string& text) {
  check_writable(path);
  TempFile tmp(path);
  write_all(tmp.fd(), text, path);
  tmp.close_fd();
  tmp.commit();
}

void check_folder_writable(const std::string& path) {
  if (path.empty()) throw Error("output path is empty");
  const std::string folder = folder_path(path);
  struct stat st {};
  if (lstat(folder.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      throw Error(path + ": is a symbolic link; give the name of a new folder");
    if (!S_ISDIR(st.st_mode))
      throw Error(path + ": is a file, not a folder; give the name of a new folder");
    std::error_code ec;
    const bool empty = std::filesystem::is_empty(folder, ec);
    if (ec) throw Error(path + ": cannot read the folder (" + ec.message() + ")");
    if (!empty)
      throw Error(path +
                  ": is a folder with files in it; nothing is written over them (give the name "
                  "of a new folder)");
  }
  TempFolder probe(folder);  // its parent takes new folders
}

void write_text_folder(const std::string& path, const std::vector<FolderFile>& files) {
  check_folder_writable(path);
  TempFolder folder(folder_path(path));
  for (const FolderFile& file : files) folder.add(file);
  folder.commit();
}

}  // namespace rooftop::core
