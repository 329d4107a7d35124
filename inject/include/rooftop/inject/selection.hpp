#pragma once
// Which kernel launches the CUDA injection library counts, as Nsight Compute selects them:
// launches whose demangled name matches a regular expression (anywhere in the name, as
// ncu's `--kernel-name regex:R`), the first `launch_skip` of those skipped, the next
// `launch_count` counted (0: all the rest). The other launches run unreplayed and are
// timed. `rooftop profile` passes the selection to the library through the environment
// variables named here (one table, read on both sides).

#include <cstdint>
#include <functional>
#include <optional>
#include <regex>
#include <string>

namespace rooftop::inject {

// The environment the library reads: what `rooftop profile` sets.
struct EnvironmentNames {
  const char* profile_out;   // the profile file to write at exit
  const char* kernel_regex;  // --kernel-regex
  const char* launch_skip;   // --launch-skip
  const char* launch_count;  // --launch-count
  const char* counters;      // "0": times only, no counters
};
inline constexpr EnvironmentNames kEnvironment = {"ROOFTOP_PROFILE_OUT", "ROOFTOP_KERNEL_REGEX",
                                                  "ROOFTOP_LAUNCH_SKIP", "ROOFTOP_LAUNCH_COUNT",
                                                  "ROOFTOP_CUPTI"};

struct Selection {
  std::string kernel_regex;        // empty: every kernel
  std::int64_t launch_skip = 0;    // matching launches skipped first
  std::int64_t launch_count = 0;   // matching launches counted after them; 0: all
  std::string describe() const;    // for the profile's notes
};

// The selection the environment gives (`get` is getenv in the library, a map in tests).
// Throws rooftop::Error naming the variable for a count that is not a whole number >= 0.
using GetEnv = std::function<const char*(const char*)>;
Selection selection_from_environment(const GetEnv& get);

// Decides launch by launch, in launch order. Not thread-safe: its caller serializes.
class LaunchSelector {
 public:
  // Throws rooftop::Error for a regular expression that does not compile.
  explicit LaunchSelector(Selection selection);
  bool select(const std::string& kernel_name);
  std::int64_t selected() const { return selected_; }
  // Every launch the selection asked for has been selected.
  bool exhausted() const {
    return selection_.launch_count > 0 && selected_ >= selection_.launch_count;
  }

 private:
  Selection selection_;
  std::optional<std::regex> regex_;
  std::int64_t matched_ = 0;   // launches that matched the name so far
  std::int64_t selected_ = 0;  // of them, selected
};

// A launched kernel's name as people read it: core::demangled (what ncu's
// `--kernel-name-base demangled` shows), "(unnamed kernel)" where CUPTI gives none.
std::string demangle(const char* symbol);

}  // namespace rooftop::inject
