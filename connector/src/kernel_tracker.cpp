#include "rooftop/connector/kernel_tracker.hpp"

#include <algorithm>
#include <chrono>

#include "rooftop/core/first_seen.hpp"

namespace rooftop::connector {
namespace {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

}  // namespace

const char* kind_name(KernelKind kind) {
  switch (kind) {
    case KernelKind::parallel_for: return "parallel_for";
    case KernelKind::parallel_reduce: return "parallel_reduce";
    case KernelKind::parallel_scan: return "parallel_scan";
  }
  return "unknown";
}

std::string space_name(std::uint32_t device_id) {
  // Kokkos::Tools::Experimental::DeviceType, the same order in Kokkos 3.4 to 5.x (5.x
  // keeps slot 4 for the removed OpenMPTarget and adds NextSilicon).
  static const char* const names[] = {"Serial",  "OpenMP",  "Cuda", "HIP",
                                      "OpenMPTarget", "HPX", "Threads", "SYCL",
                                      "OpenACC", "NextSilicon"};
  const std::uint32_t type = device_id >> 24;
  return type < sizeof names / sizeof names[0] ? names[type] : "unknown";
}

bool is_cuda(std::uint32_t device_id) { return (device_id >> 24) == 2; }

KernelTracker::KernelTracker(Clock clock)
    : clock_(clock ? std::move(clock) : Clock(steady_seconds)) {}

void KernelTracker::set_observer(Observer* observer) {
  std::lock_guard<std::mutex> lock(mutex_);
  observer_ = observer;
}

LabelStats& KernelTracker::stats_for(const std::string& label) {
  return core::first_seen_entry(labels_, index_, label, &LabelStats::label);
}

std::uint64_t KernelTracker::begin(const char* label, std::uint32_t device_id, KernelKind kind) {
  Observer* observer = nullptr;
  Invocation invocation;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    invocation.id = next_id_++;
    invocation.label = label && *label ? label : "(unlabelled)";
    invocation.kind = kind;
    invocation.device_id = device_id;
    invocation.thread = std::this_thread::get_id();
    for (const auto& [id, open] : open_)
      if (open.invocation.thread == invocation.thread) ++invocation.depth;
    LabelStats& s = stats_for(invocation.label);
    add_unique(s.kinds, kind_name(kind));
    add_unique(s.spaces, space_name(device_id));
    s.max_depth = std::max(s.max_depth, invocation.depth);
    observer = observer_;
  }
  // The observer starts its work before the clock does, so its cost stays out of the time.
  if (observer) observer->on_begin(invocation);
  const double start = clock_();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    open_.emplace(invocation.id, Open{index_.at(invocation.label), invocation, start});
  }
  return invocation.id;
}

bool KernelTracker::end(std::uint64_t id) {
  const double stop = clock_();
  Observer* observer = nullptr;
  Invocation invocation;
  double seconds = 0.0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = open_.find(id);
    if (it == open_.end()) {
      ++stray_ends_;
      return false;
    }
    seconds = std::max(0.0, stop - it->second.start_s);
    LabelStats& s = labels_[it->second.label_index];
    s.min_s = s.invocations == 0 ? seconds : std::min(s.min_s, seconds);
    s.max_s = std::max(s.max_s, seconds);
    s.total_s += seconds;
    ++s.invocations;
    invocation = std::move(it->second.invocation);
    open_.erase(it);
    observer = observer_;
  }
  if (observer) observer->on_end(invocation, seconds);
  return true;
}

void KernelTracker::add_counters(const std::string& label,
                                 const std::map<std::string, double>& values) {
  std::lock_guard<std::mutex> lock(mutex_);
  LabelStats& s = stats_for(label);
  for (const auto& [name, value] : values) s.counters[name] += value;
  ++s.counted_invocations;
}

void KernelTracker::add_note(const std::string& label, const std::string& note) {
  std::lock_guard<std::mutex> lock(mutex_);
  add_unique(stats_for(label).notes, note);
}

std::int64_t KernelTracker::stray_ends() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stray_ends_;
}

std::size_t KernelTracker::open_invocations() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return open_.size();
}

std::vector<LabelStats> KernelTracker::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<LabelStats> out = labels_;
  for (const auto& [id, open] : open_) ++out[open.label_index].unfinished;
  return out;
}

}  // namespace rooftop::connector
