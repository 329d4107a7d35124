#pragma once
// Reading an input file whole, with a limit: a reader never takes more memory than the
// limit allows, whatever it is given (/dev/zero, a runaway log).

#include <cstddef>
#include <string>

namespace rooftop::core {

// The contents of `path`. Throws one line naming the file: it cannot be opened (with the
// system's reason, e.g. "Permission denied"), is a directory, or holds more than
// `limit` bytes (the message names the limit and `what` the file is).
std::string read_input_file(const std::string& path, std::size_t limit, const char* what);

}  // namespace rooftop::core
