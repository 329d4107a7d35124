// librooftop_cuda_injection.so: any CUDA program counted without a change, the way
// Nsight tools attach:
//   CUDA_INJECTION64_PATH=librooftop_cuda_injection.so ROOFTOP_PROFILE_OUT=p.jsonl ./app
// The CUDA driver loads it when the program initializes CUDA and calls
// InitializeInjection, which subscribes a LaunchProfile to CUPTI's launch callbacks and
// kernel activity records (cupti_launches.hpp). The selected launches are counted with
// CUPTI's Range Profiler (auto ranges, kernel replay: one session for the run, as the
// Kokkos connector counts), the others timed. At exit the profile goes to the file named
// by ROOFTOP_PROFILE_OUT (rooftop/connector/profile_file.hpp), or, with none named, a
// short table to stderr. ROOFTOP_CUPTI=0: times only.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

#include "rooftop/connector/profile_file.hpp"
#include "rooftop/counters/cupti_launches.hpp"
#include "rooftop/counters/cupti_range.hpp"
#include "rooftop/inject/launch_profile.hpp"

namespace rooftop::inject {
namespace {

class Listener final : public counters::cupti::LaunchListener {
 public:
  explicit Listener(LaunchProfile& profile) : profile_(profile) {}
  void launch_enter(const char* symbol, std::uint32_t correlation) override {
    profile_.launch_enter(symbol, correlation);
  }
  void launch_exit() override { profile_.launch_exit(); }
  void kernel_ran(const char* symbol, std::uint32_t correlation, std::uint64_t start_ns,
                  std::uint64_t end_ns) override {
    profile_.kernel_ran(symbol, correlation, start_ns, end_ns);
  }
  void context_ending() override { profile_.close(); }
  void records_dropped(std::size_t count) override {
    profile_.add_note(std::to_string(count) +
                      " kernel activity records dropped by CUPTI: some launches have no time");
  }

 private:
  LaunchProfile& profile_;
};

// Never destroyed by the C++ runtime: the profile is written from an exit handler, and
// CUPTI may still call the listener while other exit handlers run.
LaunchProfile* g_profile = nullptr;
Listener* g_listener = nullptr;
// The process CUDA loaded the library into: a child forked from it inherits the exit
// handler, not the profile.
pid_t g_pid = 0;
// Why profiling could not start, for the file rooftop reads.
std::string* g_not_profiling = nullptr;

void print_table(const std::vector<connector::LabelStats>& labels) {
  std::fprintf(stderr, "rooftop injection: %zu kernels (set %s to write them)\n", labels.size(),
               kEnvironment.profile_out);
  for (const connector::LabelStats& s : labels)
    std::fprintf(stderr, "  %10lld x %12.6f s  %s\n", static_cast<long long>(s.invocations),
                 s.total_s, s.label.c_str());
}

void write(const connector::ProfileHeader& header,
           const std::vector<connector::LabelStats>& labels) {
  const char* out = std::getenv(kEnvironment.profile_out);
  if (!out || !*out)
    print_table(labels);
  else
    connector::write_profile(out, header, labels);
}

void finish() noexcept {
  if (getpid() != g_pid) return;
  try {
    if (g_not_profiling) {
      connector::ProfileHeader header;
      header.source = "cupti-activity";
      header.pid = static_cast<std::int64_t>(g_pid);
      header.notes = {"not profiling: " + *g_not_profiling};
      write(header, {});
      return;
    }
    if (!g_profile) return;
    counters::cupti::flush_kernel_records();
    g_profile->close();
    connector::ProfileHeader header = g_profile->header();
    header.pid = static_cast<std::int64_t>(g_pid);
    write(header, g_profile->labels());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rooftop injection: %s\n", e.what());
  }
}

void start() {
  const Selection selection = selection_from_environment(std::getenv);
  const char* cupti = std::getenv(kEnvironment.counters);
  connector::KernelCounter::MakeSession make_session;
  if (!cupti || std::string(cupti) != "0")
    make_session = [] {
      return std::make_unique<counters::AutoRangeSession>(
          counters::cupti::make_auto_range_target());
    };
  g_profile = new LaunchProfile(selection, std::move(make_session));
  g_listener = new Listener(*g_profile);
  counters::cupti::trace_launches(*g_listener);
}

}  // namespace
}  // namespace rooftop::inject

// Called by the CUDA driver once, when the program initializes CUDA. A failure is one
// line on stderr, and the program runs on unprofiled.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  static bool started = false;
  if (started) return 1;
  started = true;
  namespace ri = rooftop::inject;
  ri::g_pid = getpid();
  int status = 1;
  try {
    ri::start();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rooftop injection: not profiling: %s\n", e.what());
    ri::g_not_profiling = new std::string(e.what());
    status = 0;
  }
  // After libcupti is loaded, so that this handler runs before libcupti's own teardown.
  std::atexit(ri::finish);
  return status;
}
