#pragma once
// The host backend: runs kernels here, times each run with fences around it (run() is
// blocking), takes several samples, checks the answer after timing, and records the
// counts the kernel declares (an analytic model: CPUs here have no usable counters).

#include <atomic>
#include <functional>
#include <string>

#include "rooftop/analyze/backend.hpp"
#include "rooftop/analyze/kernel.hpp"

namespace rooftop::analyze {

struct HostTiming {
  int samples = 5;                 // at most
  double min_sample_seconds = 0.05;  // shorter runs are repeated inside one sample
  double budget_seconds = 6.0;     // per kernel: stop sampling past it (at least one sample)
  const std::atomic<bool>* cancel = nullptr;
};

using KernelProgress = std::function<void(std::size_t done, std::size_t total, const std::string&)>;

class HostBackend final : public Backend {
 public:
  HostBackend(KernelList kernels, HostTiming timing, KernelProgress progress = {});
  std::string name() const override { return "host"; }
  std::vector<ceilings::KernelRecord> collect(std::vector<std::string>& notes) override;

 private:
  KernelList kernels_;
  HostTiming timing_;
  KernelProgress progress_;
};

}  // namespace rooftop::analyze
