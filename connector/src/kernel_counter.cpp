#include "rooftop/connector/kernel_counter.hpp"

#include <cstdio>
#include <exception>
#include <utility>

namespace rooftop::connector {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool counted_kind(const Invocation& k) {
  return is_cuda(k.device_id) && k.depth == 0 && !is_memset_label(k.label);
}

}  // namespace

// Kokkos 4 and 5: "Kokkos::View::initialization [x] via memset" (Kokkos 5's
// View/Kokkos_ViewAlloc.hpp, zero_memset_implementation: a ZeroMemset under this label,
// no kernel).
bool is_memset_label(const std::string& label) { return ends_with(label, " via memset"); }

KernelCounter::KernelCounter(KernelTracker& tracker, ProfileHeader& header,
                             MakeSession make_session, Select select)
    : tracker_(tracker),
      header_(header),
      make_session_(std::move(make_session)),
      select_(std::move(select)) {}

void KernelCounter::give_up(const std::string& why) {
  if (failed_) return;
  failed_ = true;
  header_.notes.push_back("no counters: " + why);
  std::fprintf(stderr, "rooftop connector: no counters, times only: %s\n", why.c_str());
}

void KernelCounter::on_begin(const Invocation& k) {
  if (!counted_kind(k)) return;
  const bool selected = !select_ || select_(k);  // every kernel advances the selection
  std::lock_guard<std::mutex> lock(mutex_);
  ++open_;
  if (counting_ != 0) {
    overlapped_ = true;
    tracker_.add_note(k.label, "some launches overlapped another host thread's counted kernel: "
                               "not counted");
    return;
  }
  if (open_ > 1) {
    tracker_.add_note(k.label, "some launches overlapped another host thread's kernel: "
                               "not counted");
    return;
  }
  if (failed_ || !selected) return;
  try {
    if (!session_) {
      session_ = make_session_();
      busy_setups_ = 0;
      const counters::AutoRangeSetup& s = session_->setup();
      header_.source = "cupti";
      header_.metrics = s.metrics;
      header_.skipped_metrics = s.skipped;
      header_.passes = static_cast<int>(s.passes);
      header_.notes.push_back("CUPTI on " + s.chip + ": " + std::to_string(s.passes) +
                              " replay passes per launch (auto ranges, kernel replay)");
    }
  } catch (const counters::CountersBusy& e) {
    // Another process held the counters while the profiler was set up: this kernel
    // goes uncounted and a later one sets it up again, as the session retries a busy
    // kernel; only a unit held through several set-ups in a row ends counting.
    const std::string why = std::string("another process is profiling this GPU: ") + e.what();
    if (++busy_setups_ >= kBusySetups)
      give_up(why + " (" + std::to_string(busy_setups_) + " set-ups in a row)");
    else
      tracker_.add_note(k.label, "not counted: " + why);
    return;
  } catch (const std::exception& e) {
    give_up(e.what());
    return;
  }
  if (session_->begin()) {
    counting_ = k.id;
    overlapped_ = false;
  } else if (session_->gave_up()) {
    give_up(session_->gave_up_reason());
  }
}

void KernelCounter::on_end(const Invocation& k, double) {
  if (!counted_kind(k)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (open_ > 0) --open_;
  if (!session_) return;
  if (counting_ != k.id) {
    // Began uncounted: the session still owes this kernel's end (its reason, if any).
    if (counting_ == 0 && !session_->gave_up()) {
      const counters::KernelCounts c = session_->end();
      if (!c.reason.empty() && c.reason != "not begun")
        tracker_.add_note(k.label, "not counted: " + c.reason);
    }
    return;
  }
  counting_ = 0;
  const counters::KernelCounts c = session_->end();
  if (overlapped_) {
    overlapped_ = false;
    tracker_.add_note(k.label, "some launches overlapped another host thread's kernel: "
                               "not counted");
  } else if (c.counted) {
    tracker_.add_counters(k.label, c.values);
    ++counted_;
  } else {
    tracker_.add_note(k.label, "not counted: " + c.reason);
  }
  if (session_->gave_up()) give_up(session_->gave_up_reason());
}

bool KernelCounter::counting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counting_ != 0;
}

void KernelCounter::close() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!session_) return;
  if (counting_ != 0) {
    counting_ = 0;
    session_->end();
  }
  header_.notes.push_back("CUPTI profiler set up " + std::to_string(session_->setups()) +
                          " times for " + std::to_string(counted_) + " counted invocations" +
                          (session_->busy_retries() > 0
                               ? ", " + std::to_string(session_->busy_retries()) +
                                     " retries while another process held the counters"
                               : ""));
  session_->close();
  session_.reset();
}

}  // namespace rooftop::connector
