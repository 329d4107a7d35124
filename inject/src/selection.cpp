#include "rooftop/inject/selection.hpp"

#include <cerrno>
#include <cstdlib>

#include "rooftop/core/demangle.hpp"
#include "rooftop/core/error.hpp"

namespace rooftop::inject {
namespace {

std::int64_t whole_number(const GetEnv& get, const char* variable) {
  const char* text = get(variable);
  if (!text || !*text) return 0;
  char* end = nullptr;
  errno = 0;
  const long long n = std::strtoll(text, &end, 10);
  if (*end != '\0' || errno != 0 || n < 0)
    throw Error(std::string(variable) + "=" + text + ": not a whole number >= 0");
  return n;
}

}  // namespace

std::string Selection::describe() const {
  std::string s = kernel_regex.empty() ? "every kernel" : "kernels matching /" + kernel_regex + "/";
  if (launch_skip > 0) s += ", the first " + std::to_string(launch_skip) + " launches skipped";
  s += launch_count > 0 ? ", " + std::to_string(launch_count) + " launches counted"
                        : ", every launch counted";
  return s;
}

Selection selection_from_environment(const GetEnv& get) {
  Selection s;
  if (const char* r = get(kEnvironment.kernel_regex)) s.kernel_regex = r;
  s.launch_skip = whole_number(get, kEnvironment.launch_skip);
  s.launch_count = whole_number(get, kEnvironment.launch_count);
  return s;
}

LaunchSelector::LaunchSelector(Selection selection) : selection_(std::move(selection)) {
  if (selection_.kernel_regex.empty()) return;
  try {
    regex_.emplace(selection_.kernel_regex, std::regex::ECMAScript | std::regex::optimize);
  } catch (const std::regex_error& e) {
    throw Error("kernel regex /" + selection_.kernel_regex + "/ does not compile: " + e.what());
  }
}

bool LaunchSelector::select(const std::string& kernel_name) {
  if (exhausted()) return false;
  if (regex_ && !std::regex_search(kernel_name, *regex_)) return false;
  if (matched_++ < selection_.launch_skip) return false;
  ++selected_;
  return true;
}

std::string demangle(const char* symbol) {
  if (!symbol || !*symbol) return "(unnamed kernel)";
  return core::demangled(symbol);
}

}  // namespace rooftop::inject
