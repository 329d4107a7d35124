// The GPU watch: NVML read around every device sample, and the verdict on each device
// ceiling from its samples' readings.
#include "rooftop/microbench/device/watch.hpp"
#include "rooftop/core/format.hpp"

#include <dlfcn.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <set>

#include "rooftop/ceilings/extract.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace rooftop::microbench {
namespace {

// From NVML's documentation.
constexpr int kNvmlSuccess = 0;                // NVML_SUCCESS
constexpr int kNvmlInsufficientSize = 7;       // NVML_ERROR_INSUFFICIENT_SIZE
constexpr int kMemoryErrorUncorrected = 1;     // NVML_MEMORY_ERROR_TYPE_UNCORRECTED
constexpr int kVolatileEcc = 0;                // NVML_VOLATILE_ECC
constexpr unsigned long long kXidEvent = 0x8;  // nvmlEventTypeXidCriticalError
constexpr unsigned kMigEnabled = 1;            // NVML_DEVICE_MIG_ENABLE

// nvmlProcessInfo_v2_t, the entries nvmlDeviceGetComputeRunningProcesses_v3 and _v2 fill.
struct ProcessInfo {
  unsigned pid;
  unsigned long long used_gpu_memory;
  unsigned gpu_instance_id, compute_instance_id;
};

// nvmlEventData_t, as nvmlEventSetWait_v2 fills it.
struct EventData {
  void* device;
  unsigned long long event_type;
  unsigned long long event_data;  // the XID
  unsigned gpu_instance_id, compute_instance_id;
};

std::string reason_names(std::uint64_t bits) {
  namespace e = clocks_event;
  static constexpr std::pair<std::uint64_t, const char*> kNames[] = {
      {e::kHwSlowdown, "HW slowdown"},
      {e::kHwThermalSlowdown, "HW thermal slowdown"},
      {e::kHwPowerBrakeSlowdown, "HW power brake"},
      {e::kSwThermalSlowdown, "SW thermal slowdown"},
      {e::kSyncBoost, "sync boost"}};
  std::vector<std::string> names;
  for (const auto& [bit, name] : kNames)
    if (bits & bit) names.emplace_back(name);
  return core::join(names, ", ");
}

std::string of_samples(int count, std::size_t samples) {
  return std::to_string(count) + " of " + std::to_string(samples) + " samples";
}

}  // namespace

DeviceVerdict device_verdict(const std::vector<WatchSample>& samples, const WatchReadable& readable,
                             unsigned own_pid) {
  DeviceVerdict out;
  if (!readable.any() || samples.empty()) return out;
  int disturbed = 0, with_others = 0, slowed = 0, capped = 0, listed = 0;
  std::set<unsigned> pids;
  bool other_namespace = false;
  std::uint64_t slow_bits = 0, ecc = 0;
  std::set<unsigned long long> xids;
  for (const WatchSample& s : samples) {
    bool foreign = false;
    if (readable.processes) {
      const std::set<unsigned> listed_here(s.processes.begin(), s.processes.end());
      listed += listed_here.empty() ? 0 : 1;
      std::size_t others = listed_here.size();
      if (listed_here.count(own_pid)) {
        --others;
      } else if (others > 0) {
        --others;  // pids of another PID namespace: one of them is this process
        other_namespace = true;
      }
      if (others > 0) {
        ++with_others;
        foreign = true;
        for (unsigned pid : listed_here)
          if (pid != own_pid) pids.insert(pid);
      }
    }
    if (readable.reasons) {
      if (const std::uint64_t bits = s.reasons & clocks_event::kNotItsOwn) {
        ++slowed;
        slow_bits |= bits;
        foreign = true;
      }
      if (s.reasons & clocks_event::kSwPowerCap) ++capped;
    }
    if (readable.ecc && s.ecc_uncorrected > 0) {
      ecc += s.ecc_uncorrected;
      foreign = true;
    }
    if (readable.xid && !s.xids.empty()) {
      xids.insert(s.xids.begin(), s.xids.end());
      foreign = true;
    }
    disturbed += foreign ? 1 : 0;
  }
  out.disturbance = static_cast<double>(disturbed) / static_cast<double>(samples.size());

  std::vector<std::string> notes;
  if (with_others > 0) {
    std::vector<std::string> ids;
    for (unsigned pid : pids) ids.push_back(std::to_string(pid));
    notes.push_back(
        "another compute process on the GPU during " + of_samples(with_others, samples.size()) +
        (other_namespace ? " (NVML lists pids " + core::join(ids, ", ") +
                               " of another PID namespace; one of them is taken to be rooftop)"
                         : " (pid " + core::join(ids, ", ") + ")"));
  } else if (readable.processes && listed == 0) {
    notes.emplace_back(
        "NVML lists no compute process on the GPU, not even rooftop (another PID namespace): "
        "other processes are not known");
  }
  if (slowed > 0)
    notes.push_back("clocks slowed by " + reason_names(slow_bits) + " during " +
                    of_samples(slowed, samples.size()));
  if (!xids.empty()) {
    std::vector<std::string> ids;
    for (unsigned long long x : xids) ids.push_back(std::to_string(x));
    notes.push_back("XID critical error " + core::join(ids, ", ") + " during its samples");
  }
  if (ecc > 0)
    notes.push_back(std::to_string(ecc) + " uncorrected ECC error(s) during its samples");
  if (capped > 0)
    notes.push_back("power-capped during " + of_samples(capped, samples.size()) +
                    ": this is the rate under the GPU's power limit");
  if (!notes.empty()) out.note = "NVML: " + core::join(notes, "; ");
  return out;
}

// ---- NVML, loaded at run time ----

struct NvmlWatch::Api {
  void* lib = nullptr;
  int (*shutdown)() = nullptr;  // set once nvmlInit_v2 succeeded
  void* device = nullptr;
  int (*reasons)(void*, unsigned long long*) = nullptr;
  int (*processes)(void*, unsigned*, ProcessInfo*) = nullptr;
  int (*ecc)(void*, int, int, unsigned long long*) = nullptr;
  void* events = nullptr;
  int (*wait)(void*, EventData*, unsigned) = nullptr;
  int (*free_events)(void*) = nullptr;

  template <class F>
  F symbol(const char* name) const {
    return reinterpret_cast<F>(dlsym(lib, name));
  }
  // The pids with a compute context now; false when NVML refuses.
  bool list_processes(std::vector<unsigned>& pids, int* rc_out = nullptr) const {
    // Room for twice the entries asked for: a driver filling a wider layout stays inside.
    std::vector<ProcessInfo> infos(2 * 32);
    unsigned count = 32;
    int rc = processes(device, &count, infos.data());
    if (rc == kNvmlInsufficientSize) {
      infos.resize(2 * (count + 8));
      count += 8;
      rc = processes(device, &count, infos.data());
    }
    if (rc_out) *rc_out = rc;
    if (rc != kNvmlSuccess) return false;
    for (unsigned i = 0; i < count; ++i) pids.push_back(infos[i].pid);
    return true;
  }
  ~Api() {
    if (events && free_events) free_events(events);
    if (shutdown) shutdown();
    if (lib) dlclose(lib);
  }
};

NvmlWatch::NvmlWatch(const std::string& pci_bus_id, const char* library)
    : api_(std::make_unique<Api>()) {
  Api& a = *api_;
  a.lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!a.lib) {
    readable_.why_not = std::string("NVML (") + library + ") did not load: nothing is read";
    return;
  }
  const auto init = a.symbol<int (*)()>("nvmlInit_v2");
  const auto shutdown = a.symbol<int (*)()>("nvmlShutdown");
  if (!init || !shutdown || init() != kNvmlSuccess) {
    readable_.why_not = "NVML did not initialize: nothing is read";
    return;
  }
  a.shutdown = shutdown;
  const auto error = a.symbol<const char* (*)(int)>("nvmlErrorString");
  const auto why = [&](int rc) {
    const char* text = error ? error(rc) : nullptr;
    return " (" + (text ? std::string(text) : "NVML error " + std::to_string(rc)) + ")";
  };
  const auto handle = a.symbol<int (*)(const char*, void**)>("nvmlDeviceGetHandleByPciBusId_v2");
  if (!handle || handle(pci_bus_id.c_str(), &a.device) != kNvmlSuccess) {
    readable_.why_not = "NVML does not know the GPU at " + pci_bus_id + ": nothing is read";
    return;
  }
  std::vector<std::string> not_read;
  int rc = 0;

  a.reasons = a.symbol<decltype(a.reasons)>("nvmlDeviceGetCurrentClocksEventReasons");
  if (!a.reasons)  // its name on older drivers
    a.reasons = a.symbol<decltype(a.reasons)>("nvmlDeviceGetCurrentClocksThrottleReasons");
  unsigned long long bits = 0;
  if (!a.reasons)
    not_read.emplace_back("clock-event reasons (no such NVML function)");
  else if ((rc = a.reasons(a.device, &bits)) != kNvmlSuccess)
    not_read.push_back("clock-event reasons" + why(rc));
  else
    readable_.reasons = true;

  // Under MIG the process list is the whole GPU's, its other slices' processes included.
  const auto mig_mode = a.symbol<int (*)(void*, unsigned*, unsigned*)>("nvmlDeviceGetMigMode");
  unsigned mig = 0, pending = 0;
  a.processes = a.symbol<decltype(a.processes)>("nvmlDeviceGetComputeRunningProcesses_v3");
  if (!a.processes)
    a.processes = a.symbol<decltype(a.processes)>("nvmlDeviceGetComputeRunningProcesses_v2");
  std::vector<unsigned> pids;
  if (mig_mode && mig_mode(a.device, &mig, &pending) == kNvmlSuccess && mig == kMigEnabled)
    not_read.emplace_back("other processes (a MIG slice: NVML lists the whole GPU's)");
  else if (!a.processes)
    not_read.emplace_back("other processes (no such NVML function)");
  else if (!a.list_processes(pids, &rc))
    not_read.push_back("other processes" + why(rc));
  else
    readable_.processes = true;

  a.ecc = a.symbol<decltype(a.ecc)>("nvmlDeviceGetTotalEccErrors");
  if (!a.ecc)
    not_read.emplace_back("ECC errors (no such NVML function)");
  else if ((rc = a.ecc(a.device, kMemoryErrorUncorrected, kVolatileEcc, &bits)) != kNvmlSuccess)
    not_read.push_back("ECC errors" + why(rc));  // "Not Supported" where ECC is off
  else {
    readable_.ecc = true;
    last_ecc_ = bits;
  }

  const auto create = a.symbol<int (*)(void**)>("nvmlEventSetCreate");
  const auto register_events =
      a.symbol<int (*)(void*, unsigned long long, void*)>("nvmlDeviceRegisterEvents");
  a.wait = a.symbol<decltype(a.wait)>("nvmlEventSetWait_v2");
  a.free_events = a.symbol<decltype(a.free_events)>("nvmlEventSetFree");
  if (!create || !register_events || !a.wait || !a.free_events)
    not_read.emplace_back("XID errors (no such NVML function)");
  else if ((rc = create(&a.events)) != kNvmlSuccess)
    not_read.push_back("XID errors" + why(rc));
  else if ((rc = register_events(a.device, kXidEvent, a.events)) != kNvmlSuccess)
    not_read.push_back("XID errors" + why(rc));
  else
    readable_.xid = true;
  if (!not_read.empty()) readable_.why_not = "NVML cannot read " + core::join(not_read, ", ");
}

NvmlWatch::NvmlWatch(Unread nothing) : api_(std::make_unique<Api>()) {
  readable_.why_not = std::move(nothing.why);
}

NvmlWatch::~NvmlWatch() = default;

std::unique_ptr<NvmlWatch> NvmlWatch::of_device() {
#if defined(KOKKOS_ENABLE_CUDA)
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, Kokkos::Cuda().cuda_device()) != cudaSuccess)
    return std::unique_ptr<NvmlWatch>(
        new NvmlWatch(Unread{"the CUDA runtime gives no PCI bus id for the GPU: nothing is read"}));
  return std::make_unique<NvmlWatch>(bus);
#else
  return std::unique_ptr<NvmlWatch>(
      new NvmlWatch(Unread{"this rooftop was built without a GPU backend"}));
#endif
}

WatchSample NvmlWatch::read() {
  WatchSample s;
  const Api& a = *api_;
  unsigned long long v = 0;
  if (readable_.reasons && a.reasons(a.device, &v) == kNvmlSuccess) s.reasons = v;
  if (readable_.processes) a.list_processes(s.processes);
  if (readable_.ecc && a.ecc(a.device, kMemoryErrorUncorrected, kVolatileEcc, &v) == kNvmlSuccess) {
    s.ecc_uncorrected =
        v >= last_ecc_ ? v - last_ecc_ : v;  // volatile counts reset with the driver
    last_ecc_ = v;
  }
  if (readable_.xid) {
    // Timeout 0: only the events already queued; a bounded drain.
    EventData event{};
    for (int i = 0; i < 64 && a.wait(a.events, &event, 0) == kNvmlSuccess; ++i)
      if (event.event_type & kXidEvent) s.xids.push_back(event.event_data);
  }
  return s;
}

// ---- Watching the samples ----

DeviceWatch::DeviceWatch(std::function<WatchSample()> read, WatchReadable readable,
                         unsigned own_pid)
    : read_(std::move(read)), readable_(std::move(readable)), own_pid_(own_pid) {}

void DeviceWatch::start() { launches_.clear(); }

void DeviceWatch::before() { before_ = read_(); }

double DeviceWatch::after(double /*seconds*/) {
  // NVML's readings are states, not durations: a launch with something foreign at either
  // end counts as disturbed throughout.
  WatchSample both = std::move(before_);
  const WatchSample now = read_();
  both.reasons |= now.reasons;
  both.processes.insert(both.processes.end(), now.processes.begin(), now.processes.end());
  both.ecc_uncorrected += now.ecc_uncorrected;
  both.xids.insert(both.xids.end(), now.xids.begin(), now.xids.end());
  launches_.push_back(std::move(both));
  return device_verdict({launches_.back()}, readable_, own_pid_).disturbance.value_or(0.0);
}

void DeviceWatch::measured(const core::SampleSet& samples) {
  Entry entry;
  entry.seconds = samples.seconds;
  for (int launch : samples.launch) {
    if (launch < 0 || static_cast<std::size_t>(launch) >= launches_.size()) return;
    entry.samples.push_back(launches_[static_cast<std::size_t>(launch)]);
  }
  entries_.push_back(std::move(entry));
}

void watch_ceilings(core::CeilingsFile& file, const std::vector<DeviceWatch::Entry>& entries,
                    const WatchReadable& readable, unsigned own_pid) {
  if (!readable.any()) return;
  for (const ceilings::CeilingSource& source :
       ceilings::ceiling_sources(file.machine, file.sweeps)) {
    const std::vector<double>& seconds = source.compute
                                             ? file.sweeps.compute[source.point].seconds
                                             : file.sweeps.bandwidth[source.point].seconds;
    // The point's samples are the entry's: the same times, copied.
    const auto entry =
        std::find_if(entries.begin(), entries.end(),
                     [&](const DeviceWatch::Entry& e) { return e.seconds == seconds; });
    const auto ceiling =
        std::find_if(file.ceilings.begin(), file.ceilings.end(),
                     [&](const core::Ceiling& c) { return c.name == source.name; });
    if (entry == entries.end() || ceiling == file.ceilings.end()) continue;
    const DeviceVerdict verdict = device_verdict(entry->samples, readable, own_pid);
    if (!verdict.note.empty()) ceiling->note += (ceiling->note.empty() ? "" : "; ") + verdict.note;
  }
}

}  // namespace rooftop::microbench
