// rooftop_counters: PyTorch profiler traces of CUPTI counters (kineto's cuda_profiler_range
// events, profiler_metrics with profiler_measure_per_kernel). The real trace is
// HolisticTraceAnalysis's test data (fixtures/README.md): AlexNet on an A100, the nine SASS
// FLOP counters per kernel, no bytes and no kernel events. The tests that add metrics or a
// trace of kernel times build them from it in the test code, saying why.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "import_support.hpp"
#include "rooftop/core/roofline.hpp"
#include "rooftop/counters/import.hpp"

namespace rooftop::counters {
namespace {

using nlohmann::json;
using testing::find;
using testing::has_note;
using testing::import_fixture;
using testing::inflated;

const char* const kTrace = "pytorch-cupti-metrics-alexnet-a100.json.gz";

TEST(ImportPytorchMetrics, RangeCountersOfARealTraceGoThroughTheEvaluator) {
  const ImportResult r = parse_report(import_fixture(kTrace), "m.json.gz");
  EXPECT_EQ(r.format, "pytorch-metrics");
  ASSERT_EQ(r.kernels.size(), 16u);  // 77 ranges of 15 kernel names and one unnamed
  // cuBLAS's SGEMM, 6 ranges: FADD + FMUL + 2 FFMA of the smsp__ counters, summed.
  const core::KernelRecord& sgemm = find(r, "ampere_sgemm_32x32_sliced1x4_tn");
  EXPECT_EQ(sgemm.invocations, 6);
  EXPECT_EQ(sgemm.flops_fp32, 30160191488.0);
  EXPECT_EQ(sgemm.flops_fp16 + sgemm.flops_fp64, 0.0);
  EXPECT_EQ(sgemm.precision, "fp32");
  EXPECT_GE(sgemm.fma_fraction, 0.0);  // every part of every precision was collected
  EXPECT_EQ(sgemm.source, "pytorch-metrics-import");
  // The ranges' ts and dur are kineto's span split evenly: no time, and no bytes here.
  EXPECT_EQ(sgemm.time_s, 0.0);
  EXPECT_EQ(sgemm.time_source, "none");
  EXPECT_TRUE(sgemm.bytes.empty());
  EXPECT_TRUE(has_note(r, "no kernel's time")) << testing::all_notes(r);
  EXPECT_TRUE(has_note(r, "placed by arithmetic intensity only, where bytes were counted"))
      << testing::all_notes(r);
  // FP32 and FP16 both counted on PyTorch's add kernel.
  const core::KernelRecord& add = find(r, "void at::native::elementwise_kernel<128, 2");
  EXPECT_EQ(add.invocations, 10);
  EXPECT_EQ(add.flops_fp32, 248315904.0);
  EXPECT_EQ(add.flops_fp16, 496631808.0);
  // kineto's "__missing__" range: kept, under a name no timing file's kernel can take.
  const core::KernelRecord& unnamed = find(r, "[ranges without a kernel name]");
  EXPECT_EQ(unnamed.flops_fp32, 18263449600.0);
  EXPECT_TRUE(has_note(r, "named \"__missing__\"")) << testing::all_notes(r);
  EXPECT_TRUE(r.flops_short.empty()) << "all nine SASS FLOP counters are in the trace";
}

// The real trace with the events' args added to by `add` (a range's bytes and time, which
// this trace did not ask for), compressed again.
template <class Add>
std::string with_args(Add add) {
  json doc = json::parse(inflated(import_fixture(kTrace)));
  for (json& e : doc["traceEvents"])
    if (e.value("cat", "") == "cuda_profiler_range") add(e["args"]);
  return doc.dump();
}

TEST(ImportPytorchMetrics, BytesAndDurationsCollectedPlaceKernelsByIntensity) {
  // Built from the real trace: each range also given dram__bytes.sum (1 MB) and
  // gpu__time_duration.sum (20 us), the values a profile asking for them would carry (its
  // args hold each metric asked for, as kineto's addMetadata writes them).
  const std::string text = with_args([](json& args) {
    args["dram__bytes.sum"] = 1.0e6;
    args["gpu__time_duration.sum"] = 20000.0;
  });
  const ImportResult r = parse_report(text, "m.json");
  const core::KernelRecord& sgemm = find(r, "ampere_sgemm_32x32_sliced1x4_tn");
  EXPECT_DOUBLE_EQ(sgemm.time_s, 6 * 20e-6);
  EXPECT_EQ(sgemm.time_source, "CUPTI gpu__time_duration.sum of the profiled (replayed) ranges");
  ASSERT_NE(sgemm.find_bytes("dram"), nullptr);
  EXPECT_EQ(sgemm.find_bytes("dram")->bytes, 6e6);
  core::CeilingsFile ceilings = rooftop::testing::sample_ceilings_file();
  const core::Placement p = core::place(sgemm, ceilings);
  ASSERT_EQ(p.levels.size(), 1u);
  EXPECT_DOUBLE_EQ(p.levels[0].arithmetic_intensity, 30160191488.0 / 6e6);
}

TEST(ImportPytorchMetrics, AnOrdinaryTraceBesideItTimesTheKernels) {
  // kineto runs the range profiler alone (no kernel events in its trace), so no public pair
  // of one run exists: the ordinary trace of a second run is built here with two of the
  // real trace's kernel names, as export_chrome_trace writes kernel events (cat "kernel",
  // ph "X", dur in microseconds).
  json events = json::array();
  for (int i = 0; i < 6; ++i)
    events.push_back({{"ph", "X"},
                      {"cat", "kernel"},
                      {"name", "ampere_sgemm_32x32_sliced1x4_tn"},
                      {"ts", 1000 + 100 * i},
                      {"dur", 50.0},
                      {"args", json::object()}});
  const std::string timing = json{{"traceEvents", events}}.dump();
  const ImportResult r = parse_reports({{import_fixture(kTrace), "m.json.gz"}, {timing, "t.json"}});
  EXPECT_EQ(r.format, "pytorch-metrics");
  const core::KernelRecord& sgemm = find(r, "ampere_sgemm_32x32_sliced1x4_tn");
  EXPECT_DOUBLE_EQ(sgemm.time_s, 6 * 50e-6);
  EXPECT_EQ(sgemm.time_source, "PyTorch profiler kernel durations");
  EXPECT_TRUE(has_note(r, "m.json.gz: timed by t.json")) << testing::all_notes(r);
  EXPECT_TRUE(has_note(r, "t.json has no time for")) << testing::all_notes(r);
  core::CeilingsFile ceilings = rooftop::testing::sample_ceilings_file();
  EXPECT_NEAR(core::place(sgemm, ceilings).gflop_per_s, 30160191488.0 / 300e-6 * 1e-9, 1e-6);
}

TEST(ImportPytorchMetrics, ATraceOfCountersTimesNothing) {
  const std::string e = rooftop::testing::error_of([] {
    parse_report(import_fixture("ncu-text-h200-torch.txt"), "n.txt", import_fixture(kTrace),
                 "m.json.gz");
  });
  EXPECT_EQ(e,
            "m.json.gz: PyTorch profiler metric trace holds no kernel times, so it cannot "
            "time another report");
}

TEST(ImportPytorchMetrics, ACountThatNoCounterCanHaveIsOneLine) {
  const std::string text = with_args([](json& args) { args["dram__bytes.sum"] = -5.0; });
  const std::string e = rooftop::testing::error_of([&] { parse_report(text, "m.json"); });
  EXPECT_NE(e.find("m.json: trace event"), std::string::npos) << e;
  EXPECT_NE(e.find("has dram__bytes.sum = -5.0, not a non-negative count"), std::string::npos) << e;
}

}  // namespace
}  // namespace rooftop::counters
