#pragma once
// The one progress callback: long work (a sweep, a list of kernels) reports that `done`
// of `total` steps are finished and names the one starting in `what` (empty once all
// are done). An empty function: nobody is listening.

#include <cstddef>
#include <functional>
#include <string>

namespace rooftop::core {

using Progress = std::function<void(std::size_t done, std::size_t total, const std::string& what)>;

}  // namespace rooftop::core
