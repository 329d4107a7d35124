#pragma once
// Text from files (host names, CPU models, kernel names) printed to a terminal: control
// characters are escaped, so that a file cannot move the cursor, clear the screen or
// retitle the window (ESC sequences, and their one-byte C1 forms in UTF-8).

#include <string>

namespace rooftop::core {

// `text` with every control character but line break and tab written as \xHH (C1 controls
// as \u00HH); everything else, UTF-8 included, unchanged.
std::string terminal_text(const std::string& text);

}  // namespace rooftop::core
