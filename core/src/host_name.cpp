#include "rooftop/core/host_name.hpp"

#include <unistd.h>

namespace rooftop::core {

std::string host_name() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) return {};
  return host;
}

}  // namespace rooftop::core
