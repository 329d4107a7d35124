#pragma once
// One exception type for the whole project: what went wrong, with enough context
// (file, field, value) that the single line printed by main() is actionable.

#include <stdexcept>
#include <string>
#include <vector>

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

// One step of a run that goes on without it: a failure is recorded in `skipped` as
// "<name>: <reason>" and false returned. Without a `skipped` list the failure
// propagates; an interruption always does.
template <class Step>
bool run_or_skip(std::vector<std::string>* skipped, const std::string& name, Step&& step) {
  if (!skipped) {
    step();
    return true;
  }
  try {
    step();
    return true;
  } catch (const Interrupted&) {
    throw;
  } catch (const std::exception& e) {
    skipped->push_back(name + ": " + e.what());
    return false;
  }
}

}  // namespace rooftop

// Throw rooftop::Error("file:line: expression: message") when `cond` is false.
#define ROOFTOP_REQUIRE(cond, msg)                                                 \
  do {                                                                             \
    if (!(cond))                                                                   \
      throw ::rooftop::Error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + \
                             ": " #cond ": " + (msg));                             \
  } while (0)
