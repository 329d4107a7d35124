#pragma once
// Reading an input file whole, with a limit: a reader never takes more memory than the
// limit allows, whatever it is given (/dev/zero, a runaway log).

#include <cstddef>
#include <string>
#include <vector>

namespace rooftop::core {

// The contents of `path`. Throws one line naming the file: it cannot be opened (with the
// system's reason, e.g. "Permission denied"), is a directory or another file that is not
// a regular one (a named pipe would block until a writer came, a terminal until input),
// or holds more than `limit` bytes (the message names the limit and `what` the file is).
std::string read_input_file(const std::string& path, std::size_t limit, const char* what);

// Throws the same lines as read_input_file where `path` cannot be read as a regular file,
// without opening it: for readers that open the file themselves.
void require_regular_file(const std::string& path);

// Throws "B: given twice (as A); <why>" where two of `paths` name one file (under two
// names or through a link as well): one file read twice would count its contents twice.
void check_distinct(const std::vector<std::string>& paths, const std::string& why);

}  // namespace rooftop::core
