// The ceilings file reader on arbitrary bytes: the bytes are opened as an HDF5 file image
// in memory (the same reading code as a file on disk, without the disk) and read as
// rooftop::ceilings::read_file does. Any outcome but a value or rooftop::Error is a bug.

#include <hdf5.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "h5.hpp"
#include "io_internal.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/ceilings/validate.hpp"

using namespace rooftop::ceilings;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  h5::silence_library_errors();
  if (size < 8) return 0;
  static std::atomic<unsigned long> counter{0};
  const std::string name = "rooftop-fuzz-" + std::to_string(counter++);
  try {
    h5::Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "H5Pcreate");
    h5::check(H5Pset_fapl_core(fapl.get(), 64 * 1024, 0), "H5Pset_fapl_core");
    h5::check(H5Pset_file_image(fapl.get(), const_cast<std::uint8_t*>(data), size),
              "H5Pset_file_image");
    const hid_t id = H5Fopen(name.c_str(), H5F_ACC_RDONLY, fapl.get());
    if (id < 0) return 0;
    h5::Handle file(id, H5Fclose, "H5Fopen");
    validate_ceilings_file(detail::read_ceilings_at(file.get()));
  } catch (const rooftop::Error&) {
  }
  return 0;
}
