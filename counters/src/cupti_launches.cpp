#include "rooftop/counters/cupti_launches.hpp"

#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <cstdlib>
#include <string>

#include "cupti_api.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/counters/auto_ranges.hpp"
#include "rooftop/counters/cupti_host.hpp"

namespace rooftop::counters::cupti {
namespace {

// Every API entry point that launches a kernel: one row each.
struct LaunchEntry {
  CUpti_CallbackDomain domain;
  CUpti_CallbackId id;
};
constexpr LaunchEntry kLaunchEntries[] = {
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunch},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz},
};

constexpr std::size_t kBufferBytes = 8u << 20;
constexpr std::size_t kRecordAlignment = 8;

LaunchListener* g_listener = nullptr;
CUpti_SubscriberHandle g_subscriber = nullptr;

void check(CUptiResult r, const char* what) {
  if (r == CUPTI_SUCCESS) return;
  const std::string message = std::string(what) + ": " + describe_result(static_cast<int>(r));
  if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) throw CountersRefused(message);
  throw Error(message);
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                          const void* data) {
  if (!g_listener) return;
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    if (id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) g_listener->context_ending();
    return;
  }
  const auto* call = static_cast<const CUpti_CallbackData*>(data);
  if (call->callbackSite == CUPTI_API_ENTER)
    g_listener->launch_enter(call->symbolName, call->correlationId);
  else
    g_listener->launch_exit();
}

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(kRecordAlignment, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext context, std::uint32_t stream, std::uint8_t* buffer,
                               std::size_t, std::size_t valid) {
  CUpti_Activity* record = nullptr;
  while (g_listener &&
         api().cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
        record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
      continue;
    // The header's record version; CUPTI only appends fields to it.
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    g_listener->kernel_ran(k->name, k->correlationId, k->start, k->end);
  }
  std::size_t dropped = 0;
  if (g_listener &&
      api().cuptiActivityGetNumDroppedRecords(context, stream, &dropped) == CUPTI_SUCCESS &&
      dropped > 0)
    g_listener->records_dropped(dropped);
  std::free(buffer);
}

}  // namespace

void trace_launches(LaunchListener& listener) {
  const Api& cupti = api();
  g_listener = &listener;
  check(cupti.cuptiSubscribe(&g_subscriber, on_callback, nullptr), "cuptiSubscribe");
  for (const LaunchEntry& e : kLaunchEntries)
    check(cupti.cuptiEnableCallback(1, g_subscriber, e.domain, e.id), "cuptiEnableCallback");
  check(cupti.cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                  CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING),
        "cuptiEnableCallback");
  check(cupti.cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
        "cuptiActivityRegisterCallbacks");
  check(cupti.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable");
}

void flush_kernel_records() noexcept {
  try {
    api().cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  } catch (...) {  // no libcupti: nothing was buffered
  }
}

}  // namespace rooftop::counters::cupti
