#include "rooftop/counters/auto_ranges.hpp"

#include <thread>
#include <utility>

namespace rooftop::counters {

AutoRangeSession::AutoRangeSession(std::unique_ptr<AutoRangeTarget> target,
                                   AutoRangeOptions options)
    : target_(std::move(target)), options_(std::move(options)) {
  if (!target_) throw Error("auto-range session without a target");
  if (options_.busy_tries < 1) options_.busy_tries = 1;
  if (options_.failures_before_giving_up < 1) options_.failures_before_giving_up = 1;
  if (!options_.sleep)
    options_.sleep = [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); };
  setup_ = target_->setup();
}

AutoRangeSession::~AutoRangeSession() { close(); }

void AutoRangeSession::close() noexcept {
  if (started_) {
    try {
      target_->stop();
    } catch (...) {  // the disable below is what matters
    }
    started_ = false;
  }
  if (enabled_) {
    target_->disable();
    enabled_ = false;
  }
}

void AutoRangeSession::fail(const std::string& why, bool lasting) {
  close();  // the next kernel sets the profiler up afresh
  pending_reason_ = why;
  if (lasting || ++failures_in_a_row_ >= options_.failures_before_giving_up)
    gave_up_reason_ = lasting ? why
                              : why + " (" + std::to_string(failures_in_a_row_) +
                                    " kernels in a row)";
}

bool AutoRangeSession::begin() {
  pending_reason_.clear();
  if (gave_up()) {
    pending_reason_ = gave_up_reason_;
    return false;
  }
  if (started_) {
    pending_reason_ = "a kernel began before the previous one ended";
    return false;
  }
  std::chrono::milliseconds wait = options_.busy_wait;
  std::string busy;
  for (int attempt = 1; attempt <= options_.busy_tries; ++attempt) {
    try {
      if (!enabled_) {
        target_->enable();
        enabled_ = true;
        ++setups_;
      }
      target_->reset_image();
      target_->start();
      started_ = true;
      return true;
    } catch (const CountersBusy& e) {
      close();
      busy = e.what();
      if (attempt < options_.busy_tries) {
        ++busy_retries_;
        options_.sleep(wait);
        wait *= 2;
      }
    } catch (const CountersRefused& e) {
      fail(e.what(), true);
      return false;
    } catch (const std::exception& e) {
      fail(e.what(), false);
      return false;
    }
  }
  fail("another process is profiling this GPU (ncu, nsys, DCGM, or another rank on it): " +
           busy + "; tried " + std::to_string(options_.busy_tries) + " times",
       false);
  return false;
}

KernelCounts AutoRangeSession::end() {
  KernelCounts out;
  if (!started_) {
    out.reason = pending_reason_.empty() ? "not begun" : pending_reason_;
    pending_reason_.clear();
    return out;
  }
  try {
    target_->stop();
    started_ = false;
    out.ranges = target_->decode();
    out.dropped = target_->dropped();
    for (std::size_t r = 0; r < out.ranges; ++r)
      cupti::accumulate(out.values, target_->evaluate(r));
  } catch (const CountersBusy& e) {
    fail(e.what(), false);
    out.reason = pending_reason_;
    return out;
  } catch (const CountersRefused& e) {
    fail(e.what(), true);
    out.reason = pending_reason_;
    return out;
  } catch (const std::exception& e) {
    fail(e.what(), false);
    out.reason = pending_reason_;
    return out;
  }
  failures_in_a_row_ = 0;
  if (out.dropped > 0) {
    out.reason = std::to_string(out.dropped) +
                 " CUDA launches more than the counter-data image holds: not counted";
    return out;
  }
  out.counted = true;  // zero ranges too: a kernel with no CUDA launch did no GPU work
  return out;
}

}  // namespace rooftop::counters
