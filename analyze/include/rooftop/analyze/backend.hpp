#pragma once
// Measurement backends: where a kernel's counts and time come from. One interface, so
// the roofline math, the tables, the file and the chart treat every source alike:
//   host    runs kernels here, times them with fences, counts declared by each kernel
//   cupti   runs kernels on an NVIDIA GPU, counts from the Range Profiler (CUDA build)
//   import  reads another tool's measurements (Nsight Compute or nvprof CSV)
//   profile runs an unmodified Kokkos program with rooftop's Kokkos Tools connector loaded

#include <string>
#include <vector>

#include "rooftop/analyze/cost_model.hpp"
#include "rooftop/core/model.hpp"

namespace rooftop::analyze {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;

  // Blocking. One record per kernel with counts, time, source and check filled; the
  // fields derived against ceilings are left to the roofline math. Anything a user must
  // know about the counts (a metric missing, how a time was derived) goes to `notes`,
  // one line each.
  virtual std::vector<core::KernelRecord> collect(std::vector<std::string>& notes) = 0;

  // What counting costs each kernel, for the estimate said before collect() (a backend
  // that counts may set itself up to know it); nothing where the backend counts nothing.
  virtual Counting counting() { return {}; }
};

}  // namespace rooftop::analyze
