#pragma once
// One exception type for the whole project: what went wrong, with enough context
// (file, field, value) that the single line printed by main() is actionable.

#include <stdexcept>
#include <string>

namespace rooftop {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run stopped by the user (Ctrl-C); main() maps it to exit status 130.
class Interrupted : public Error {
 public:
  Interrupted() : Error("interrupted") {}
};

}  // namespace rooftop

// Throw rooftop::Error("file:line: expression: message") when `cond` is false.
#define ROOFTOP_REQUIRE(cond, msg)                                                 \
  do {                                                                             \
    if (!(cond))                                                                   \
      throw ::rooftop::Error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + \
                             ": " #cond ": " + (msg));                             \
  } while (0)
