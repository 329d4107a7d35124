#pragma once
// The bookkeeping of the Kokkos Tools connector, as a plain class: Kokkos calls begin()
// and end() for every labelled parallel_for / parallel_reduce / parallel_scan (through
// the kokkosp_* C entry points, or the in-process callbacks), and the tracker keeps, per
// label, the invocations, the wall time of each (begin to end; Kokkos fences around both
// callbacks unless a tool asks it not to), how deeply it was nested, and any counter
// values an observer (the CUPTI range code) adds. Labels are kept in order of first
// appearance. Thread-safe: Kokkos may launch from several host threads.
//
// Times are inclusive: a kernel begun while another is open on the same host thread adds
// its time to its own label only, and the outer one's time still covers it. Nesting is
// per host thread: a kernel open on another thread does not make one nested.

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace rooftop::connector {

enum class KernelKind { parallel_for, parallel_reduce, parallel_scan };
const char* kind_name(KernelKind kind);  // "parallel_for", ...

// The execution space a Kokkos Tools device id names: its type sits in the top 8 bits in
// Kokkos 3 and 4 alike ("Serial", "OpenMP", "Cuda", "HIP", ..., "unknown").
std::string space_name(std::uint32_t device_id);
bool is_cuda(std::uint32_t device_id);

// One open invocation, as an observer sees it.
struct Invocation {
  std::uint64_t id = 0;
  std::string label;
  KernelKind kind = KernelKind::parallel_for;
  std::uint32_t device_id = 0;
  int depth = 0;  // invocations open on its host thread when it began (0: outermost)
  std::thread::id thread;  // the host thread that began it
};

struct LabelStats {
  std::string label;
  std::vector<std::string> kinds;          // kinds seen under this label, in order
  std::vector<std::string> spaces;         // execution spaces seen, in order
  std::int64_t invocations = 0;            // completed: begin and end seen
  std::int64_t unfinished = 0;             // begun, never ended (counted by finish())
  double total_s = 0.0;                    // sum over completed invocations
  double min_s = 0.0, max_s = 0.0;         // per invocation (0 when none completed)
  int max_depth = 0;                       // deepest nesting seen
  std::map<std::string, double> counters;  // summed values an observer added
  std::int64_t counted_invocations = 0;    // invocations the counters cover
  std::vector<std::string> notes;          // one line each, no duplicates
  // Set where the times come from elsewhere than Kokkos Tools' fenced begin and end
  // (CUPTI's activity records of a CUDA program): said as given, and kept as given.
  std::string time_source;
  std::string source = "kokkos-tools-timing";   // a record's source without counters
};

class KernelTracker {
 public:
  using Clock = std::function<double()>;  // seconds, monotonic

  // Observers run outside the tracker's lock, in the thread that called begin()/end(),
  // and may call add_counters() / add_note().
  class Observer {
   public:
    virtual ~Observer() = default;
    virtual void on_begin(const Invocation& invocation) = 0;
    virtual void on_end(const Invocation& invocation, double seconds) = 0;
  };

  explicit KernelTracker(Clock clock = {});  // default: std::chrono::steady_clock
  KernelTracker(const KernelTracker&) = delete;
  KernelTracker& operator=(const KernelTracker&) = delete;

  void set_observer(Observer* observer);  // not owned; nullptr: none

  // Returns the invocation's id (never 0) for end(). An empty or null label is kept as
  // "(unlabelled)".
  std::uint64_t begin(const char* label, std::uint32_t device_id, KernelKind kind);
  // False for an id that is not open (never begun, or ended already): it is counted in
  // stray_ends() and otherwise ignored.
  bool end(std::uint64_t id);

  void add_counters(const std::string& label, const std::map<std::string, double>& values);
  void add_note(const std::string& label, const std::string& note);

  std::int64_t stray_ends() const;
  std::size_t open_invocations() const;

  // The labels in order of first appearance, with invocations still open counted as
  // unfinished (they stay open: a later end() still completes them).
  std::vector<LabelStats> snapshot() const;

 private:
  struct Open {
    std::size_t label_index;
    Invocation invocation;
    double start_s;
  };
  LabelStats& stats_for(const std::string& label);

  Clock clock_;
  Observer* observer_ = nullptr;
  mutable std::mutex mutex_;
  std::vector<LabelStats> labels_;
  std::map<std::string, std::size_t> index_;
  std::map<std::uint64_t, Open> open_;
  std::uint64_t next_id_ = 1;
  std::int64_t stray_ends_ = 0;
};

}  // namespace rooftop::connector
