#pragma once
// This machine's host name, read in one place (files record where they were measured).

#include <string>

namespace rooftop::core {

// gethostname's answer; empty where the system gives none.
std::string host_name();

}  // namespace rooftop::core
