// The ERT roofline.json import on arbitrary text. Any outcome but a ceilings file or
// rooftop::Error is a bug (nlohmann's own exceptions included: they must not leak).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rooftop/core/error.hpp"
#include "rooftop/ceilings/ert.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> skipped;
  try {
    rooftop::ceilings::parse_ert_text(text, "roofline.json", &skipped);
  } catch (const rooftop::Error&) {
  }
  return 0;
}
