// core::kTensorPaths against every metric name CUPTI's Profiler Host API lists for each
// chip it knows (cuptiProfilerHostGetBaseMetrics, no GPU needed): each row's metric is
// one some chip has, and no chip counts FP8 E4M3 apart from E5M2, which is why FP8
// operations have one row and are placed against tc_fp8_e4m3 (vocabulary.hpp says why).
// Where this machine's CUPTI refuses the host API, the tests are skipped with its reason.

#include <cupti_profiler_host.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/counters/cupti_host.hpp"

namespace rooftop::counters::cupti {
namespace {

// The base names of every counter metric CUPTI lists for `chip` ("sm__ops_path_tensor_
// src_fp8", no ".sum"); empty where the host object cannot be made.
std::set<std::string> counter_metrics(const std::string& chip) {
  CUpti_Profiler_Host_Initialize_Params init{};
  init.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = chip.c_str();
  if (cuptiProfilerHostInitialize(&init) != CUPTI_SUCCESS || !init.pHostObject) return {};
  CUpti_Profiler_Host_GetBaseMetrics_Params list{};
  list.structSize = CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE;
  list.pHostObject = init.pHostObject;
  list.metricType = CUPTI_METRIC_TYPE_COUNTER;
  std::set<std::string> names;
  if (cuptiProfilerHostGetBaseMetrics(&list) == CUPTI_SUCCESS && list.ppMetricNames)
    for (std::size_t i = 0; i < list.numMetrics; ++i)
      if (list.ppMetricNames[i]) names.insert(list.ppMetricNames[i]);
  CUpti_Profiler_Host_Deinitialize_Params done{};
  done.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
  done.pHostObject = init.pHostObject;
  cuptiProfilerHostDeinitialize(&done);
  return names;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// The chips this CUPTI knows; empty, with `why`, where it refuses the host API.
std::vector<std::string> known_chips(std::string& why) {
  try {
    return supported_chips();
  } catch (const Error& e) {
    why = e.what();
    return {};
  }
}

TEST(CuptiTensorPaths, EveryRowIsAMetricOfSomeChip) {
  std::string why;
  const std::vector<std::string> chips = known_chips(why);
  if (chips.empty()) GTEST_SKIP() << "CUPTI's Profiler Host API is refused here: " << why;
  std::set<std::string> all;
  for (const std::string& chip : chips) {
    const std::set<std::string> names = counter_metrics(chip);
    all.insert(names.begin(), names.end());
  }
  ASSERT_GT(all.size(), 1000u) << "CUPTI listed almost nothing";
  for (const core::TensorPath& t : core::kTensorPaths) {
    std::string base(t.metric);
    base = base.substr(0, base.rfind(".sum"));
    EXPECT_EQ(all.count(base), 1u) << t.metric << " (" << t.figure << ") is no chip's metric";
  }
}

TEST(CuptiTensorPaths, NoChipCountsE4M3ApartFromE5M2) {
  std::string why;
  const std::vector<std::string> chips = known_chips(why);
  if (chips.empty()) GTEST_SKIP() << "CUPTI's Profiler Host API is refused here: " << why;
  for (const std::string& chip : chips)
    for (const std::string& name : counter_metrics(chip))
      EXPECT_TRUE(lower(name).find("e4m3") == std::string::npos &&
                  lower(name).find("e5m2") == std::string::npos)
          << chip << " has " << name << ": give each FP8 format its row in kTensorPaths";

  // Ada and Hopper: one FP8 path, "source FP8", whatever the format.
  for (const char* chip : {"GH100", "AD102"}) {
    if (std::find(chips.begin(), chips.end(), chip) == chips.end()) continue;
    std::set<std::string> fp8;
    for (const std::string& name : counter_metrics(chip))
      if (name.rfind("sm__ops_path_tensor", 0) == 0 && name.find("fp8") != std::string::npos)
        fp8.insert(name);
    EXPECT_EQ(fp8, (std::set<std::string>{"sm__ops_path_tensor_src_fp8",
                                           "sm__ops_path_tensor_src_fp8_sparsity_off",
                                           "sm__ops_path_tensor_src_fp8_sparsity_on"}))
        << chip;
    EXPECT_EQ(ProfilerHost(chip).describe_metric("sm__ops_path_tensor_src_fp8.sum").description,
              "# of math ops executed in Tensor path with source FP8")
        << chip;
  }
  // So FP8 operations have one unit, whose figure is the one FP8 dense rate.
  std::set<std::string> fp8_figures;
  for (const core::TensorPath& t : core::kTensorPaths)
    if (std::string_view(t.metric).find("_src_fp8") != std::string_view::npos)
      fp8_figures.emplace(t.figure);
  EXPECT_EQ(fp8_figures, std::set<std::string>{"tc_fp8_e4m3"});
}

}  // namespace
}  // namespace rooftop::counters::cupti
