#pragma once
// What the CUDA injection library does with the launches CUPTI tells it of, apart from
// CUPTI so that it is tested without a GPU:
//   - each kernel launch API call (runtime or driver; a runtime launch calls the driver's
//     inside it, on the same thread, and is one launch) goes to a KernelTracker under
//     the kernel's demangled name, so launches are summed by name;
//   - the launches the selection picks are counted by the connector's KernelCounter
//     (auto ranges, kernel replay: the same session, overlap and failure rules as the
//     Kokkos connector's), the others run as the program launched them;
//     once the selection is exhausted, the profiler is shut down, so that the rest of
//     the run goes as it would unprofiled;
//   - every kernel's time is that of its launches that were not replayed, from CUPTI's
//     activity records (joined to the launch by correlation id): a replayed launch's
//     records hold the replays, and the header says how many CUPTI gave;
//   - the labels it hands to the profile writer (rooftop/connector/profile_file.hpp):
//     a counted kernel covers its counted launches (their summed counts, and the mean
//     time of its unreplayed launches times their number, so that FLOP/s are those of
//     an unprofiled run); a kernel never counted has the time of all its launches.
// Thread-safe: launches may come from any host thread.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "rooftop/connector/kernel_counter.hpp"
#include "rooftop/connector/kernel_tracker.hpp"
#include "rooftop/connector/profile_file.hpp"
#include "rooftop/inject/selection.hpp"

namespace rooftop::inject {

// The unreplayed runs of one kernel name, from CUPTI's activity records.
struct KernelTimes {
  std::int64_t runs = 0;
  double total_s = 0.0, min_s = 0.0, max_s = 0.0;
};

class LaunchProfile final : private connector::KernelTracker::Observer {
 public:
  // `make_session` as KernelCounter takes it; null: times only (no counters).
  LaunchProfile(Selection selection, connector::KernelCounter::MakeSession make_session);
  ~LaunchProfile() override;
  LaunchProfile(const LaunchProfile&) = delete;
  LaunchProfile& operator=(const LaunchProfile&) = delete;

  // A launch API call enters and exits on the calling thread; `symbol` is the kernel's
  // (mangled) symbol, `correlation` the call's CUPTI correlation id.
  void launch_enter(const char* symbol, std::uint32_t correlation);
  void launch_exit();

  // One kernel CUPTI's activity records saw run (nanoseconds).
  void kernel_ran(const char* symbol, std::uint32_t correlation, std::uint64_t start_ns,
                  std::uint64_t end_ns);

  // Notes for the profile's header (dropped activity records, say).
  void add_note(const std::string& note);

  // Counting ends (before the CUDA context goes, and at exit); idempotent.
  void close();

  // Launches seen by the callbacks, and kernel runs seen by the activity records.
  std::int64_t launches() const;
  std::int64_t kernel_runs() const;

  connector::ProfileHeader header() const;
  std::vector<connector::LabelStats> labels() const;

 private:
  void on_begin(const connector::Invocation& invocation) override;
  void on_end(const connector::Invocation& invocation, double seconds) override;

  struct Open {  // the outermost launch call open on a host thread
    std::uint64_t id = 0;  // the tracker's
    int depth = 0;         // launch calls open on the thread, the outermost included
    bool replayed = false;
  };

  std::mutex selector_mutex_;  // launches are selected from any host thread
  LaunchSelector selector_;
  std::string selection_note_;
  connector::KernelTracker tracker_;
  connector::ProfileHeader header_;
  std::unique_ptr<connector::KernelCounter> counter_;
  mutable std::mutex mutex_;
  std::map<std::thread::id, Open> open_;
  // Correlation ids of launches run under replay, kept for the run: every activity
  // record of such a launch is set aside, however many CUPTI gives for one.
  std::unordered_set<std::uint32_t> replayed_;
  std::set<std::uint64_t> replayed_ids_;  // tracker ids, from on_begin to launch_enter
  std::map<std::string, KernelTimes> timed_;
  std::vector<std::string> timed_order_;  // names first seen in an activity record
  std::int64_t launches_ = 0, runs_ = 0;
  std::int64_t replayed_launches_ = 0, replayed_records_ = 0;
  bool closed_ = false;
};

}  // namespace rooftop::inject
