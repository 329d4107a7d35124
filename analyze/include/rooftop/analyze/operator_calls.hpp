#pragma once
// The operator calls of a real PyTorch run, for a model's prediction to be joined to
// (llm --trace): a torch.profiler trace (each call, with its layer; on a GPU timed by the
// kernels it launched), or the kernels file of `profile --torch --out` (a record of each
// operator name and shapes, in no layer).

#include <string>

#include "rooftop/counters/import.hpp"

namespace rooftop::analyze {

// rooftop::Error, one line: a file that is neither, a kernels file without kernels.
counters::OperatorCalls read_operator_calls(const std::string& path);

}  // namespace rooftop::analyze
