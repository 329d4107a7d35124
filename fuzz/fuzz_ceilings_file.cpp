// The ceilings file reader on arbitrary bytes, exactly as `rooftop show FILE` reads them:
// the bytes are written to a file and read with rooftop::ceilings::read_file (HDF5's
// default file driver; its in-memory driver behaves differently on damaged files). Any
// outcome but a value or rooftop::Error is a bug. read_file first reads the file in a
// child process: libhdf5's own crashes there (SIGSEGV, or a sanitizer report inside the
// library) end as rooftop::Error, as they do for a user; everything rooftop reads is then
// read again in this process, where the sanitizers and the coverage see it.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "rooftop/ceilings/io.hpp"
#include "rooftop/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = (std::filesystem::temp_directory_path() /
                                   ("rooftop-fuzz-" + std::to_string(getpid()) + ".h5"))
                                      .string();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  const bool written = std::fwrite(data, 1, size, f) == size;
  std::fclose(f);
  if (written) {
    try {
      rooftop::ceilings::read_file(path);
    } catch (const rooftop::Error&) {
    }
  }
  std::remove(path.c_str());
  return 0;
}
