#include "rooftop/counters/cupti_range.hpp"

#include <cuda.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <optional>
#include <utility>

#include "cupti_api.hpp"
#include "rooftop/core/error.hpp"

namespace rooftop::counters::cupti {
namespace {

[[noreturn]] void fail(const std::string& what, CUptiResult r) {
  const std::string message = what + ": " + describe_result(static_cast<int>(r));
  switch (r) {
    case CUPTI_ERROR_HARDWARE_BUSY:
      throw CountersBusy(message);
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
      throw CountersRefused(message);
    default:
      throw Error(message);
  }
}

void check(CUptiResult r, const char* what) {
  if (r != CUPTI_SUCCESS) fail(what, r);
}

[[noreturn]] void fail_driver(const std::string& what, CUresult r) {
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  throw Error(what + ": " +
              (name ? name : "CUDA driver error " + std::to_string(static_cast<int>(r))));
}

std::string support_problems(const CUpti_Profiler_DeviceSupported_Params& p) {
  std::string s;
  const auto add = [&s](CUpti_Profiler_Support_Level level, const char* what) {
    if (level == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED ||
        level == CUPTI_PROFILER_CONFIGURATION_DISABLED)
      s += std::string(s.empty() ? "" : ", ") + what +
           (level == CUPTI_PROFILER_CONFIGURATION_DISABLED ? " (disabled)" : "");
  };
  add(p.architecture, "GPU architecture older than compute capability 7.5");
  add(p.sli, "SLI");
  add(p.vGpu, "vGPU without profiling enabled");
  add(p.confidentialCompute, "confidential computing");
  add(p.cmp, "crypto-mining processor");
  add(p.wsl, "WSL");
  return s.empty() ? "reason not given" : s;
}

}  // namespace

struct RangeProfiler::State {
  RangeProfilerOptions options;
  CUcontext context = nullptr;
  CUdevice device = 0;
  bool profiler_initialized = false;
  std::string chip;
  std::optional<ProfilerHost> host;  // once the chip is known
  std::vector<SkippedMetric> skipped;
  std::vector<std::uint8_t> config;
  std::size_t passes = 0;
  // One collection at a time.
  CUpti_RangeProfiler_Object* object = nullptr;
  std::vector<std::uint8_t> counter_data;

  ~State() {
    disable();
    if (profiler_initialized) {
      CUpti_Profiler_DeInitialize_Params p{};
      p.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE;
      api().cuptiProfilerDeInitialize(&p);
    }
  }

  void disable() noexcept {
    if (!object) return;
    CUpti_RangeProfiler_Disable_Params p{};
    p.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = object;
    api().cuptiRangeProfilerDisable(&p);
    object = nullptr;
  }

  // Enables the profiler on the context and sizes its counter-data image.
  void enable_object() {
    if (object) throw Error("CUPTI range profiler: a collection is already running");
    CUpti_RangeProfiler_Enable_Params e{};
    e.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
    e.ctx = context;
    check(api().cuptiRangeProfilerEnable(&e), "cuptiRangeProfilerEnable");
    object = e.pRangeProfilerObject;
    try {
      std::vector<const char*> names;
      for (const std::string& m : host->metrics()) names.push_back(m.c_str());
      CUpti_RangeProfiler_GetCounterDataSize_Params s{};
      s.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
      s.pRangeProfilerObject = object;
      s.pMetricNames = names.data();
      s.numMetrics = names.size();
      s.maxNumOfRanges = options.max_ranges;
      s.maxNumRangeTreeNodes = static_cast<std::uint32_t>(options.max_ranges);
      check(api().cuptiRangeProfilerGetCounterDataSize(&s), "cuptiRangeProfilerGetCounterDataSize");
      counter_data.assign(s.counterDataSize, 0);
    } catch (...) {
      disable();
      throw;
    }
  }

  // An empty counter-data image and the config, for the next collection: host-side work
  // on an enabled profiler (SetConfig is also how each pass of user replay is chosen).
  void configure(CUpti_ProfilerRange range, CUpti_ProfilerReplayMode replay) {
    if (!object) throw Error("CUPTI range profiler: not enabled");
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params i{};
    i.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
    i.pRangeProfilerObject = object;
    i.counterDataSize = counter_data.size();
    i.pCounterData = counter_data.data();
    check(api().cuptiRangeProfilerCounterDataImageInitialize(&i),
          "cuptiRangeProfilerCounterDataImageInitialize");

    CUpti_RangeProfiler_SetConfig_Params c{};
    c.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
    c.pRangeProfilerObject = object;
    c.configSize = config.size();
    c.pConfig = config.data();
    c.counterDataImageSize = counter_data.size();
    c.pCounterDataImage = counter_data.data();
    c.range = range;
    c.replayMode = replay;
    c.maxRangesPerPass = options.max_ranges;
    c.numNestingLevels = 1;
    c.minNestingLevel = 1;
    c.passIndex = 0;
    c.targetNestingLevel = 1;
    check(api().cuptiRangeProfilerSetConfig(&c), "cuptiRangeProfilerSetConfig");
  }

  void enable(CUpti_ProfilerRange range, CUpti_ProfilerReplayMode replay) {
    enable_object();
    try {
      configure(range, replay);
    } catch (...) {
      disable();
      throw;
    }
  }

  void start() {
    CUpti_RangeProfiler_Start_Params p{};
    p.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = object;
    check(api().cuptiRangeProfilerStart(&p), "cuptiRangeProfilerStart");
  }

  bool stop() {  // true once every pass is submitted
    CUpti_RangeProfiler_Stop_Params p{};
    p.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = object;
    check(api().cuptiRangeProfilerStop(&p), "cuptiRangeProfilerStop");
    return p.isAllPassSubmitted != 0;
  }

  // Decodes what the hardware holds into the counter-data image; the ranges it holds.
  std::size_t decode() {
    CUpti_RangeProfiler_DecodeData_Params d{};
    d.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
    d.pRangeProfilerObject = object;
    check(api().cuptiRangeProfilerDecodeData(&d), "cuptiRangeProfilerDecodeData");
    dropped = d.numOfRangeDropped;
    return range_count(counter_data);
  }
  std::size_t dropped = 0;  // by the last decode

  // Decodes the counter data, sums every range, and disables the profiler.
  Collection finish(std::size_t passes_run) {
    Collection out;
    out.passes = passes_run;
    try {
      out.ranges = decode();
      out.dropped_ranges = dropped;
      for (std::size_t r = 0; r < out.ranges; ++r)
        accumulate(out.values, host->evaluate(counter_data, r));
    } catch (...) {
      disable();
      throw;
    }
    disable();
    return out;
  }
};

RangeProfiler::RangeProfiler(RangeProfilerOptions options) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.options = std::move(options);
  if (s.options.max_ranges == 0) s.options.max_ranges = 1;

  if (const std::uint32_t v = cupti_version(); v < kFirstRangeProfilerVersion)
    throw Error("CUPTI API version " + std::to_string(v) +
                " is older than CUDA 12.6's (24): counters need CUPTI's Range Profiler, "
                "CUDA 12.6 or newer");
  int driver = 0;
  if (const CUresult r = cuDriverGetVersion(&driver); r != CUDA_SUCCESS)
    fail_driver("cuDriverGetVersion", r);
  if (std::string why = driver_too_old(driver, CUDA_VERSION); !why.empty())
    throw CountersRefused(why);
  if (const CUresult r = cuCtxGetCurrent(&s.context); r != CUDA_SUCCESS)
    fail_driver("cuCtxGetCurrent", r);
  if (!s.context)
    throw Error("no current CUDA context: initialize Kokkos (or CUDA) on a GPU before profiling");
  if (const CUresult r = cuCtxGetDevice(&s.device); r != CUDA_SUCCESS)
    fail_driver("cuCtxGetDevice", r);

  CUpti_Profiler_Initialize_Params init{};
  init.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
  check(api().cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
  s.profiler_initialized = true;

  CUpti_Profiler_DeviceSupported_Params supported{};
  supported.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
  supported.cuDevice = s.device;
  check(api().cuptiProfilerDeviceSupported(&supported), "cuptiProfilerDeviceSupported");
  if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    throw Error("CUPTI cannot profile CUDA device " + std::to_string(s.device) + ": " +
                support_problems(supported));

  CUpti_Device_GetChipName_Params chip{};
  chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
  chip.deviceIndex = static_cast<std::size_t>(s.device);
  check(api().cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
  s.chip = chip.pChipName ? chip.pChipName : "";

  // Which counters this device can collect now; counters another process holds, or
  // a restricted driver, show up here or at cuptiRangeProfilerEnable.
  CUpti_Profiler_GetCounterAvailability_Params a{};
  a.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
  a.ctx = s.context;
  check(api().cuptiProfilerGetCounterAvailability(&a), "cuptiProfilerGetCounterAvailability");
  std::vector<std::uint8_t> availability(a.counterAvailabilityImageSize);
  a.pCounterAvailabilityImage = availability.data();
  check(api().cuptiProfilerGetCounterAvailability(&a), "cuptiProfilerGetCounterAvailability");

  s.host.emplace(s.chip, std::move(availability));
  s.skipped = s.host->add_metrics(s.options.metrics);
  if (s.host->metrics().empty())
    throw Error("none of the roofline metrics can be collected on " + s.chip);
  s.config = s.host->config_image();
  s.passes = ProfilerHost::passes(s.config);
}

RangeProfiler::~RangeProfiler() = default;
RangeProfiler::RangeProfiler(RangeProfiler&&) noexcept = default;
RangeProfiler& RangeProfiler::operator=(RangeProfiler&&) noexcept = default;

const std::string& RangeProfiler::chip() const { return state_->chip; }
const std::vector<std::string>& RangeProfiler::metrics() const { return state_->host->metrics(); }
const std::vector<SkippedMetric>& RangeProfiler::skipped() const { return state_->skipped; }
std::size_t RangeProfiler::passes() const { return state_->passes; }

Collection RangeProfiler::collect_user_range(const std::string& name,
                                             const std::function<void()>& run) {
  State& s = *state_;
  s.enable(CUPTI_UserRange, CUPTI_UserReplay);
  std::size_t passes = 0;
  bool started = false, pushed = false;
  try {
    // A pass count far above the config's means the ranges never completed.
    const std::size_t limit = 4 * s.passes + 8;
    bool all_submitted = false;
    while (!all_submitted) {
      if (passes >= limit)
        throw Error("CUPTI range profiler: " + name + " still not collected after " +
                    std::to_string(passes) + " replay passes (the config needs " +
                    std::to_string(s.passes) + ")");
      s.start();
      started = true;
      CUpti_RangeProfiler_PushRange_Params push{};
      push.structSize = CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE;
      push.pRangeProfilerObject = s.object;
      push.pRangeName = name.c_str();
      check(api().cuptiRangeProfilerPushRange(&push), "cuptiRangeProfilerPushRange");
      pushed = true;
      run();
      CUpti_RangeProfiler_PopRange_Params pop{};
      pop.structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE;
      pop.pRangeProfilerObject = s.object;
      pushed = false;
      check(api().cuptiRangeProfilerPopRange(&pop), "cuptiRangeProfilerPopRange");
      started = false;
      all_submitted = s.stop();
      ++passes;
    }
  } catch (...) {
    // Close what is open in the order CUPTI opened it, so that the next collection's
    // Enable finds the profiler as after a clean run; their own failures change nothing.
    if (pushed) {
      CUpti_RangeProfiler_PopRange_Params pop{};
      pop.structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE;
      pop.pRangeProfilerObject = s.object;
      api().cuptiRangeProfilerPopRange(&pop);
    }
    if (started) {
      CUpti_RangeProfiler_Stop_Params stop{};
      stop.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
      stop.pRangeProfilerObject = s.object;
      api().cuptiRangeProfilerStop(&stop);
    }
    s.disable();
    throw;
  }
  return s.finish(passes);
}

void RangeProfiler::enable_auto() { state_->enable_object(); }
void RangeProfiler::reset_image() { state_->configure(CUPTI_AutoRange, CUPTI_KernelReplay); }
void RangeProfiler::start() { state_->start(); }
void RangeProfiler::stop() {
  // Kernel replay finishes every pass inside each launch.
  if (!state_->stop()) throw Error("CUPTI range profiler: kernel replay left passes unsubmitted");
}
std::size_t RangeProfiler::decode() { return state_->decode(); }
std::size_t RangeProfiler::dropped() const { return state_->dropped; }
MetricValues RangeProfiler::evaluate(std::size_t range) const {
  return state_->host->evaluate(state_->counter_data, range);
}
void RangeProfiler::disable() noexcept { state_->disable(); }

namespace {

class CuptiAutoTarget final : public AutoRangeTarget {
 public:
  explicit CuptiAutoTarget(RangeProfilerOptions options) : profiler_(std::move(options)) {}
  AutoRangeSetup setup() const override {
    return {profiler_.chip(), profiler_.metrics(), profiler_.skipped(), profiler_.passes()};
  }
  void enable() override { profiler_.enable_auto(); }
  void reset_image() override { profiler_.reset_image(); }
  void start() override { profiler_.start(); }
  void stop() override { profiler_.stop(); }
  std::size_t decode() override { return profiler_.decode(); }
  std::size_t dropped() const override { return profiler_.dropped(); }
  MetricValues evaluate(std::size_t range) override { return profiler_.evaluate(range); }
  void disable() noexcept override { profiler_.disable(); }

 private:
  RangeProfiler profiler_;
};

}  // namespace

std::unique_ptr<AutoRangeTarget> make_auto_range_target(RangeProfilerOptions options) {
  return std::make_unique<CuptiAutoTarget>(std::move(options));
}

}  // namespace rooftop::counters::cupti
