#include "rooftop/counters/metrics.hpp"

#include <cstdio>

#include "rooftop/core/format.hpp"
#include "rooftop/core/vocabulary.hpp"
#include "rooftop/counters/evaluate.hpp"

namespace rooftop::counters::cupti {
namespace {

using core::KernelRecord;
using counters::flop_metric;

constexpr const char* kTensor = "sm__inst_executed_pipe_tensor.sum";
constexpr const char* kL1 = "l1tex__t_bytes.sum";
constexpr const char* kL2 = "lts__t_bytes.sum";
constexpr const char* kDram = "dram__bytes.sum";
constexpr const char* kL1WritebackLgds = "l1tex__lsu_writeback_active_mem_lgds.sum";
constexpr const char* kL1WritebackLg = "l1tex__lsu_writeback_active_mem_lg.sum";
constexpr const char* kL1WritebackDs = "l1tex__lsu_writeback_active_mem_ds.sum";
constexpr const char* kL2Xbar = "lts__lts2xbar_cycles_active.sum";
constexpr const char* kDuration = "gpu__time_duration.sum";

std::string bytes_text(double bytes) { return core::format_number("%.6g B", bytes); }

}  // namespace

const std::vector<Metric>& roofline_metrics() {
  static const std::vector<Metric> metrics = [] {
    std::vector<Metric> m;
    for (const core::Precision& p : core::kPrecisions) {
      if (!p.counted_by_instructions()) continue;
      for (std::string_view op : core::kFlopOps)
        m.push_back({counters::flop_metric(p.sass, op), MetricRole::flops, "",
                     std::string(p.label) + " " + std::string(op) + " thread instructions"});
    }
    m.push_back({kTensor, MetricRole::tensor, "", "tensor-pipe warp instructions"});
    for (const core::TensorPath& t : core::kTensorPaths)
      m.push_back({std::string(t.metric), MetricRole::tensor_ops, "",
                   "matrix-unit operations counted against " + std::string(t.figure)});
    m.push_back({kL1, MetricRole::bytes, "l1", "L1 bytes"});
    m.push_back({kL2, MetricRole::bytes, "l2", "L2 bytes"});
    m.push_back({kDram, MetricRole::bytes, "dram", "DRAM bytes"});
    m.push_back({kL1WritebackLgds, MetricRole::bytes_alternative, "l1",
                 "L1 LSU writeback cycles, local/global/distributed shared (x 128 B)"});
    m.push_back({kL1WritebackLg, MetricRole::bytes_alternative, "l1",
                 "L1 LSU writeback cycles, local/global (x 128 B)"});
    m.push_back({kL1WritebackDs, MetricRole::bytes_alternative, "l1",
                 "L1 LSU writeback cycles, distributed shared (x 128 B)"});
    m.push_back(
        {kL2Xbar, MetricRole::bytes_alternative, "l2", "L2-to-crossbar active cycles (x 32 B)"});
    m.push_back({kDuration, MetricRole::time, "", "range duration (ns)"});
    return m;
  }();
  return metrics;
}

std::vector<std::string> roofline_metric_names() {
  std::vector<std::string> names;
  for (const Metric& m : roofline_metrics()) names.push_back(m.name);
  return names;
}

void accumulate(MetricValues& total, const MetricValues& range) {
  for (const auto& [name, value] : range) total[name] += value;
}

Evaluation evaluate(const MetricValues& values) {
  const counters::Counts c = counters::evaluate([&](const std::string& name) {
    const auto it = values.find(name);
    return it == values.end() ? std::nullopt : std::optional<double>(it->second);
  });
  Evaluation e;
  KernelRecord& r = e.counts;
  for (const counters::PrecisionFlops& f : c.flops) {
    const std::string label(f.precision->label);
    if (f.parts == 0) {
      e.remarks.push_back("no " + label + " FLOP metric (" +
                          flop_metric(f.precision->sass, "{add,mul,fma}") + "): " + label +
                          " FLOPs not counted");
      continue;
    }
    r.*f.precision->flops = f.flops;
    if (!f.lacking.empty())
      e.remarks.push_back(label + " FLOPs without " + f.lacking + " (" +
                          flop_metric(f.precision->sass, "*") + " not collected)");
  }
  if (!c.fma_known) e.remarks.push_back("FMA share unknown");
  if (c.fma_fraction) r.fma_fraction = *c.fma_fraction;
  r.precision = c.precision;

  if (c.tensor_instructions)
    r.tensor_instructions = *c.tensor_instructions;
  else
    e.remarks.push_back(std::string("no tensor instruction count (") + kTensor + ")");

  r.tensor_ops = counters::recorded_tensor_ops(c);
  if (c.tensor_instructions && *c.tensor_instructions > 0.0 && c.tensor_ops.empty())
    e.remarks.push_back(
        "tensor instructions counted but no sm__ops_path_tensor_src_*.sum: their operations "
        "are not in the FLOPs");

  // The newer definitions where the chip has them, kept beside the recorded bytes.
  if (c.l1_newer) e.bytes_alternative.push_back({"l1", *c.l1_newer});
  if (c.l2_newer) e.bytes_alternative.push_back({"l2", *c.l2_newer});

  // The recorded bytes: the classic definition, else the newer one (said in a remark).
  const char* classic[] = {kL1, kL2, kDram};
  const char* newer[] = {"l1tex__lsu_writeback_active_mem_{lgds,lg}.sum x 128 B",
                         "lts__lts2xbar_cycles_active.sum x 32 B", ""};
  for (std::size_t i = 0; i < c.bytes.size(); ++i) {
    const counters::LevelBytes& b = c.bytes[i];
    const std::string label(b.label);
    if (b.bytes) r.bytes.push_back(counters::recorded_bytes(b));
    if (const std::string partial = counters::partial_bytes_remark(b); !partial.empty())
      e.remarks.push_back(partial);
    if (b.bytes && b.newer)
      e.remarks.push_back(label + " bytes from " + newer[i] + " (" + classic[i] +
                          " not collected)");
    else if (!b.bytes)
      e.remarks.push_back("no " + label + " bytes (" + classic[i] + " not collected)");
  }
  e.gpu_time_s = c.duration_s;
  return e;
}

void apply_counts(const Evaluation& evaluation, core::KernelRecord& record) {
  const KernelRecord& c = evaluation.counts;
  for (const core::Precision& p : core::kPrecisions) record.*p.flops = c.*p.flops;
  record.fma_fraction = c.fma_fraction;
  record.precision = c.precision;
  record.tensor_instructions = c.tensor_instructions;
  record.tensor_ops = c.tensor_ops;
  record.bytes = c.bytes;

  std::vector<std::string> parts;
  if (!evaluation.bytes_alternative.empty()) {
    std::string s;
    for (const auto& b : evaluation.bytes_alternative)
      s += (s.empty() ? "" : ", ") + b.level + " " + bytes_text(b.bytes);
    parts.push_back("newer Nsight Compute byte definitions: " + s);
  }
  parts.insert(parts.end(), evaluation.remarks.begin(), evaluation.remarks.end());
  for (const std::string& p : parts) record.note += (record.note.empty() ? "" : "; ") + p;
}

}  // namespace rooftop::counters::cupti
