// The ceilings file reader on arbitrary bytes: rooftop's reading of a whole file
// (read_ceilings_file, the code under rooftop::ceilings::read_file) on the bytes opened as
// an in-memory file (HDF5's core driver), in this process.
//
// The program reads every file first in a child process forked for it, because libhdf5
// 1.10 itself crashes, loops or asks for gigabytes on some damaged object headers
// (contained_read.hpp; tests/ceilings cover that containment). Here there is no such
// child: a fork per input costs most of an input's time, and only a copy of the reading
// process rehearses its read faithfully. So libhdf5's own crashes end the fuzzing process.
// scripts/fuzz.sh runs this target in libFuzzer's fork mode, which starts a new fuzzing
// process after each such end, with the sanitizers' reports written to a file per
// process: the run passes only if every report lies in libhdf5 and every input that
// ended a process has one (libhdf5_ends there says how a report is read).
//
// Only the file is in memory: the core driver reads the image whole where the program's
// default driver reads by offset, so libhdf5 may fail differently on a damaged file;
// rooftop's code above it is the same.

#include <cstddef>
#include <cstdint>
#include <string>

#include "io_internal.hpp"
#include "rooftop/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    rooftop::ceilings::detail::read_ceilings_image(bytes, "input.h5");
  } catch (const rooftop::Error&) {
  }
  return 0;
}
