#pragma once
// Reading an HDF5 file without letting libhdf5 take the program down. libhdf5 1.10
// itself crashes (SIGSEGV in H5Aexists), loops or asks for gigabytes on some damaged
// object headers, before rooftop sees anything it could check. So every file is read
// twice: first in a child process that may die, under a memory and a time limit; then,
// only if the child's read ended (with a result or with rooftop::Error), here, under the
// same memory limit. Reading is deterministic, so the second read ends as the first did.
// Every file, not only those without metadata checksums (superblock 0 or 1): a checksum
// guards against accidental damage, not against a crafted file, and a file with a
// version 2 superblock may still hold version 1 object headers, which carry none.
// The program reads its files before Kokkos starts, so the child is a copy of one thread;
// where other threads exist (test programs), the child still runs nothing but the read,
// and ends with _exit. Private to this library.

#include <functional>
#include <string>

namespace rooftop::ceilings::detail {

// The limits of a read: its address space may grow by `memory_bytes`, and the child
// gets `seconds` before it is killed. A real ceilings or fleet file needs a few MiB and
// well under a second.
struct ReadLimits {
  unsigned long long memory_bytes = 2ULL << 30;
  int seconds = 10;
};

// Runs `read` in a child process and returns when it ended with a result or with
// rooftop::Error; throws rooftop::Error ("<path>: damaged HDF5 file: ...") when the child
// was killed by a signal, ran out of time or memory, or ended otherwise.
void rehearse_read(const std::string& path, const std::function<void()>& read,
                   const ReadLimits& limits = {});

// Lowers this process's address-space limit to `bytes` above what it uses now, for its
// lifetime (the soft limit only; it is restored after).
class ReadMemoryLimit {
 public:
  explicit ReadMemoryLimit(unsigned long long bytes = ReadLimits{}.memory_bytes);
  ~ReadMemoryLimit();
  ReadMemoryLimit(const ReadMemoryLimit&) = delete;
  ReadMemoryLimit& operator=(const ReadMemoryLimit&) = delete;

 private:
  unsigned long long saved_soft_ = 0;
  bool lowered_ = false;
};

// What `read(path)` returns, read as the comment at the top says.
template <class Read>
auto read_contained(const std::string& path, Read read) {
  rehearse_read(path, [&] { read(); });
  const ReadMemoryLimit limit;
  return read();
}

}  // namespace rooftop::ceilings::detail
