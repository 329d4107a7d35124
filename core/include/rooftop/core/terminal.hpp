#pragma once
// Text from files (host names, CPU models, kernel names) printed to a terminal: control
// characters are escaped, so that a file cannot move the cursor, clear the screen or
// retitle the window (ESC sequences, and their one-byte C1 forms in UTF-8).

#include <string>
#include <string_view>

namespace rooftop::core {

// `text` with every control character but line break and tab written as \xHH (C1 controls
// as \u00HH); everything else, UTF-8 included, unchanged.
std::string terminal_text(const std::string& text);

// terminal_text for a value printed within a line: line breaks and tabs too are written
// as \n \r \t, so that a value cannot split the line it is printed in.
std::string terminal_line(std::string_view text);

// A value from a file quoted for a one-line message, the one rule for every reader:
// "in double quotes", line breaks and tabs as \n \r \t, other control characters as
// terminal_text writes them, cut after 64 bytes with "...".
std::string quoted(std::string_view text);

}  // namespace rooftop::core
