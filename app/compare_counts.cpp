#include <iostream>

#include "commands.hpp"
#include "rooftop/analyze/count_comparison.hpp"

namespace rooftop::app {

int run_compare_counts(const CompareCountsOptions& options) {
  const analyze::KernelCounts a = analyze::read_kernel_counts(options.a);
  const analyze::KernelCounts b = analyze::read_kernel_counts(options.b);
  writer_for(options.format).counts(std::cout, analyze::compare_counts(a, b));
  return 0;
}

}  // namespace rooftop::app
