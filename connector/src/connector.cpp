// librooftop_kokkos_connector.so: the Kokkos Tools C interface, so that any Kokkos
// program reports its labelled kernels without a code change:
//   KOKKOS_PROFILE_LIBRARY=librooftop_kokkos_connector.so ./app      (Kokkos 3)
//   KOKKOS_TOOLS_LIBS=librooftop_kokkos_connector.so ./app           (Kokkos 4)
// Every parallel_for / parallel_reduce / parallel_scan goes to a KernelTracker (labels,
// invocations, fenced wall time). When Kokkos finalizes, the tracker's records go to the
// file named by ROOFTOP_PROFILE_OUT (format: rooftop/connector/profile_file.hpp), or,
// with no file named, a short table to stderr.
//
// In the CUDA build with CUPTI, each outermost kernel on a CUDA execution space is also
// counted with CUPTI's Range Profiler (auto ranges, kernel replay: CUPTI replays each
// launch itself; set up once, see KernelCounter and AutoRangeSession), and its records
// carry FLOPs and bytes. ROOFTOP_CUPTI=0 turns that off; counters that cannot be had (no
// permission, say) are reported once and the run goes on with times only.
//
// Nothing here depends on Kokkos: the entry points are the documented C interface.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <string>

#include "rooftop/connector/kernel_counter.hpp"
#include "rooftop/connector/kernel_tracker.hpp"
#include "rooftop/connector/profile_file.hpp"

#if ROOFTOP_CONNECTOR_CUPTI
#include "rooftop/counters/cupti_range.hpp"
#endif

extern "C" {
// Kokkos' struct Kokkos_Profiling_KokkosPDeviceInfo (impl/Kokkos_Profiling_C_Interface.h).
struct Kokkos_Profiling_KokkosPDeviceInfo {
  std::size_t deviceID;
};
}

namespace rooftop::connector {
namespace {

struct Session {
  KernelTracker tracker;
  ProfileHeader header;
  std::unique_ptr<KernelCounter> counter;  // CUDA build with CUPTI, counters on
};

std::mutex session_mutex;
// Never destroyed by the C++ runtime: a program that exits without Kokkos::finalize
// would otherwise tear CUPTI down from a static destructor, after the CUDA runtime's
// and libcupti's own exit handlers may have run. finish() ends the session in order.
std::unique_ptr<Session>& session = *new std::unique_ptr<Session>();

Session& current() {
  std::lock_guard<std::mutex> lock(session_mutex);
  if (!session) {  // a begin before init: track anyway
    session = std::make_unique<Session>();
    session->header.pid = static_cast<std::int64_t>(getpid());
  }
  return *session;
}

void start(std::uint64_t interface_version) {
  auto s = std::make_unique<Session>();
  s->header.pid = static_cast<std::int64_t>(getpid());
  s->header.kokkos_interface_version = static_cast<std::int64_t>(interface_version);
#if ROOFTOP_CONNECTOR_CUPTI
  const char* cupti = std::getenv("ROOFTOP_CUPTI");
  if (cupti && std::string(cupti) == "0") {
    s->header.notes.push_back("counters off (ROOFTOP_CUPTI=0)");
  } else {
    s->counter = std::make_unique<KernelCounter>(s->tracker, s->header, [] {
      return std::make_unique<counters::AutoRangeSession>(
          counters::cupti::make_auto_range_target());
    });
    s->tracker.set_observer(s->counter.get());
  }
#else
  s->header.notes.push_back("times only: this connector was built without CUDA and CUPTI");
#endif
  std::lock_guard<std::mutex> lock(session_mutex);
  session = std::move(s);
}

void print_table(const std::vector<LabelStats>& labels) {
  std::fprintf(stderr,
               "rooftop connector: %zu kernel labels (set ROOFTOP_PROFILE_OUT to write them)\n",
               labels.size());
  for (const LabelStats& s : labels)
    std::fprintf(stderr, "  %10lld x %12.6f s  %s\n", static_cast<long long>(s.invocations),
                 s.total_s, s.label.c_str());
}

void finish() {
  std::unique_ptr<Session> s;
  {
    std::lock_guard<std::mutex> lock(session_mutex);
    s = std::move(session);
  }
  if (!s) return;
  s->tracker.set_observer(nullptr);
  if (s->counter) s->counter->close();
  const std::vector<LabelStats> labels = s->tracker.snapshot();
  s->header.stray_ends = s->tracker.stray_ends();
  const char* out = std::getenv("ROOFTOP_PROFILE_OUT");
  if (!out || !*out) {
    print_table(labels);
    return;
  }
  write_profile(out, s->header, labels);
}

std::uint64_t begin(const char* name, std::uint32_t device_id, KernelKind kind) {
  return current().tracker.begin(name, device_id, kind);
}

void end(std::uint64_t id) { current().tracker.end(id); }

// No exception may cross the C interface into Kokkos.
template <class F>
void guarded(const char* entry, F&& f) noexcept {
  try {
    f();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rooftop connector: %s: %s\n", entry, e.what());
  } catch (...) {
    std::fprintf(stderr, "rooftop connector: %s: unknown error\n", entry);
  }
}

}  // namespace
}  // namespace rooftop::connector

#define ROOFTOP_EXPORT extern "C" __attribute__((visibility("default")))

namespace rc = rooftop::connector;

ROOFTOP_EXPORT void kokkosp_init_library(const int /*load_sequence*/,
                                         const std::uint64_t interface_version,
                                         const std::uint32_t /*device_count*/,
                                         Kokkos_Profiling_KokkosPDeviceInfo* /*devices*/) {
  rc::guarded("kokkosp_init_library", [&] { rc::start(interface_version); });
}

ROOFTOP_EXPORT void kokkosp_finalize_library() {
  rc::guarded("kokkosp_finalize_library", [] { rc::finish(); });
}

ROOFTOP_EXPORT void kokkosp_begin_parallel_for(const char* name, const std::uint32_t device_id,
                                               std::uint64_t* kernel_id) {
  rc::guarded("kokkosp_begin_parallel_for", [&] {
    const std::uint64_t id = rc::begin(name, device_id, rc::KernelKind::parallel_for);
    if (kernel_id) *kernel_id = id;
  });
}

ROOFTOP_EXPORT void kokkosp_end_parallel_for(const std::uint64_t kernel_id) {
  rc::guarded("kokkosp_end_parallel_for", [&] { rc::end(kernel_id); });
}

ROOFTOP_EXPORT void kokkosp_begin_parallel_reduce(const char* name, const std::uint32_t device_id,
                                                  std::uint64_t* kernel_id) {
  rc::guarded("kokkosp_begin_parallel_reduce", [&] {
    const std::uint64_t id = rc::begin(name, device_id, rc::KernelKind::parallel_reduce);
    if (kernel_id) *kernel_id = id;
  });
}

ROOFTOP_EXPORT void kokkosp_end_parallel_reduce(const std::uint64_t kernel_id) {
  rc::guarded("kokkosp_end_parallel_reduce", [&] { rc::end(kernel_id); });
}

ROOFTOP_EXPORT void kokkosp_begin_parallel_scan(const char* name, const std::uint32_t device_id,
                                                std::uint64_t* kernel_id) {
  rc::guarded("kokkosp_begin_parallel_scan", [&] {
    const std::uint64_t id = rc::begin(name, device_id, rc::KernelKind::parallel_scan);
    if (kernel_id) *kernel_id = id;
  });
}

ROOFTOP_EXPORT void kokkosp_end_parallel_scan(const std::uint64_t kernel_id) {
  rc::guarded("kokkosp_end_parallel_scan", [&] { rc::end(kernel_id); });
}
