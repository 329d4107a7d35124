#pragma once
// libcupti's functions, opened at run time (dlopen) the first time counting needs them,
// not linked: a process that counts nothing never loads libcupti. Nsight Compute
// injects its own CUPTI into the process it profiles, and `analyze --no-cupti` runs
// under it. Every CUPTI call of this library goes through api().

#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <cupti_version.h>

namespace rooftop::counters::cupti {

// One table for the list of functions used.
#define ROOFTOP_CUPTI_FUNCTIONS(X)                                                                 \
  X(cuptiGetVersion)                                                                               \
  X(cuptiGetResultString) X(cuptiDeviceGetChipName) X(cuptiProfilerInitialize)                     \
      X(cuptiProfilerDeInitialize) X(cuptiProfilerDeviceSupported)                                 \
          X(cuptiProfilerGetCounterAvailability) X(cuptiProfilerHostInitialize)                    \
              X(cuptiProfilerHostDeinitialize) X(cuptiProfilerHostGetSupportedChips)               \
                  X(cuptiProfilerHostConfigAddMetrics) X(cuptiProfilerHostGetConfigImageSize)      \
                      X(cuptiProfilerHostGetConfigImage) X(cuptiProfilerHostGetNumOfPasses)        \
                          X(cuptiProfilerHostGetMetricProperties)                                  \
                              X(cuptiProfilerHostEvaluateToGpuValues) X(cuptiRangeProfilerEnable)  \
                                  X(cuptiRangeProfilerDisable) X(cuptiRangeProfilerSetConfig) X(   \
                                      cuptiRangeProfilerStart) X(cuptiRangeProfilerStop)           \
                                      X(cuptiRangeProfilerPushRange) X(cuptiRangeProfilerPopRange) \
                                          X(cuptiRangeProfilerDecodeData)                          \
                                              X(cuptiRangeProfilerGetCounterDataSize)              \
                                                  X(cuptiRangeProfilerCounterDataImageInitialize)  \
                                                      X(cuptiRangeProfilerGetCounterDataInfo)    \
  /* the launch callbacks and kernel activity records of the injection library */                \
  X(cuptiSubscribe) X(cuptiUnsubscribe) X(cuptiEnableCallback) X(cuptiEnableDomain)                \
      X(cuptiActivityRegisterCallbacks) X(cuptiActivityEnable) X(cuptiActivityFlushAll)           \
          X(cuptiActivityGetNextRecord) X(cuptiActivityGetNumDroppedRecords)

struct Api {
#define ROOFTOP_CUPTI_POINTER(name) decltype(&::name) name = nullptr;
  ROOFTOP_CUPTI_FUNCTIONS(ROOFTOP_CUPTI_POINTER)
#undef ROOFTOP_CUPTI_POINTER
};

// libcupti's functions; opens the library on the first call (by its soname, which the
// library path finds, else where the build found it). Throws rooftop::Error naming the
// library and the loader's reason when it cannot be opened or lacks a function.
const Api& api();

}  // namespace rooftop::counters::cupti
