// The ceilings file reader on arbitrary bytes: rooftop's reading of a whole file
// (read_ceilings_file, the code under rooftop::ceilings::read_file) on the bytes opened as
// an in-memory file (HDF5's core driver), contained as the program contains it.
//
// The program reads every file first in a child process forked for it and then, only if
// that read ended with a value or rooftop::Error, in itself (contained_read.hpp): the child
// is a copy of the process at that moment, so both reads start from the same state and end
// the same way. This target does the same with read_contained on each input: an input on
// which the child dies (libhdf5 1.10's crashes on damaged object headers, a sanitizer
// report, a time-out or exhaustion) ends as rooftop::Error, as for a user, and everything
// else is read here, where the sanitizers and the coverage see it. A failure here is one
// the program would have. The price, as in the program: a memory error of rooftop's own
// that shows only on an input on which the child dies is not reported.
//
// Only the file is in memory: the core driver reads the image whole where the program's
// default driver reads by offset, so libhdf5 may fail differently on a damaged file;
// rooftop's code above it is the same. The fork is most of the time of an input, and its
// cost grows with this process's memory: scripts/fuzz.sh keeps AddressSanitizer's
// quarantine of freed memory small for this target.

#include <cstddef>
#include <cstdint>
#include <string>

#include "contained_read.hpp"
#include "io_internal.hpp"
#include "rooftop/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string name = "input.h5";
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    rooftop::ceilings::detail::read_contained(
        name, [&] { return rooftop::ceilings::detail::read_ceilings_image(bytes, name); });
  } catch (const rooftop::Error&) {
  }
  return 0;
}
