#include "rooftop/counters/cupti_host.hpp"
#include "rooftop/core/format.hpp"

#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_version.h>

#include <algorithm>
#include <utility>

#include "cupti_api.hpp"
#include "rooftop/core/error.hpp"

namespace rooftop::counters::cupti {
namespace {

std::string result_name(CUptiResult r) {
  const char* s = nullptr;
  if (api().cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s)
    return "CUPTI error " + std::to_string(static_cast<int>(r));
  return s;
}

[[noreturn]] void fail(const std::string& what, CUptiResult r) {
  throw Error(what + ": " + describe_result(static_cast<int>(r)));
}

}  // namespace

std::string describe_result(int cupti_result) {
  const auto r = static_cast<CUptiResult>(cupti_result);
  std::string s = result_name(r);
  switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      s += " (GPU performance counters are restricted to administrators: run as root or set "
           "NVreg_RestrictProfilingToAdminUsers=0, see "
           "https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
      break;
    case CUPTI_ERROR_HARDWARE_BUSY:
      s += " (another process is profiling this GPU: ncu, nsys, DCGM's profiling module, or "
           "another rank on the same GPU)";
      break;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
      s += " (another profiler holds the GPU's counters: run rooftop outside ncu, nsys and "
           "other CUPTI tools)";
      break;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
      s += " (this GPU or configuration does not support CUPTI's Range Profiler; it needs "
           "compute capability 7.5 or newer)";
      break;
    default:
      break;
  }
  return s;
}

std::string driver_too_old(int driver_version, int built_with) {
  const auto version = [](int v) {
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
  };
  const int needed = std::max(12060, built_with / 1000 * 1000);
  if (driver_version >= needed) return "";
  return "the CUDA driver supports CUDA " + version(driver_version) + ", older than the CUDA " +
         version(needed) + " that this build's CUPTI (CUDA " + version(built_with) +
         ") needs for GPU counters: update the NVIDIA driver" +
         (built_with >= 13000 ? " (r580 or newer)" : "");
}

std::uint32_t cupti_version() {
  std::uint32_t version = 0;
  if (const CUptiResult r = api().cuptiGetVersion(&version); r != CUPTI_SUCCESS)
    fail("cuptiGetVersion", r);
  return version;
}

std::vector<std::string> supported_chips() {
  CUpti_Profiler_Host_GetSupportedChips_Params p{};
  p.structSize = CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE;
  if (const CUptiResult r = api().cuptiProfilerHostGetSupportedChips(&p); r != CUPTI_SUCCESS)
    fail("cuptiProfilerHostGetSupportedChips", r);
  std::vector<std::string> chips;
  for (std::size_t i = 0; i < p.numChips; ++i)
    if (p.ppChipNames && p.ppChipNames[i]) chips.emplace_back(p.ppChipNames[i]);
  return chips;
}

std::size_t range_count(const std::vector<std::uint8_t>& counter_data) {
  if (counter_data.empty()) throw Error("counter-data image is empty");
  CUpti_RangeProfiler_GetCounterDataInfo_Params p{};
  p.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
  p.pCounterDataImage = counter_data.data();
  p.counterDataImageSize = counter_data.size();
  if (const CUptiResult r = api().cuptiRangeProfilerGetCounterDataInfo(&p); r != CUPTI_SUCCESS)
    fail("cuptiRangeProfilerGetCounterDataInfo(counting the ranges of a counter-data image)", r);
  return p.numTotalRanges;
}

ProfilerHost::ProfilerHost(std::string chip, std::vector<std::uint8_t> counter_availability)
    : chip_(std::move(chip)), counter_availability_(std::move(counter_availability)) {
  open();
}

ProfilerHost::~ProfilerHost() { close(); }

ProfilerHost::ProfilerHost(ProfilerHost&& other) noexcept
    : chip_(std::move(other.chip_)),
      counter_availability_(std::move(other.counter_availability_)),
      metrics_(std::move(other.metrics_)),
      object_(std::exchange(other.object_, nullptr)) {}

ProfilerHost& ProfilerHost::operator=(ProfilerHost&& other) noexcept {
  if (this != &other) {
    close();
    chip_ = std::move(other.chip_);
    counter_availability_ = std::move(other.counter_availability_);
    metrics_ = std::move(other.metrics_);
    object_ = std::exchange(other.object_, nullptr);
  }
  return *this;
}

void ProfilerHost::open() {
  CUpti_Profiler_Host_Initialize_Params p{};
  p.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = chip_.c_str();
  p.pCounterAvailabilityImage =
      counter_availability_.empty() ? nullptr : counter_availability_.data();
  if (const CUptiResult r = api().cuptiProfilerHostInitialize(&p);
      r != CUPTI_SUCCESS || !p.pHostObject) {
    std::string known;
    try {
      known = " (this CUPTI knows " + core::join(supported_chips(), " ") + ")";
    } catch (const Error&) {
    }
    fail("cuptiProfilerHostInitialize for chip \"" + chip_ + "\"" + known, r);
  }
  object_ = p.pHostObject;
}

void ProfilerHost::close() noexcept {
  if (!object_) return;
  CUpti_Profiler_Host_Deinitialize_Params p{};
  p.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
  p.pHostObject = object_;
  api().cuptiProfilerHostDeinitialize(&p);  // nothing to do about a failure here
  object_ = nullptr;
}

std::string ProfilerHost::check_metric(const std::string& name) const {
  if (!object_) throw Error("CUPTI profiler host for " + chip_ + " was moved from");
  CUpti_Profiler_Host_GetMetricProperties_Params p{};
  p.structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE;
  p.pHostObject = object_;
  p.pMetricName = name.c_str();
  const CUptiResult r = api().cuptiProfilerHostGetMetricProperties(&p);
  if (r == CUPTI_SUCCESS) return "";
  return "not a metric on " + chip_ + " (" + result_name(r) + ")";
}

ProfilerHost::MetricDescription ProfilerHost::describe_metric(const std::string& name) const {
  if (!object_) throw Error("CUPTI profiler host for " + chip_ + " was moved from");
  CUpti_Profiler_Host_GetMetricProperties_Params p{};
  p.structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE;
  p.pHostObject = object_;
  p.pMetricName = name.c_str();
  if (const CUptiResult r = api().cuptiProfilerHostGetMetricProperties(&p); r != CUPTI_SUCCESS)
    fail(name + " on " + chip_, r);
  return {p.pDescription ? p.pDescription : "", p.pDimUnit ? p.pDimUnit : ""};
}

void ProfilerHost::add_batch(const std::vector<std::string>& names) {
  if (names.empty()) return;
  std::vector<const char*> pointers;
  pointers.reserve(names.size());
  for (const std::string& n : names) pointers.push_back(n.c_str());
  CUpti_Profiler_Host_ConfigAddMetrics_Params p{};
  p.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
  p.pHostObject = object_;
  p.ppMetricNames = pointers.data();
  p.numMetrics = pointers.size();
  if (const CUptiResult r = api().cuptiProfilerHostConfigAddMetrics(&p); r != CUPTI_SUCCESS)
    fail("cuptiProfilerHostConfigAddMetrics on " + chip_ + " (" + core::join(names, " ") + ")", r);
}

std::vector<SkippedMetric> ProfilerHost::add_metrics(const std::vector<std::string>& names) {
  if (!object_) throw Error("CUPTI profiler host for " + chip_ + " was moved from");
  std::vector<SkippedMetric> skipped;
  std::vector<std::string> candidates;
  for (const std::string& name : names) {
    bool already = false;
    for (const std::string& m : metrics_) already = already || m == name;
    for (const std::string& c : candidates) already = already || c == name;
    if (already) continue;
    if (std::string why = check_metric(name); !why.empty())
      skipped.push_back({name, std::move(why)});
    else
      candidates.push_back(name);
  }
  try {
    add_batch(candidates);
  } catch (const Error&) {
    // The host object is unusable after a failed add: find the metrics that cannot be
    // scheduled one at a time on scratch objects, then rebuild with the others in one batch.
    std::vector<std::string> good;
    for (const std::string& name : candidates) {
      ProfilerHost scratch(chip_, counter_availability_);
      try {
        scratch.add_batch({name});
        good.push_back(name);
      } catch (const Error& e) {
        skipped.push_back({name, std::string("cannot be scheduled on ") + chip_ + ": " + e.what()});
      }
    }
    close();
    open();
    std::vector<std::string> all = metrics_;
    all.insert(all.end(), good.begin(), good.end());
    add_batch(all);  // a failure here is a combination CUPTI refuses: let it throw
    candidates = std::move(good);
  }
  metrics_.insert(metrics_.end(), candidates.begin(), candidates.end());
  return skipped;
}

std::vector<std::uint8_t> ProfilerHost::config_image() const {
  if (!object_) throw Error("CUPTI profiler host for " + chip_ + " was moved from");
  if (metrics_.empty()) throw Error("no metrics to build a CUPTI config image for on " + chip_);
  CUpti_Profiler_Host_GetConfigImageSize_Params sp{};
  sp.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
  sp.pHostObject = object_;
  if (const CUptiResult r = api().cuptiProfilerHostGetConfigImageSize(&sp); r != CUPTI_SUCCESS)
    fail("cuptiProfilerHostGetConfigImageSize on " + chip_, r);
  std::vector<std::uint8_t> image(sp.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params p{};
  p.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
  p.pHostObject = object_;
  p.configImageSize = image.size();
  p.pConfigImage = image.data();
  if (const CUptiResult r = api().cuptiProfilerHostGetConfigImage(&p); r != CUPTI_SUCCESS)
    fail("cuptiProfilerHostGetConfigImage on " + chip_, r);
  if (image.empty()) throw Error("CUPTI built an empty config image for " + chip_);
  return image;
}

std::size_t ProfilerHost::passes(const std::vector<std::uint8_t>& config_image) {
  if (config_image.empty()) throw Error("CUPTI config image is empty");
  std::vector<std::uint8_t> copy = config_image;  // the API takes a non-const pointer
  CUpti_Profiler_Host_GetNumOfPasses_Params p{};
  p.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
  p.configImageSize = copy.size();
  p.pConfigImage = copy.data();
  if (const CUptiResult r = api().cuptiProfilerHostGetNumOfPasses(&p); r != CUPTI_SUCCESS)
    fail("cuptiProfilerHostGetNumOfPasses", r);
  return p.numOfPasses;
}

MetricValues ProfilerHost::evaluate(const std::vector<std::uint8_t>& counter_data,
                                    std::size_t range) const {
  if (!object_) throw Error("CUPTI profiler host for " + chip_ + " was moved from");
  if (counter_data.empty()) throw Error("counter-data image is empty");
  MetricValues values;
  if (metrics_.empty()) return values;
  std::vector<const char*> names;
  for (const std::string& m : metrics_) names.push_back(m.c_str());
  std::vector<double> out(names.size(), 0.0);
  CUpti_Profiler_Host_EvaluateToGpuValues_Params p{};
  p.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
  p.pHostObject = object_;
  p.pCounterDataImage = counter_data.data();
  p.counterDataImageSize = counter_data.size();
  p.rangeIndex = range;
  p.ppMetricNames = names.data();
  p.numMetrics = names.size();
  p.pMetricValues = out.data();
  if (const CUptiResult r = api().cuptiProfilerHostEvaluateToGpuValues(&p); r != CUPTI_SUCCESS)
    fail("cuptiProfilerHostEvaluateToGpuValues on " + chip_ + " (range " + std::to_string(range) +
             ")",
         r);
  for (std::size_t i = 0; i < names.size(); ++i) values[metrics_[i]] = out[i];
  return values;
}

}  // namespace rooftop::counters::cupti
