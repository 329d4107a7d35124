#include "rooftop/inject/launch_profile.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace rooftop::inject {
namespace {

// Kokkos Tools' device id of a CUDA space (type 2 in the top 8 bits): the tracker names
// the space of every launch "Cuda".
constexpr std::uint32_t kCudaDevice = 2u << 24;

// The source of a kernel with times only, and of a profile without counters.
constexpr const char* kTimesOnly = "cupti-activity";

std::string plural(std::int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void add_unique(std::vector<std::string>& list, const std::string& text) {
  if (std::find(list.begin(), list.end(), text) == list.end()) list.push_back(text);
}

}  // namespace

LaunchProfile::LaunchProfile(Selection selection,
                             connector::KernelCounter::MakeSession make_session)
    : selector_(selection), selection_note_("launches counted: " + selection.describe()) {
  header_.source = kTimesOnly;  // "cupti" once the profiler is set up
  header_.notes.push_back("CUDA kernels of any program (CUPTI injection), by demangled name");
  if (make_session) {
    header_.notes.push_back(selection_note_);
    counter_ = std::make_unique<connector::KernelCounter>(
        tracker_, header_, std::move(make_session),
        [this](const connector::Invocation& k) {
          std::lock_guard<std::mutex> lock(selector_mutex_);
          return selector_.select(k.label);
        });
  } else {
    header_.notes.push_back("counters off: times only");
  }
  tracker_.set_observer(this);
}

LaunchProfile::~LaunchProfile() { tracker_.set_observer(nullptr); }

void LaunchProfile::on_begin(const connector::Invocation& k) {
  if (!counter_) return;
  counter_->on_begin(k);
  if (counter_->counting()) {  // this launch, or one of another thread it overlaps
    std::lock_guard<std::mutex> lock(mutex_);
    replayed_ids_.insert(k.id);
  }
}

void LaunchProfile::on_end(const connector::Invocation& k, double seconds) {
  if (!counter_) return;
  counter_->on_end(k, seconds);
  bool exhausted = false;
  {
    std::lock_guard<std::mutex> lock(selector_mutex_);
    exhausted = selector_.exhausted();
  }
  if (exhausted && !counter_->counting()) counter_->close();  // idempotent
}

void LaunchProfile::launch_enter(const char* symbol, std::uint32_t correlation) {
  const std::thread::id thread = std::this_thread::get_id();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = open_.find(thread);
    if (it != open_.end()) {  // the driver's launch inside the runtime's: the same launch
      ++it->second.depth;
      if (it->second.replayed) replayed_.insert(correlation);
      return;
    }
    if (closed_) return;
    ++launches_;
  }
  const std::uint64_t id = tracker_.begin(demangle(symbol).c_str(), kCudaDevice,
                                          connector::KernelKind::parallel_for);
  std::lock_guard<std::mutex> lock(mutex_);
  const bool replayed = replayed_ids_.erase(id) > 0;
  if (replayed) {
    replayed_.insert(correlation);
    ++replayed_launches_;
  }
  open_[thread] = Open{id, 1, replayed};
}

void LaunchProfile::launch_exit() {
  std::uint64_t id = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = open_.find(std::this_thread::get_id());
    if (it == open_.end()) return;  // entered before the profile began, or after close
    if (--it->second.depth > 0) return;
    id = it->second.id;
    open_.erase(it);
  }
  tracker_.end(id);
}

void LaunchProfile::kernel_ran(const char* symbol, std::uint32_t correlation,
                               std::uint64_t start_ns, std::uint64_t end_ns) {
  const std::string name = demangle(symbol);
  const double seconds = end_ns > start_ns ? 1e-9 * static_cast<double>(end_ns - start_ns) : 0.0;
  std::lock_guard<std::mutex> lock(mutex_);
  ++runs_;
  if (replayed_.count(correlation) > 0) {  // its records hold the replays
    ++replayed_records_;
    return;
  }
  const auto [it, first] = timed_.try_emplace(name);
  KernelTimes& t = it->second;
  if (first) timed_order_.push_back(name);
  t.min_s = t.runs == 0 ? seconds : std::min(t.min_s, seconds);
  t.max_s = std::max(t.max_s, seconds);
  t.total_s += seconds;
  ++t.runs;
}

void LaunchProfile::add_note(const std::string& note) {
  std::lock_guard<std::mutex> lock(mutex_);
  add_unique(header_.notes, note);
}

void LaunchProfile::close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return;
    closed_ = true;
  }
  if (counter_) counter_->close();
}

std::int64_t LaunchProfile::launches() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return launches_;
}

std::int64_t LaunchProfile::kernel_runs() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return runs_;
}

connector::ProfileHeader LaunchProfile::header() const {
  std::lock_guard<std::mutex> lock(mutex_);
  connector::ProfileHeader h = header_;
  h.stray_ends = tracker_.stray_ends();
  if (replayed_launches_ > 0)
    h.notes.push_back("CUPTI gave " + plural(replayed_records_, "kernel activity record",
                                             "kernel activity records") +
                      " for the " + plural(replayed_launches_, "replayed launch", "replayed launches") +
                      ": set aside, their durations hold the replay passes");
  return h;
}

namespace {

// One kernel name as the profile file records it: a counted kernel covers its counted
// launches, timed by the mean of its unreplayed ones; any other, all its launches.
connector::LabelStats injected_label(connector::LabelStats s, const KernelTimes* t) {
  const std::int64_t launches = s.invocations;
  const std::int64_t runs = t ? t->runs : 0;
  s.kinds.clear();  // the tracker's are Kokkos's
  s.source = kTimesOnly;
  if (s.counted_invocations > 0) {
    const std::int64_t counted = s.counted_invocations;
    s.invocations = counted;
    if (runs > 0) {
      s.total_s = t->total_s / static_cast<double>(runs) * static_cast<double>(counted);
      s.min_s = t->min_s;
      s.max_s = t->max_s;
      s.time_source = "CUPTI activity records: mean of " +
                      plural(runs, "launch", "launches") + " not replayed, times " +
                      plural(counted, "counted launch", "counted launches");
    } else {
      s.notes.push_back("every launch of it was replayed: its time is CUPTI's duration of the "
                        "replayed launches");
    }
    s.notes.push_back(plural(launches, "launch", "launches") + " seen: " +
                      std::to_string(counted) + " counted, " + std::to_string(runs) + " timed");
    return s;
  }
  s.invocations = runs > 0 ? runs : launches;
  s.total_s = runs > 0 ? t->total_s : 0.0;
  s.min_s = runs > 0 ? t->min_s : 0.0;
  s.max_s = runs > 0 ? t->max_s : 0.0;
  s.time_source = "CUPTI activity records, sum of " + plural(runs, "launch", "launches");
  if (runs == 0) s.notes.push_back("no activity record of its launches: no time");
  return s;
}

}  // namespace

std::vector<connector::LabelStats> LaunchProfile::labels() const {
  std::vector<connector::LabelStats> tracked = tracker_.snapshot();
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<connector::LabelStats> out;
  std::set<std::string> seen;
  for (connector::LabelStats& s : tracked) {
    const auto t = timed_.find(s.label);
    seen.insert(s.label);
    out.push_back(injected_label(std::move(s), t == timed_.end() ? nullptr : &t->second));
  }
  // Kernels no launch callback saw (launched by a CUDA graph): times only.
  for (const std::string& name : timed_order_) {
    if (seen.count(name)) continue;
    connector::LabelStats s;
    s.label = name;
    s.spaces = {"Cuda"};
    s.notes.push_back("no launch call seen (a CUDA graph's kernel?): not counted");
    out.push_back(injected_label(std::move(s), &timed_.at(name)));
  }
  return out;
}

}  // namespace rooftop::inject
