#pragma once
// What else happened on the GPU while its ceilings were sampled, as NVML tells it: the
// clock-event (throttle) reasons, the other compute processes on the device, and
// uncorrected ECC errors and XID critical errors where they can be read. NVML is loaded
// at run time (dlopen, as device/info.cpp does: no header, no link dependency); every
// call may fail (not supported, no permission, MIG, an old driver), and an item that
// cannot be read is said once, never an error. Read right before and right after every
// timed launch, outside the timed interval (DeviceWatch, core::sample's watch).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"
#include "rooftop/core/sampling.hpp"

namespace rooftop::microbench {

// Bits of nvmlDeviceGetCurrentClocksEventReasons (the same values under their older
// names, nvmlClocksThrottleReason*), from NVML's documentation.
namespace clocks_event {
inline constexpr std::uint64_t kGpuIdle = 0x1;             // nvmlClocksEventReasonGpuIdle
inline constexpr std::uint64_t kSwPowerCap = 0x4;          // nvmlClocksEventReasonSwPowerCap
inline constexpr std::uint64_t kHwSlowdown = 0x8;          // nvmlClocksEventReasonHwSlowdown
inline constexpr std::uint64_t kSyncBoost = 0x10;          // nvmlClocksEventReasonSyncBoost
inline constexpr std::uint64_t kSwThermalSlowdown = 0x20;  // nvmlClocksEventReasonSwThermalSlowdown
inline constexpr std::uint64_t kHwThermalSlowdown = 0x40;  // nvmlClocksEventReasonHwThermalSlowdown
inline constexpr std::uint64_t kHwPowerBrakeSlowdown = 0x80;  // ...HwPowerBrakeSlowdown
// Reasons that are not the GPU's own limit: slowdowns forced by hardware, heat, an
// external power brake, or another GPU of a sync-boost group.
inline constexpr std::uint64_t kNotItsOwn =
    kHwSlowdown | kSyncBoost | kSwThermalSlowdown | kHwThermalSlowdown | kHwPowerBrakeSlowdown;
}  // namespace clocks_event

// What NVML said around one sample (its readings right before and right after it).
struct WatchSample {
  std::uint64_t reasons = 0;        // clock-event reasons active at either end
  std::vector<unsigned> processes;  // pids with a compute context at either end, as NVML lists them
  std::uint64_t ecc_uncorrected = 0;     // volatile uncorrected ECC errors since the last reading
  std::vector<unsigned long long> xids;  // XID critical errors since the last reading
};

// Which items NVML reads on this GPU; why_not names the others, in one line.
struct WatchReadable {
  bool reasons = false, processes = false, ecc = false, xid = false;
  std::string why_not;
  bool any() const { return reasons || processes || ecc || xid; }
};

// A device ceiling's verdict from its samples' readings. disturbance: the share of its
// samples during which the GPU was not the measurement's own (another process held a
// compute context, a reason of clocks_event::kNotItsOwn was active, or an XID or
// uncorrected ECC error happened); above core::kDisturbedShare the ceiling is disturbed.
// Empty when nothing is readable. note: what was seen, one clause each (a power cap is
// said but is the GPU's own limit: it disturbs nothing). own_pid: this process, left out
// of the processes; when NVML lists pids of another PID namespace (a container) and this
// one is not among them, one of them is taken to be this process.
struct DeviceVerdict {
  std::optional<double> disturbance;
  std::string note;
};
DeviceVerdict device_verdict(const std::vector<WatchSample>& samples, const WatchReadable& readable,
                             unsigned own_pid);

// NVML for one GPU, by PCI bus id (NVML's indices differ from CUDA's under
// CUDA_VISIBLE_DEVICES). Never throws: without the library or the GPU nothing is
// readable and readable().why_not says why.
class NvmlWatch {
 public:
  explicit NvmlWatch(const std::string& pci_bus_id, const char* library = "libnvidia-ml.so.1");
  ~NvmlWatch();
  NvmlWatch(const NvmlWatch&) = delete;
  NvmlWatch& operator=(const NvmlWatch&) = delete;

  // The GPU Kokkos runs on; in a build without a GPU backend nothing is readable.
  static std::unique_ptr<NvmlWatch> of_device();

  const WatchReadable& readable() const { return readable_; }
  WatchSample read();  // one reading now (empty where nothing is readable)

 private:
  struct Unread {
    std::string why;
  };
  explicit NvmlWatch(Unread nothing);  // nothing to load
  struct Api;
  std::unique_ptr<Api> api_;
  WatchReadable readable_;
  std::uint64_t last_ecc_ = 0;
};

// The GPU's core::Sampling::watch: NVML read right before and right after every timed
// launch. A launch during which NVML saw something not the measurement's own (as
// device_verdict judges one sample) was disturbed throughout (1), any other quiet (0), so
// that core::sample takes disturbed samples again as on a host, and every device
// measurement, ceiling or figure, records it per sample. Each measurement's kept samples
// keep their readings under their times (entries), for the ceilings' notes. Set it only
// where something is readable: otherwise every sample would pass for quiet.
class DeviceWatch : public core::Watch {
 public:
  DeviceWatch(std::function<WatchSample()> read, WatchReadable readable, unsigned own_pid);

  void start() override;
  void before() override;
  double after(double seconds) override;
  void measured(const core::SampleSet& samples) override;

  struct Entry {
    std::vector<double> seconds;  // the samples' times, as the point records them
    std::vector<WatchSample> samples;
  };
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::function<WatchSample()> read_;
  WatchReadable readable_;
  unsigned own_pid_;
  WatchSample before_;                 // the reading before the launch under way
  std::vector<WatchSample> launches_;  // the measurement's launches, both readings merged
  std::vector<Entry> entries_;
};

// Each device ceiling of `file` (from its sweeps) gets a note of what NVML saw during the
// samples of the point behind it; its disturbance comes from those samples, as a host
// ceiling's does. Ceilings whose point has no readings, and every ceiling when nothing is
// readable, are left as they are.
void watch_ceilings(core::CeilingsFile& file, const std::vector<DeviceWatch::Entry>& entries,
                    const WatchReadable& readable, unsigned own_pid);

}  // namespace rooftop::microbench
