#pragma once
// The roofline metrics that rooftop collects through CUPTI, as data, and the math that
// turns one range's metric values into a kernel's counts. Nothing here needs CUPTI, a
// GPU or a driver: the metric names are Perfworks / Nsight Compute names, the values a
// plain map, so the math is tested with hand-computed numbers.
//
// Counts (all `.sum` counters: they add up over ranges and invocations):
//   FLOPs     sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum, thread
//             instructions: an add or a mul is one FLOP, an FMA two
//   tensor    sm__inst_executed_pipe_tensor.sum, warp instructions, kept as a count
//   tensor ops  sm__ops_path_tensor_src_*.sum per matrix unit (core::kTensorPaths): ops,
//             a multiply-add two; a chip lacks some of them (skipped, as below)
//   bytes     the classic definitions, which are the recorded ones:
//               l1 l1tex__t_bytes.sum, l2 lts__t_bytes.sum, dram dram__bytes.sum
//             and the newer Nsight Compute ones, kept beside them:
//               l1 l1tex__lsu_writeback_active_mem_lgds.sum x 128 B (Hopper, Blackwell), or
//                  (l1tex__lsu_writeback_active_mem_lg.sum + ..._mem_ds.sum) x 128 B
//               l2 lts__lts2xbar_cycles_active.sum x 32 B
//   time      gpu__time_duration.sum (ns); with user ranges it covers the whole range,
//             so backends take their time from an un-instrumented run instead
// Which names a chip knows differs (no _mem_lg on GH100, no _mem_lgds on GA100): a metric
// a chip lacks is skipped with its reason, and the math uses what is there.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rooftop/core/model.hpp"

namespace rooftop::counters::cupti {

// What a metric is for in the roofline math.
enum class MetricRole {
  flops,              // FP64/FP32/FP16 add, mul, fma thread instructions
  tensor,             // tensor-pipe warp instructions
  tensor_ops,         // a matrix unit's operations (core::kTensorPaths)
  bytes,              // bytes at a level, the classic definition (recorded)
  bytes_alternative,  // bytes at a level, the newer definition (kept in the note)
  time,               // duration of the range
};

struct Metric {
  std::string name;  // "dram__bytes.sum"
  MetricRole role;
  std::string level;  // bytes: "l1", "l2", "dram"; empty otherwise
  std::string what;   // a few words for messages
};

// The roofline metrics, in a fixed order: FLOPs (fp64, fp32, fp16; add, mul, fma),
// tensor, tensor ops (kTensorPaths' order), classic bytes (l1, l2, dram), newer bytes, time.
const std::vector<Metric>& roofline_metrics();
std::vector<std::string> roofline_metric_names();

// A metric that is not collected, and why ("not a metric on GH100 (CUPTI_ERROR_...)").
struct SkippedMetric {
  std::string name;
  std::string reason;
};

// Metric name -> value for one range, or summed over several.
using MetricValues = std::map<std::string, double>;

// Adds `range` into `total` metric by metric (every roofline metric is a .sum counter).
void accumulate(MetricValues& total, const MetricValues& range);

// One range's (or a sum of ranges') values in the roofline's terms.
struct Evaluation {
  // Counts only: flops_fp64/32/16, fma_fraction, precision, tensor_instructions,
  // tensor_ops, bytes
  // (classic definitions, levels with a count). Name, time and the rest are left empty.
  core::KernelRecord counts;
  std::vector<core::LevelBytes> bytes_alternative;      // newer definitions, where counted
  std::optional<double> gpu_time_s;                     // gpu__time_duration.sum, seconds
  std::vector<std::string> remarks;                     // what is missing or derived, one each
};

// Pure: no CUPTI. A metric absent from `values` is missing: its count is left out and a
// remark says so. A precision counts FLOPs from the parts it has; the FMA share is known
// only where every precision with FLOPs has all three parts.
Evaluation evaluate(const MetricValues& values);

// Copies the counts into `record` (flops, fma_fraction, precision, tensor instructions
// and ops, bytes), and appends the newer byte definitions and the remarks to its note. Name,
// time, invocations and source are the caller's.
void apply_counts(const Evaluation& evaluation, core::KernelRecord& record);

}  // namespace rooftop::counters::cupti
