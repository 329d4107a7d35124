// The Kokkos Tools connector without Kokkos and without a GPU: the kernel tracker driven
// with fake callback sequences (repeated labels, nesting, a begin without an end, stray
// ends, several threads), the profile file (written, read back, malformed input), the C
// entry points of librooftop_kokkos_connector.so as Kokkos calls them, the library loaded
// into an unmodified Kokkos program, the CUPTI metric list and evaluation math with
// hand-computed numbers, and the cupti backend's answer in builds without it.

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "rooftop/analyze/cupti_backend.hpp"
#include "rooftop/connector/kernel_tracker.hpp"
#include "rooftop/connector/profile_file.hpp"
#include "rooftop/core/error.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/counters/metrics.hpp"
#include "support.hpp"

extern "C" {
struct Kokkos_Profiling_KokkosPDeviceInfo {
  std::size_t deviceID;
};
void kokkosp_init_library(int, std::uint64_t, std::uint32_t, Kokkos_Profiling_KokkosPDeviceInfo*);
void kokkosp_finalize_library();
void kokkosp_begin_parallel_for(const char*, std::uint32_t, std::uint64_t*);
void kokkosp_end_parallel_for(std::uint64_t);
void kokkosp_begin_parallel_reduce(const char*, std::uint32_t, std::uint64_t*);
void kokkosp_end_parallel_reduce(std::uint64_t);
void kokkosp_begin_parallel_scan(const char*, std::uint32_t, std::uint64_t*);
void kokkosp_end_parallel_scan(std::uint64_t);
}

namespace rooftop::connector {
namespace {

using core::KernelRecord;
namespace cupti = counters::cupti;

// Kokkos Tools device ids: the execution space type in the top 8 bits.
constexpr std::uint32_t kSerial = 0u << 24, kOpenMP = 1u << 24, kCuda = 2u << 24;

// A clock the test moves by hand.
struct FakeClock {
  double now = 100.0;
  KernelTracker::Clock clock() {
    return [this] { return now; };
  }
};

const LabelStats& stats(const std::vector<LabelStats>& all, const std::string& label) {
  for (const LabelStats& s : all)
    if (s.label == label) return s;
  ADD_FAILURE() << "no label " << label;
  static const LabelStats none;
  return none;
}

double bytes_at(const KernelRecord& r, const std::string& level) {
  for (const auto& b : r.bytes)
    if (b.level == level) return b.bytes;
  return -1.0;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

using rooftop::testing::error_of;

// ------------------------------------------------------------------------------------
// KernelTracker

TEST(KernelTracker, RepeatedLabelSumsInvocationsAndTimes) {
  FakeClock t;
  KernelTracker tracker(t.clock());
  for (double seconds : {1.0, 3.0, 2.0}) {
    const std::uint64_t id = tracker.begin("daxpy", kOpenMP, KernelKind::parallel_for);
    t.now += seconds;
    EXPECT_TRUE(tracker.end(id));
  }
  const auto all = tracker.snapshot();
  ASSERT_EQ(all.size(), 1u);
  const LabelStats& s = all[0];
  EXPECT_EQ(s.label, "daxpy");
  EXPECT_EQ(s.invocations, 3);
  EXPECT_DOUBLE_EQ(s.total_s, 6.0);
  EXPECT_DOUBLE_EQ(s.min_s, 1.0);
  EXPECT_DOUBLE_EQ(s.max_s, 3.0);
  EXPECT_EQ(s.max_depth, 0);
  EXPECT_EQ(s.unfinished, 0);
  EXPECT_EQ(s.kinds, std::vector<std::string>{"parallel_for"});
  EXPECT_EQ(s.spaces, std::vector<std::string>{"OpenMP"});
}

TEST(KernelTracker, LabelsKeepTheOrderOfFirstLaunch) {
  FakeClock t;
  KernelTracker tracker(t.clock());
  for (const char* label : {"b", "a", "b", "c", "a"})
    tracker.end(tracker.begin(label, kSerial, KernelKind::parallel_for));
  std::vector<std::string> order;
  for (const LabelStats& s : tracker.snapshot()) order.push_back(s.label);
  EXPECT_EQ(order, (std::vector<std::string>{"b", "a", "c"}));
}

TEST(KernelTracker, NestedKernelsRecordDepthAndInclusiveTimes) {
  FakeClock t;
  KernelTracker tracker(t.clock());
  const auto outer = tracker.begin("outer", kSerial, KernelKind::parallel_for);
  t.now += 1.0;
  const auto inner = tracker.begin("inner", kSerial, KernelKind::parallel_reduce);
  t.now += 2.0;
  const auto innermost = tracker.begin("innermost", kSerial, KernelKind::parallel_scan);
  t.now += 0.5;
  EXPECT_TRUE(tracker.end(innermost));
  EXPECT_TRUE(tracker.end(inner));
  t.now += 4.0;
  EXPECT_TRUE(tracker.end(outer));
  const auto all = tracker.snapshot();
  EXPECT_EQ(stats(all, "outer").max_depth, 0);
  EXPECT_EQ(stats(all, "inner").max_depth, 1);
  EXPECT_EQ(stats(all, "innermost").max_depth, 2);
  EXPECT_DOUBLE_EQ(stats(all, "outer").total_s, 7.5);  // inclusive of the inner ones
  EXPECT_DOUBLE_EQ(stats(all, "inner").total_s, 2.5);
  EXPECT_DOUBLE_EQ(stats(all, "innermost").total_s, 0.5);
  EXPECT_EQ(stats(all, "inner").kinds, std::vector<std::string>{"parallel_reduce"});
  EXPECT_EQ(tracker.open_invocations(), 0u);
}

TEST(KernelTracker, EndsOutOfOrderStillMatchTheirBegins) {
  FakeClock t;
  KernelTracker tracker(t.clock());
  const auto a = tracker.begin("a", kSerial, KernelKind::parallel_for);
  t.now += 1.0;
  const auto b = tracker.begin("b", kSerial, KernelKind::parallel_for);
  t.now += 1.0;
  EXPECT_TRUE(tracker.end(a));  // the outer one first (two host threads, say)
  t.now += 1.0;
  EXPECT_TRUE(tracker.end(b));
  const auto all = tracker.snapshot();
  EXPECT_DOUBLE_EQ(stats(all, "a").total_s, 2.0);
  EXPECT_DOUBLE_EQ(stats(all, "b").total_s, 2.0);
}

TEST(KernelTracker, BeginWithoutEndIsUnfinishedNotTimed) {
  FakeClock t;
  KernelTracker tracker(t.clock());
  tracker.end(tracker.begin("k", kSerial, KernelKind::parallel_for));
  const auto open = tracker.begin("k", kSerial, KernelKind::parallel_for);
  t.now += 10.0;
  auto all = tracker.snapshot();
  EXPECT_EQ(stats(all, "k").invocations, 1);
  EXPECT_EQ(stats(all, "k").unfinished, 1);
  EXPECT_DOUBLE_EQ(stats(all, "k").total_s, 0.0);
  EXPECT_EQ(tracker.open_invocations(), 1u);
  // A snapshot does not close it: a late end still completes it.
  EXPECT_TRUE(tracker.end(open));
  all = tracker.snapshot();
  EXPECT_EQ(stats(all, "k").invocations, 2);
  EXPECT_EQ(stats(all, "k").unfinished, 0);
  EXPECT_DOUBLE_EQ(stats(all, "k").total_s, 10.0);
}

TEST(KernelTracker, StrayAndDoubleEndsAreCountedAndIgnored) {
  KernelTracker tracker;
  EXPECT_FALSE(tracker.end(12345));
  const auto id = tracker.begin("k", kSerial, KernelKind::parallel_for);
  EXPECT_TRUE(tracker.end(id));
  EXPECT_FALSE(tracker.end(id));
  EXPECT_FALSE(tracker.end(0));
  EXPECT_EQ(tracker.stray_ends(), 3);
  EXPECT_EQ(stats(tracker.snapshot(), "k").invocations, 1);
}

TEST(KernelTracker, IdsAreNeverZeroAndUnique) {
  KernelTracker tracker;
  std::vector<std::uint64_t> ids;
  for (int i = 0; i < 100; ++i)
    ids.push_back(tracker.begin("k", kSerial, KernelKind::parallel_for));
  EXPECT_EQ(std::count(ids.begin(), ids.end(), 0u), 0);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
}

TEST(KernelTracker, MissingLabelsAreKept) {
  KernelTracker tracker;
  tracker.end(tracker.begin(nullptr, kSerial, KernelKind::parallel_for));
  tracker.end(tracker.begin("", kSerial, KernelKind::parallel_for));
  EXPECT_EQ(stats(tracker.snapshot(), "(unlabelled)").invocations, 2);
}

TEST(KernelTracker, OneLabelOnSeveralKindsAndSpaces) {
  KernelTracker tracker;
  tracker.end(tracker.begin("k", kCuda, KernelKind::parallel_for));
  tracker.end(tracker.begin("k", kOpenMP, KernelKind::parallel_reduce));
  tracker.end(tracker.begin("k", kCuda, KernelKind::parallel_for));
  const auto all = tracker.snapshot();
  const LabelStats& s = stats(all, "k");
  EXPECT_EQ(s.kinds, (std::vector<std::string>{"parallel_for", "parallel_reduce"}));
  EXPECT_EQ(s.spaces, (std::vector<std::string>{"Cuda", "OpenMP"}));
}

TEST(KernelTracker, SpaceNamesFromKokkos3To5DeviceIds) {
  EXPECT_EQ(space_name(0), "Serial");
  EXPECT_EQ(space_name((1u << 24) + 3), "OpenMP");              // Kokkos 3: type << 24 | instance
  EXPECT_EQ(space_name((2u << 24) | (1u << 17) | 5u), "Cuda");  // Kokkos 4: type, device, instance
  EXPECT_EQ(space_name(3u << 24), "HIP");
  EXPECT_EQ(space_name(7u << 24), "SYCL");
  EXPECT_EQ(space_name(9u << 24), "NextSilicon");  // Kokkos 5.2
  EXPECT_EQ(space_name(0xFFu << 24), "unknown");
  EXPECT_TRUE(is_cuda((2u << 24) | 9u));
  EXPECT_FALSE(is_cuda(1u << 24));
}

// An observer as the CUPTI code uses it: starts at begin, adds counters at end.
class CountingObserver : public KernelTracker::Observer {
 public:
  explicit CountingObserver(KernelTracker& t) : tracker(t) {}
  void on_begin(const Invocation& k) override {
    begun.push_back(k.label + "@" + std::to_string(k.depth));
  }
  void on_end(const Invocation& k, double seconds) override {
    ended.push_back(k.label);
    last_seconds = seconds;
    if (k.depth == 0) tracker.add_counters(k.label, {{"dram__bytes.sum", 64.0}});
  }
  KernelTracker& tracker;
  std::vector<std::string> begun, ended;
  double last_seconds = -1.0;
};

TEST(KernelTracker, ObserverSeesEveryKernelAndAddsCounters) {
  FakeClock t;
  KernelTracker tracker(t.clock());
  CountingObserver observer(tracker);
  tracker.set_observer(&observer);
  const auto a = tracker.begin("a", kCuda, KernelKind::parallel_for);
  const auto b = tracker.begin("b", kCuda, KernelKind::parallel_for);
  t.now += 2.0;
  tracker.end(b);
  tracker.end(a);
  tracker.end(tracker.begin("a", kCuda, KernelKind::parallel_for));
  tracker.set_observer(nullptr);
  tracker.end(tracker.begin("a", kCuda, KernelKind::parallel_for));  // not observed
  EXPECT_EQ(observer.begun, (std::vector<std::string>{"a@0", "b@1", "a@0"}));
  EXPECT_EQ(observer.ended, (std::vector<std::string>{"b", "a", "a"}));
  const auto all = tracker.snapshot();
  EXPECT_DOUBLE_EQ(stats(all, "a").counters.at("dram__bytes.sum"), 128.0);
  EXPECT_EQ(stats(all, "a").counted_invocations, 2);
  EXPECT_EQ(stats(all, "a").invocations, 3);
  EXPECT_TRUE(stats(all, "b").counters.empty());
}

TEST(KernelTracker, SeveralThreadsLoseNothing) {
  KernelTracker tracker;
  constexpr int kThreads = 4, kEach = 2000;
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&tracker, i] {
      const std::string label = i % 2 ? "odd" : "even";
      for (int k = 0; k < kEach; ++k)
        tracker.end(tracker.begin(label.c_str(), kOpenMP, KernelKind::parallel_for));
    });
  for (auto& th : threads) th.join();
  const auto all = tracker.snapshot();
  EXPECT_EQ(stats(all, "odd").invocations, kThreads / 2 * kEach);
  EXPECT_EQ(stats(all, "even").invocations, kThreads / 2 * kEach);
  EXPECT_EQ(tracker.stray_ends(), 0);
  EXPECT_EQ(tracker.open_invocations(), 0u);
}

// ------------------------------------------------------------------------------------
// The CUPTI metric list and evaluation math (pure: no CUPTI needed)

TEST(CuptiMetrics, ListHoldsTheRooflineMetricsOnce) {
  const std::vector<std::string> names = cupti::roofline_metric_names();
  for (char p : {'d', 'f', 'h'})
    for (const char* op : {"add", "mul", "fma"}) {
      const std::string name =
          std::string("sm__sass_thread_inst_executed_op_") + p + op + "_pred_on.sum";
      EXPECT_EQ(std::count(names.begin(), names.end(), name), 1) << name;
    }
  for (const char* name :
       {"sm__inst_executed_pipe_tensor.sum", "l1tex__t_bytes.sum", "lts__t_bytes.sum",
        "dram__bytes.sum", "l1tex__lsu_writeback_active_mem_lg.sum",
        "l1tex__lsu_writeback_active_mem_ds.sum", "l1tex__lsu_writeback_active_mem_lgds.sum",
        "lts__lts2xbar_cycles_active.sum", "gpu__time_duration.sum"})
    EXPECT_EQ(std::count(names.begin(), names.end(), name), 1) << name;
  for (const core::TensorPath& t : core::kTensorPaths)
    EXPECT_EQ(std::count(names.begin(), names.end(), std::string(t.metric)), 1) << t.metric;
  EXPECT_EQ(names.size(), 27u);
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
}

TEST(CuptiMetrics, RolesAndLevels) {
  int flops = 0, bytes = 0, alternative = 0, tensor = 0, tensor_ops = 0, time = 0;
  for (const cupti::Metric& m : cupti::roofline_metrics()) {
    EXPECT_FALSE(m.what.empty()) << m.name;
    EXPECT_EQ(m.name.substr(m.name.size() - 4), ".sum") << m.name;  // summable counters only
    switch (m.role) {
      case cupti::MetricRole::flops:
        ++flops;
        break;
      case cupti::MetricRole::tensor:
        ++tensor;
        break;
      case cupti::MetricRole::tensor_ops:
        ++tensor_ops;
        break;
      case cupti::MetricRole::bytes:
        ++bytes;
        break;
      case cupti::MetricRole::bytes_alternative:
        ++alternative;
        break;
      case cupti::MetricRole::time:
        ++time;
        break;
    }
    const bool has_level =
        m.role == cupti::MetricRole::bytes || m.role == cupti::MetricRole::bytes_alternative;
    EXPECT_EQ(!m.level.empty(), has_level) << m.name;
  }
  EXPECT_EQ(flops, 9);
  EXPECT_EQ(tensor, 1);
  EXPECT_EQ(tensor_ops, 9);  // core::kTensorPaths
  EXPECT_EQ(bytes, 3);
  EXPECT_EQ(alternative, 4);
  EXPECT_EQ(time, 1);
}

// One range of a Hopper-like chip: every metric but _mem_lg/_mem_ds.
cupti::MetricValues hopper_range() {
  return {{"sm__sass_thread_inst_executed_op_dadd_pred_on.sum", 100},
          {"sm__sass_thread_inst_executed_op_dmul_pred_on.sum", 50},
          {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum", 200},
          {"sm__sass_thread_inst_executed_op_fadd_pred_on.sum", 10},
          {"sm__sass_thread_inst_executed_op_fmul_pred_on.sum", 0},
          {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum", 20},
          {"sm__sass_thread_inst_executed_op_hadd_pred_on.sum", 0},
          {"sm__sass_thread_inst_executed_op_hmul_pred_on.sum", 0},
          {"sm__sass_thread_inst_executed_op_hfma_pred_on.sum", 0},
          {"sm__inst_executed_pipe_tensor.sum", 7},
          {"sm__ops_path_tensor_src_fp16.sum", 7 * 4096},  // Hopper's one FP16 metric
          {"sm__ops_path_tensor_src_fp64.sum", 0},
          {"l1tex__t_bytes.sum", 1000},
          {"lts__t_bytes.sum", 800},
          {"dram__bytes.sum", 300},
          {"l1tex__lsu_writeback_active_mem_lgds.sum", 10},
          {"lts__lts2xbar_cycles_active.sum", 20},
          {"gpu__time_duration.sum", 1500}};
}

TEST(CuptiMetrics, EvaluatesHandComputedCounts) {
  const cupti::Evaluation e = cupti::evaluate(hopper_range());
  const KernelRecord& c = e.counts;
  EXPECT_DOUBLE_EQ(c.flops_fp64, 100 + 50 + 2 * 200);  // 550: an FMA is two FLOPs
  EXPECT_DOUBLE_EQ(c.flops_fp32, 10 + 0 + 2 * 20);     // 50
  EXPECT_DOUBLE_EQ(c.flops_fp16, 0.0);
  EXPECT_DOUBLE_EQ(c.fma_fraction, (400.0 + 40.0) / 600.0);
  EXPECT_EQ(c.precision, "fp64");
  EXPECT_DOUBLE_EQ(c.tensor_instructions, 7.0);
  ASSERT_EQ(c.tensor_ops.size(), 1u);  // tc_fp64's 0 is no unit the kernel ran on
  EXPECT_EQ(c.tensor_ops[0].figure, "tc_fp16");
  EXPECT_DOUBLE_EQ(c.tensor_ops[0].ops, 7 * 4096.0);
  EXPECT_DOUBLE_EQ(c.flops(), 550 + 50 + 7 * 4096.0);
  EXPECT_DOUBLE_EQ(bytes_at(c, "l1"), 1000.0);  // the classic definitions are recorded
  EXPECT_DOUBLE_EQ(bytes_at(c, "l2"), 800.0);
  EXPECT_DOUBLE_EQ(bytes_at(c, "dram"), 300.0);
  ASSERT_EQ(e.bytes_alternative.size(), 2u);
  EXPECT_EQ(e.bytes_alternative[0].level, "l1");
  EXPECT_DOUBLE_EQ(e.bytes_alternative[0].bytes, 10 * 128.0);
  EXPECT_EQ(e.bytes_alternative[1].level, "l2");
  EXPECT_DOUBLE_EQ(e.bytes_alternative[1].bytes, 20 * 32.0);
  ASSERT_TRUE(e.gpu_time_s.has_value());
  EXPECT_DOUBLE_EQ(*e.gpu_time_s, 1.5e-6);
  EXPECT_TRUE(e.remarks.empty()) << e.remarks.front();
}

TEST(CuptiMetrics, AmpereWritebackIsLgPlusDs) {
  cupti::MetricValues v = {{"l1tex__lsu_writeback_active_mem_lg.sum", 10}};
  auto e = cupti::evaluate(v);
  ASSERT_FALSE(e.bytes_alternative.empty());
  EXPECT_DOUBLE_EQ(e.bytes_alternative[0].bytes, 1280.0);
  v["l1tex__lsu_writeback_active_mem_ds.sum"] = 5;
  e = cupti::evaluate(v);
  EXPECT_DOUBLE_EQ(e.bytes_alternative[0].bytes, 15 * 128.0);
  v["l1tex__lsu_writeback_active_mem_lgds.sum"] = 2;  // where the chip has it, it wins
  e = cupti::evaluate(v);
  EXPECT_DOUBLE_EQ(e.bytes_alternative[0].bytes, 2 * 128.0);
}

TEST(CuptiMetrics, MissingMetricsAreNamedNotGuessed) {
  cupti::MetricValues v = hopper_range();
  v.erase("lts__t_bytes.sum");  // L2 falls back on the newer definition
  v.erase("dram__bytes.sum");   // DRAM has none: no bytes
  v.erase("sm__inst_executed_pipe_tensor.sum");
  for (const char* op : {"hadd", "hmul", "hfma"})
    v.erase(std::string("sm__sass_thread_inst_executed_op_") + op + "_pred_on.sum");
  const cupti::Evaluation e = cupti::evaluate(v);
  EXPECT_DOUBLE_EQ(bytes_at(e.counts, "l2"), 640.0);
  EXPECT_DOUBLE_EQ(bytes_at(e.counts, "dram"), -1.0);
  EXPECT_DOUBLE_EQ(e.counts.fma_fraction, 440.0 / 600.0);  // FP16 had no FLOPs to count
  std::string all;
  for (const std::string& r : e.remarks) all += r + "\n";
  EXPECT_TRUE(contains(all, "L2 bytes from lts__lts2xbar_cycles_active.sum")) << all;
  EXPECT_TRUE(contains(all, "no DRAM bytes (dram__bytes.sum not collected)")) << all;
  EXPECT_TRUE(contains(all, "no FP16 FLOP metric")) << all;
  EXPECT_TRUE(contains(all, "no tensor instruction count")) << all;
}

TEST(CuptiMetrics, PartialPrecisionLeavesTheFmaShareUnknown) {
  cupti::MetricValues v = hopper_range();
  v.erase("sm__sass_thread_inst_executed_op_ffma_pred_on.sum");
  const cupti::Evaluation e = cupti::evaluate(v);
  EXPECT_DOUBLE_EQ(e.counts.flops_fp32, 10.0);  // what it has: fadd + fmul
  EXPECT_DOUBLE_EQ(e.counts.fma_fraction, -1.0);
  std::string all;
  for (const std::string& r : e.remarks) all += r + "\n";
  EXPECT_TRUE(contains(all, "FP32 FLOPs without ffma")) << all;
  EXPECT_TRUE(contains(all, "FMA share unknown")) << all;
}

TEST(CuptiMetrics, NoValuesNoCounts) {
  const cupti::Evaluation e = cupti::evaluate({});
  EXPECT_DOUBLE_EQ(e.counts.flops(), 0.0);
  EXPECT_DOUBLE_EQ(e.counts.fma_fraction, -1.0);
  EXPECT_TRUE(e.counts.precision.empty());
  EXPECT_TRUE(e.counts.bytes.empty());
  EXPECT_FALSE(e.gpu_time_s.has_value());
  EXPECT_FALSE(e.remarks.empty());
}

TEST(CuptiMetrics, AccumulateSumsRanges) {
  cupti::MetricValues total;
  cupti::accumulate(total, {{"dram__bytes.sum", 10}, {"gpu__time_duration.sum", 5}});
  cupti::accumulate(total, {{"dram__bytes.sum", 32}});
  EXPECT_DOUBLE_EQ(total.at("dram__bytes.sum"), 42.0);
  EXPECT_DOUBLE_EQ(total.at("gpu__time_duration.sum"), 5.0);
}

TEST(CuptiMetrics, ApplyCountsKeepsTheRecordAndNotesTheNewerBytes) {
  KernelRecord r;
  r.name = "gpp::v1";
  r.time_s = 2.0;
  r.note = "declared";
  cupti::apply_counts(cupti::evaluate(hopper_range()), r);
  EXPECT_EQ(r.name, "gpp::v1");
  EXPECT_DOUBLE_EQ(r.time_s, 2.0);
  EXPECT_DOUBLE_EQ(r.flops(), 600.0 + 7 * 4096.0);  // the CUDA cores' and tc_fp16's
  ASSERT_EQ(r.tensor_ops.size(), 1u);
  EXPECT_EQ(r.precision, "fp64");
  EXPECT_EQ(r.bytes.size(), 3u);
  EXPECT_EQ(r.note, "declared; newer Nsight Compute byte definitions: l1 1280 B, l2 640 B");
}

// ------------------------------------------------------------------------------------
// The profile file

LabelStats timed_label() {
  LabelStats s;
  s.label = "gpp::v3_team_size";
  s.kinds = {"parallel_reduce"};
  s.spaces = {"OpenMP"};
  s.invocations = 4;
  s.total_s = 0.4;
  s.min_s = 0.09;
  s.max_s = 0.11;
  return s;
}

TEST(ProfileFile, TimingOnlyRecord) {
  LabelStats s = timed_label();
  s.unfinished = 1;
  s.max_depth = 1;
  const KernelRecord r = to_record(s, 2);
  EXPECT_EQ(r.name, "gpp::v3_team_size");
  EXPECT_EQ(r.id, "k3");
  EXPECT_EQ(r.group, "");  // a program's kernels are no ladder
  EXPECT_EQ(r.order, 2);
  EXPECT_EQ(r.source, "kokkos-tools-timing");
  EXPECT_EQ(r.invocations, 4);
  EXPECT_EQ(r.samples, 4);
  EXPECT_DOUBLE_EQ(r.time_s, 0.4);
  EXPECT_DOUBLE_EQ(r.time_min, 0.09);
  EXPECT_DOUBLE_EQ(r.time_max, 0.11);
  EXPECT_TRUE(contains(r.time_source, "sum of 4 invocations")) << r.time_source;
  EXPECT_DOUBLE_EQ(r.flops(), 0.0);
  EXPECT_TRUE(r.bytes.empty());
  EXPECT_TRUE(contains(r.note, "1 invocation begun and never ended")) << r.note;
  EXPECT_TRUE(contains(r.note, "times are inclusive")) << r.note;
}

TEST(ProfileFile, CountedRecordUsesTheGpuDuration) {
  LabelStats s = timed_label();
  s.spaces = {"Cuda"};
  s.counters = hopper_range();
  s.counted_invocations = 4;
  const KernelRecord r = to_record(s, 0);
  EXPECT_EQ(r.source, "cupti");
  EXPECT_DOUBLE_EQ(r.flops_fp64, 550.0);
  EXPECT_DOUBLE_EQ(bytes_at(r, "dram"), 300.0);
  EXPECT_DOUBLE_EQ(r.time_s, 1.5e-6);  // gpu__time_duration.sum, not the replayed wall clock
  EXPECT_TRUE(contains(r.time_source, "gpu__time_duration.sum")) << r.time_source;
  EXPECT_TRUE(contains(r.note, "wall clock with profiling 0.4 s")) << r.note;

  s.counted_invocations = 3;  // counters missing for one: keep the wall clock, say so
  const KernelRecord partial = to_record(s, 0);
  EXPECT_DOUBLE_EQ(partial.time_s, 0.4);
  EXPECT_TRUE(contains(partial.note, "counters cover 3 of 4 invocations")) << partial.note;
}

TEST(ProfileFile, TextRoundTrip) {
  ProfileHeader h;
  h.kokkos_interface_version = 20211015;
  h.pid = 42;
  h.notes = {"times only"};
  LabelStats counted = timed_label();
  counted.label = "daxpy \"quoted\"\tand tabbed";
  counted.counters = hopper_range();
  counted.counted_invocations = 4;
  const std::string text = profile_text(h, {timed_label(), counted});
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
  EXPECT_EQ(text.rfind("{\"format\":\"rooftop-kokkos-profile\",\"version\":\"1.1\"", 0), 0u)
      << text.substr(0, 80);

  const Profile p = parse_profile(text, "mem.jsonl");
  EXPECT_EQ(p.version, "1.1");
  EXPECT_EQ(p.source, "kokkos-tools-timing");
  EXPECT_EQ(p.notes, std::vector<std::string>{"times only"});
  ASSERT_EQ(p.kernels.size(), 2u);
  const KernelRecord& a = p.kernels[0];
  EXPECT_EQ(a.name, "gpp::v3_team_size");
  EXPECT_EQ(a.id, "k1");
  EXPECT_EQ(a.invocations, 4);
  EXPECT_DOUBLE_EQ(a.time_s, 0.4);
  EXPECT_DOUBLE_EQ(a.fma_fraction, -1.0);
  const KernelRecord& b = p.kernels[1];
  EXPECT_EQ(b.name, "daxpy \"quoted\"\tand tabbed");
  EXPECT_EQ(b.source, "cupti");
  EXPECT_DOUBLE_EQ(b.flops_fp64, 550.0);
  EXPECT_DOUBLE_EQ(b.flops_fp32, 50.0);
  EXPECT_DOUBLE_EQ(b.fma_fraction, 440.0 / 600.0);
  EXPECT_EQ(b.precision, "fp64");
  EXPECT_DOUBLE_EQ(b.tensor_instructions, 7.0);
  ASSERT_EQ(b.bytes.size(), 3u);
  EXPECT_EQ(b.bytes[0].level, "l1");  // in the order written
  EXPECT_EQ(b.bytes[2].level, "dram");
  EXPECT_DOUBLE_EQ(bytes_at(b, "l2"), 800.0);
  EXPECT_DOUBLE_EQ(b.time_s, 1.5e-6);
}

TEST(ProfileFile, ReaderIgnoresUnknownKeysAndBlankLines) {
  const std::string text =
      "{\"format\":\"rooftop-kokkos-profile\",\"version\":\"1.7\",\"source\":\"cupti\",\"new\":1}\n"
      "\n"
      "{\"name\":\"k\",\"time_s\":0.5,\"bytes\":{\"dram\":64},\"someday\":[1,2]}\n";
  const Profile p = parse_profile(text, "f");
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].name, "k");
  EXPECT_EQ(p.kernels[0].source, "cupti");  // the header's, where a record has none
  EXPECT_EQ(p.kernels[0].id, "k1");
  EXPECT_DOUBLE_EQ(bytes_at(p.kernels[0], "dram"), 64.0);
}

TEST(ProfileFile, MalformedInputIsRejectedWithFileAndLine) {
  const std::string header = "{\"format\":\"rooftop-kokkos-profile\",\"version\":\"1.0\"}\n";
  EXPECT_TRUE(contains(error_of([] { parse_profile("", "p.jsonl"); }), "p.jsonl:1: empty profile"));
  EXPECT_TRUE(contains(error_of([] { parse_profile("{\"x\":1}\n", "p.jsonl"); }),
                       "p.jsonl:1: not a rooftop Kokkos profile"));
  EXPECT_TRUE(contains(
      error_of([] {
        parse_profile("{\"format\":\"rooftop-kokkos-profile\",\"version\":\"2.0\"}\n", "p.jsonl");
      }),
      "p.jsonl:1: profile format version 2.0 is not supported"));
  EXPECT_TRUE(contains(error_of([&] { parse_profile(header + "{oops\n", "p.jsonl"); }),
                       "p.jsonl:2: not JSON"));
  EXPECT_TRUE(contains(error_of([&] { parse_profile(header + "[1]\n", "p.jsonl"); }),
                       "p.jsonl:2: not a JSON object"));
  EXPECT_TRUE(contains(error_of([&] { parse_profile(header + "{\"time_s\":1}\n", "p.jsonl"); }),
                       "p.jsonl:2: kernel without a \"name\""));
  EXPECT_TRUE(contains(error_of([&] {
                         parse_profile(header + "{\"name\":\"k\",\"time_s\":\"slow\"}\n",
                                       "p.jsonl");
                       }),
                       "p.jsonl:2: \"time_s\" has the wrong type"));
  EXPECT_TRUE(contains(error_of([&] {
                         parse_profile(header + "{\"name\":\"k\",\"bytes\":{\"l1\":\"x\"}}\n",
                                       "p.jsonl");
                       }),
                       "p.jsonl:2: bytes \"l1\" is not a number"));
}

using rooftop::testing::TempDir;

TEST(ProfileFile, WriteIsAtomicAndReadable) {
  TempDir dir;
  const std::string path = dir.file("profile.jsonl");
  write_profile(path, ProfileHeader{}, {timed_label()});
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"profile.jsonl"});  // no temporary left
  const Profile p = read_profile(path);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].name, "gpp::v3_team_size");
  EXPECT_TRUE(contains(error_of([&] { write_profile(dir.file("no/such/dir/p.jsonl"), {}, {}); }),
                       "no/such/dir/p.jsonl: cannot write"));
  EXPECT_TRUE(contains(error_of([&] { read_profile(dir.file("missing.jsonl")); }),
                       "missing.jsonl: cannot read"));
}

// A link planted at the temporary name is refused, never followed (its target survives).
TEST(ProfileFile, ALinkAtTheTemporaryNameIsNotFollowed) {
  TempDir dir;
  const std::string path = dir.file("profile.jsonl");
  const std::string victim = dir.file("victim.txt");
  rooftop::testing::write_bytes(victim, "precious");
  const std::string planted = path + ".tmp" + std::to_string(getpid());
  ASSERT_EQ(symlink(victim.c_str(), planted.c_str()), 0);
  EXPECT_TRUE(contains(error_of([&] { write_profile(path, ProfileHeader{}, {timed_label()}); }),
                       "profile.jsonl: cannot write"));
  EXPECT_EQ(rooftop::testing::read_bytes(victim), "precious");
}

// ------------------------------------------------------------------------------------
// The C entry points, as Kokkos calls them (the shared library's own session)

class ConnectorEntryPoints : public ::testing::Test {
 protected:
  void SetUp() override { setenv("ROOFTOP_PROFILE_OUT", out.c_str(), 1); }
  void TearDown() override { unsetenv("ROOFTOP_PROFILE_OUT"); }
  TempDir dir;
  std::string out = dir.file("app.jsonl");
};

TEST_F(ConnectorEntryPoints, FakeKokkosRunIsWrittenAtFinalize) {
  kokkosp_init_library(0, 20211015, 0, nullptr);
  std::uint64_t id = 0, outer = 0, inner = 0, lost = 0;
  for (int i = 0; i < 3; ++i) {
    kokkosp_begin_parallel_for("axpy", kOpenMP, &id);
    EXPECT_NE(id, 0u);
    kokkosp_end_parallel_for(id);
  }
  kokkosp_begin_parallel_reduce("dot", kOpenMP, &outer);
  kokkosp_begin_parallel_scan("prefix", kOpenMP, &inner);  // nested inside "dot"
  kokkosp_end_parallel_scan(inner);
  kokkosp_end_parallel_reduce(outer);
  kokkosp_begin_parallel_for("never_ends", kOpenMP, &lost);
  kokkosp_end_parallel_for(999999);  // a stray end
  kokkosp_finalize_library();

  const Profile p = read_profile(out);
  EXPECT_EQ(p.source, "kokkos-tools-timing");
  ASSERT_EQ(p.kernels.size(), 4u);
  EXPECT_EQ(p.kernels[0].name, "axpy");
  EXPECT_EQ(p.kernels[0].invocations, 3);
  EXPECT_GE(p.kernels[0].time_s, 0.0);
  EXPECT_LE(p.kernels[0].time_min, p.kernels[0].time_max);
  EXPECT_EQ(p.kernels[1].name, "dot");
  EXPECT_EQ(p.kernels[1].invocations, 1);
  EXPECT_EQ(p.kernels[2].name, "prefix");
  EXPECT_TRUE(contains(p.kernels[2].note, "depth 1")) << p.kernels[2].note;
  EXPECT_EQ(p.kernels[3].name, "never_ends");
  EXPECT_EQ(p.kernels[3].invocations, 0);
  EXPECT_TRUE(contains(p.kernels[3].note, "1 invocation begun and never ended"))
      << p.kernels[3].note;
  for (const KernelRecord& k : p.kernels) EXPECT_EQ(k.source, "kokkos-tools-timing");

  std::ifstream in(out);
  std::string header;
  std::getline(in, header);
  EXPECT_TRUE(contains(header, "\"stray_ends\":1")) << header;
  EXPECT_TRUE(contains(header, "\"kokkos_interface_version\":20211015")) << header;
}

TEST_F(ConnectorEntryPoints, EachInitStartsAFreshSession) {
  std::uint64_t id = 0;
  kokkosp_init_library(0, 20211015, 0, nullptr);
  kokkosp_begin_parallel_for("first_run", kSerial, &id);
  kokkosp_end_parallel_for(id);
  kokkosp_finalize_library();
  kokkosp_init_library(0, 20211015, 0, nullptr);
  kokkosp_begin_parallel_for("second_run", kSerial, &id);
  kokkosp_end_parallel_for(id);
  kokkosp_finalize_library();
  const Profile p = read_profile(out);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].name, "second_run");
  kokkosp_finalize_library();  // a second finalize writes nothing and does not crash
  EXPECT_EQ(read_profile(out).kernels.size(), 1u);
}

TEST_F(ConnectorEntryPoints, UnwritableOutputIsReportedNotThrown) {
  setenv("ROOFTOP_PROFILE_OUT", dir.file("no/such/dir/app.jsonl").c_str(), 1);
  std::uint64_t id = 0;
  kokkosp_init_library(0, 20211015, 0, nullptr);
  kokkosp_begin_parallel_for("k", kSerial, &id);
  kokkosp_end_parallel_for(id);
  ::testing::internal::CaptureStderr();
  kokkosp_finalize_library();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(contains(err, "rooftop connector: kokkosp_finalize_library:")) << err;
  EXPECT_TRUE(contains(err, "cannot write")) << err;
}

TEST_F(ConnectorEntryPoints, WithoutAnOutputFileATableGoesToStderr) {
  unsetenv("ROOFTOP_PROFILE_OUT");
  std::uint64_t id = 0;
  kokkosp_init_library(0, 20211015, 0, nullptr);
  kokkosp_begin_parallel_for("visible_kernel", kSerial, &id);
  kokkosp_end_parallel_for(id);
  ::testing::internal::CaptureStderr();
  kokkosp_finalize_library();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(contains(err, "visible_kernel")) << err;
  EXPECT_TRUE(contains(err, "ROOFTOP_PROFILE_OUT")) << err;
}

// ------------------------------------------------------------------------------------
// Loaded into an unmodified Kokkos program, as a user loads it

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

TEST(ConnectorLibrary, ReportsEveryLabelledKernelOfAKokkosProgram) {
  TempDir dir;
  const std::string out = dir.file("app.jsonl");
  const std::string command =
      "KOKKOS_TOOLS_LIBS=" + quoted(ROOFTOP_CONNECTOR_LIBRARY) +  // the app's Kokkos is >= 4.5
      " ROOFTOP_PROFILE_OUT=" + quoted(out) + " OMP_NUM_THREADS=2 OMP_PROC_BIND=false " +
      quoted(ROOFTOP_CONNECTOR_APP) + " > " + quoted(dir.file("log")) + " 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const Profile p = read_profile(out);
  const auto find = [&](const std::string& name) -> const KernelRecord* {
    for (const KernelRecord& k : p.kernels)
      if (k.name == name) return &k;
    return nullptr;
  };
  const KernelRecord* axpy = find("app::axpy");
  const KernelRecord* dot = find("app::dot");
  const KernelRecord* prefix = find("app::prefix");
  ASSERT_TRUE(axpy && dot && prefix) << p.kernels.size() << " kernels";
  EXPECT_EQ(axpy->invocations, 3);
  EXPECT_EQ(dot->invocations, 1);
  EXPECT_EQ(prefix->invocations, 1);
  EXPECT_GT(axpy->time_s, 0.0);
  EXPECT_LE(axpy->time_min, axpy->time_max);
  EXPECT_LT(axpy->order, dot->order);  // in launch order
  EXPECT_LT(dot->order, prefix->order);
  for (const KernelRecord& k : p.kernels) {
    EXPECT_FALSE(contains(k.note, "never ended")) << k.name << ": " << k.note;
    EXPECT_EQ(k.group, "");
  }
}

}  // namespace
}  // namespace rooftop::connector

namespace rooftop::analyze {
namespace {

// Where the build has no cupti backend, asking for one says why instead of failing late.
TEST(CuptiBackend, BuildsWithoutItSayWhy) {
  if (cupti_backend_available())
    GTEST_SKIP() << "this build has the cupti backend (it needs a GPU)";
  const std::string why = cupti_backend_unavailable_reason();
  EXPECT_TRUE(why.find("GPU counters need") == 0) << why;
  try {
    make_cupti_backend({}, kKernelSampling);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), why);
  }
}

}  // namespace
}  // namespace rooftop::analyze
