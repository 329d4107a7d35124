#pragma once
// CUPTI's callbacks on CUDA kernel launches and its activity records of the kernels that
// ran, for a library that watches a whole program (the CUDA injection library). Compiled
// only in the CUDA build with CUPTI. Every launch entry point of the runtime and the
// driver is one row of a table (cupti_launches.cpp); a runtime launch calls the driver's
// inside it, and both are reported, on the same thread.
//
// One CUPTI subscriber per process: where another tool holds it (a profiler of the
// program's own, torch.profiler's CUPTI), trace_launches() throws CountersRefused.

#include <cstddef>
#include <cstdint>

namespace rooftop::counters::cupti {

class LaunchListener {
 public:
  virtual ~LaunchListener() = default;
  // A launch API call enters and exits on the calling thread; `symbol` is the kernel's
  // symbol as CUPTI gives it (mangled; may be null), `correlation` the call's id.
  virtual void launch_enter(const char* symbol, std::uint32_t correlation) = 0;
  virtual void launch_exit() = 0;
  // A kernel ran (nanoseconds of CUPTI's clock); its launch call had `correlation`.
  virtual void kernel_ran(const char* symbol, std::uint32_t correlation, std::uint64_t start_ns,
                          std::uint64_t end_ns) = 0;
  // A CUDA context is about to be destroyed: whatever profiles it must stop now.
  virtual void context_ending() = 0;
  // Activity records CUPTI dropped (buffers full).
  virtual void records_dropped(std::size_t count) = 0;
};

// Subscribes `listener` (which must outlive the process's CUDA use) to every kernel
// launch, to context destruction, and to concurrent-kernel activity records. Throws
// rooftop::Error, CountersRefused where the subscriber slot is taken.
void trace_launches(LaunchListener& listener);

// Hands every buffered activity record to the listener (call before reading totals).
void flush_kernel_records() noexcept;

}  // namespace rooftop::counters::cupti
