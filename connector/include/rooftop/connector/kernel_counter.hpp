#pragma once
// Counts each outermost Kokkos kernel on a CUDA execution space with an auto-range
// session (rooftop/counters/auto_ranges.hpp): a KernelTracker observer, apart from CUPTI
// so that its rules are tested without a GPU.
//
// An auto range covers every launch on the context, whichever host thread made it, so
// one invocation's counts must never take in another thread's kernels:
//   - a kernel that begins while another host thread's CUDA kernel is open is not
//     counted, and the kernel being counted, if any, is marked overlapped and not
//     counted either (its counts would hold both);
//   - a kernel nested in another on the same thread is inside the outer one's range.
// A View initialised by cudaMemset ("... via memset") launches no kernel: not counted,
// at no cost. Counters that cannot be had for a kernel leave it with a note and times
// only; counting ends for the run only where the session gives up, where the profiler
// cannot be set up, or where another process holds the counters through kBusySetups
// set-ups in a row.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "rooftop/connector/kernel_tracker.hpp"
#include "rooftop/connector/profile_file.hpp"
#include "rooftop/counters/auto_ranges.hpp"

namespace rooftop::connector {

// True for the labels of Kokkos's View initialisations done by cudaMemset.
bool is_memset_label(const std::string& label);

class KernelCounter final : public KernelTracker::Observer {
 public:
  // `make_session` is called at the first CUDA kernel (the CUDA context exists by then);
  // it may throw: CountersBusy leaves that kernel uncounted and the next one calls it
  // again; anything else ends counting for the run with its reason.
  using MakeSession = std::function<std::unique_ptr<counters::AutoRangeSession>()>;
  // Which outermost CUDA kernels are counted (empty: all). It is asked once per kernel,
  // in launch order; the kernels it declines still take part in the overlap rules.
  using Select = std::function<bool(const Invocation&)>;
  KernelCounter(KernelTracker& tracker, ProfileHeader& header, MakeSession make_session,
                Select select = {});

  void on_begin(const Invocation& invocation) override;
  void on_end(const Invocation& invocation, double seconds) override;

  // At finalize, while CUDA is alive: a kernel begun and never ended is closed, the
  // profiler disabled, and how often it was set up noted in the header.
  void close();

  // Whether a kernel is being counted now: a launch that begins while it is, is
  // replayed with it.
  bool counting() const;

  // Set-ups in a row that find the counters busy before counting ends for the run.
  static constexpr int kBusySetups = 3;

 private:
  void give_up(const std::string& why);  // with mutex_ held

  KernelTracker& tracker_;
  ProfileHeader& header_;
  MakeSession make_session_;
  Select select_;
  mutable std::mutex mutex_;
  std::unique_ptr<counters::AutoRangeSession> session_;
  bool failed_ = false;
  int busy_setups_ = 0;         // set-ups in a row refused: the counters were busy
  int open_ = 0;                // outermost CUDA kernels open, all threads
  std::uint64_t counting_ = 0;  // the invocation being counted; 0: none
  bool overlapped_ = false;     // another thread's kernel began while it was counted
  std::int64_t counted_ = 0;    // invocations counted
};

}  // namespace rooftop::connector
