#pragma once
// A short, move-only handle on CUPTI's Profiler Host API (CUDA >= 12.6,
// cupti_profiler_host.h): the part of counter collection that needs no GPU and no driver.
// For one chip ("GH100") it checks metric names, schedules metrics into a config image,
// says how many replay passes the image needs, and turns a decoded counter-data image
// into metric values. Compiled only where CUPTI is found (ROOFTOP_HAS_CUPTI).
//
// CUPTI facts this code relies on (CUDA 13.0):
//   - a failed cuptiProfilerHostConfigAddMetrics leaves the host object unusable (every
//     later call fails with CUPTI_ERROR_UNKNOWN): names are checked with
//     cuptiProfilerHostGetMetricProperties first, and the object is rebuilt if a batch
//     still fails;
//   - metrics added in one call are scheduled together (the roofline set with the
//     tensor paths: 8 passes on GH100, as on the H200), one call per metric apart (more).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rooftop/counters/metrics.hpp"

struct CUpti_Profiler_Host_Object;  // cupti_profiler_host.h

namespace rooftop::counters::cupti {

// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" and, where the user can act, what to do.
std::string describe_result(int cupti_result);

// The CUPTI API version of the loaded libcupti (cuptiGetVersion): 24 is CUDA 12.6, the
// first with the host and Range Profiler APIs; from CUDA 13 it reads 130000 and up.
std::uint32_t cupti_version();

// Whether this process has libcupti loaded. rooftop opens it the first time a CUPTI
// function is needed (counting, or cupti_version()), so a process that counts nothing,
// such as `analyze --no-cupti` under Nsight Compute, never loads it.
bool cupti_loaded();
inline constexpr std::uint32_t kFirstRangeProfilerVersion = 24;

// One line when a CUDA driver that supports CUDA `driver_version` (cuDriverGetVersion:
// 13000 is 13.0) cannot run the CUPTI of the toolkit this program was built with
// (`built_with`, CUDA_VERSION: 13000): CUPTI needs a driver of its own major version or
// newer (CUDA 13: r580), and the Range Profiler CUDA 12.6 at least. Empty when it will do.
std::string driver_too_old(int driver_version, int built_with);

// Chips this CUPTI can build config images for ("GA100", "GH100", ...).
std::vector<std::string> supported_chips();

// Ranges in a decoded counter-data image.
std::size_t range_count(const std::vector<std::uint8_t>& counter_data);

class ProfilerHost {
 public:
  // Range Profiler host object for `chip`. With a counter-availability image (taken on
  // the device), metrics whose counters that device cannot collect are refused as well.
  // Throws rooftop::Error naming the chip and CUPTI's result.
  explicit ProfilerHost(std::string chip, std::vector<std::uint8_t> counter_availability = {});
  ~ProfilerHost();
  ProfilerHost(ProfilerHost&& other) noexcept;
  ProfilerHost& operator=(ProfilerHost&& other) noexcept;
  ProfilerHost(const ProfilerHost&) = delete;
  ProfilerHost& operator=(const ProfilerHost&) = delete;

  const std::string& chip() const { return chip_; }

  // Empty when the chip has the metric; otherwise why not.
  std::string check_metric(const std::string& name) const;

  // What CUPTI says a metric is on this chip: its description and the dimension of its
  // values ("inst", "byte", ...). Throws rooftop::Error where the chip lacks it.
  struct MetricDescription {
    std::string description, dimension;
  };
  MetricDescription describe_metric(const std::string& name) const;

  // Schedules `names` in one batch. A metric the chip lacks, or cannot schedule, is
  // skipped with its reason and the others are added; the skipped ones are returned.
  std::vector<SkippedMetric> add_metrics(const std::vector<std::string>& names);
  const std::vector<std::string>& metrics() const { return metrics_; }

  // The config image of the metrics added so far (for the Range Profiler's SetConfig),
  // and how many replay passes an image needs.
  std::vector<std::uint8_t> config_image() const;
  static std::size_t passes(const std::vector<std::uint8_t>& config_image);

  // The added metrics' values for one range of a decoded counter-data image.
  MetricValues evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range) const;

 private:
  void open();  // (re)creates the host object
  void close() noexcept;
  void add_batch(const std::vector<std::string>& names);  // throws on CUPTI failure

  std::string chip_;
  std::vector<std::uint8_t> counter_availability_;
  std::vector<std::string> metrics_;
  CUpti_Profiler_Host_Object* object_ = nullptr;
};

}  // namespace rooftop::counters::cupti
